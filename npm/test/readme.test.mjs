// The README's JavaScript example runs verbatim: the first ```js block after
// the heading "## JavaScript" is npm/test/readme_example.mjs, and running it
// prints what the example says.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));

function readmeExample() {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const start = readme.search(/^## JavaScript\s*$/m);
  assert.ok(start >= 0, 'README.md has a "## JavaScript" section');
  const block = readme.slice(start).match(/^```js\n([\s\S]*?)^```$/m);
  assert.ok(block, "the section has a ```js block");
  return block[1];
}

test("the README's example is npm/test/readme_example.mjs", () => {
  assert.equal(readmeExample(), readFileSync(new URL("readme_example.mjs", import.meta.url), "utf8"));
});

test("the README's example runs and prints the thread's story", () => {
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", readmeExample()], { cwd: here, encoding: "utf8" });
  assert.deepEqual(out.trimEnd().split("\n"), [
    "Send this draft?",
    "true Any slots tomorrow? | Draft reply to: Any slots tomorrow?",
    "2 loop ",
    "1 loop review",
    "0 loop draft",
    "-1 input __start__",
    "Send this draft?",
    '{"review":{"approved":false}}',
    "loop:3 <- fork:2 <- loop:1 <- loop:0 <- input:-1",
  ]);
});

/** The ```js block under "### From LangGraph.js: change one import". */
function oneImportExample() {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const start = readme.search(/^### From LangGraph\.js: change one import\s*$/m);
  assert.ok(start >= 0, 'README.md has a "### From LangGraph.js: change one import" section');
  const block = readme.slice(start).match(/^```js\n([\s\S]*?)^```$/m);
  assert.ok(block, "the section has a ```js block");
  return block[1];
}

test("the README's LangGraph.js example prints the same on @langchain/langgraph and on chronograph", () => {
  const code = oneImportExample();
  assert.match(code, /from "chronograph"; \/\/ was "@langchain\/langgraph"/);
  const run = (source) => execFileSync(process.execPath, ["--input-type=module", "-e", source], { cwd: here, encoding: "utf8" });
  const ours = run(code);
  const theirs = run(code.replace('from "chronograph"', 'from "@langchain/langgraph"'));
  assert.equal(ours, theirs);
  assert.match(ours, /a joke about dogs \(#1\)/);
});
