// The examples of the documentation run verbatim: the README's JavaScript
// example (the first ```js block after the heading "## JavaScript" is
// npm/test/readme_example.mjs, and running it prints what the example says),
// its Rust example (the engine crate's doc test, which `cargo test` runs), and
// the LangGraph.js example of docs/compat.md (the same output on both engines).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));

/** The first ```lang block after `heading` (a regular expression of the whole line) in `file`. */
function codeBlock(file, heading, lang) {
  const text = readFileSync(new URL(file, import.meta.url), "utf8");
  const start = text.search(heading);
  assert.ok(start >= 0, `${file} has a section ${heading}`);
  const block = text.slice(start).match(new RegExp(`^\`\`\`${lang}\n([\\s\\S]*?)^\`\`\`$`, "m"));
  assert.ok(block, `the section has a \`\`\`${lang} block`);
  return block[1];
}

const readmeExample = () => codeBlock("../../README.md", /^## JavaScript\s*$/m, "js");

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

/** The ```js block under "## From LangGraph.js: change one import" in docs/compat.md. */
const oneImportExample = () => codeBlock("../../docs/compat.md", /^## From LangGraph\.js: change one import\s*$/m, "js");

test("docs/compat.md's LangGraph.js example prints the same on @langchain/langgraph and on chronograph", () => {
  const code = oneImportExample();
  assert.match(code, /from "chronograph"; \/\/ was "@langchain\/langgraph"/);
  const run = (source) => execFileSync(process.execPath, ["--input-type=module", "-e", source], { cwd: here, encoding: "utf8" });
  const ours = run(code);
  const theirs = run(code.replace('from "chronograph"', 'from "@langchain/langgraph"'));
  assert.equal(ours, theirs);
  assert.match(ours, /a joke about dogs \(#1\)/);
});

/**
 * The engine crate's doc example (the first ``` block of core/src/lib.rs's
 * `//!` comment), as a reader sees it: without the lines rustdoc hides.
 */
function crateDocExample() {
  const lib = readFileSync(new URL("../../core/src/lib.rs", import.meta.url), "utf8");
  const doc = lib
    .split("\n")
    .filter((line) => line.startsWith("//!"))
    .map((line) => line.replace(/^\/\/! ?/, ""))
    .join("\n");
  const block = doc.match(/^```(?:rust)?\n([\s\S]*?)^```$/m);
  assert.ok(block, "core/src/lib.rs's crate documentation has an example");
  return block[1]
    .split("\n")
    .filter((line) => !/^#(\s|$)/.test(line))
    .join("\n");
}

test("the README's Rust example is the engine crate's doc test (cargo test runs it)", () => {
  assert.equal(codeBlock("../../README.md", /^## Rust\s*$/m, "rust"), crateDocExample());
});
