// The install test's vitest run (install.test.mjs), one per layout: the
// message-class program (chat.mjs) and LangGraph.js's saver validation suite
// on chronograph/langgraph's MemorySaver and SqliteSaver, as
// npm/test/interop/validation.spec.mjs runs it, here with the package
// installed as an application installs it. (A name other than "MemorySaver":
// the suite skips a test for the saver of that name.)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validate } from "@langchain/langgraph-checkpoint-validation";
import { MemorySaver, SqliteSaver } from "chronograph/langgraph";
import { chat } from "./chat.mjs";

test("message instances in and out, of the application's own classes", async () => {
  expect(await chat()).toEqual([]);
});

validate({ checkpointerName: "chronograph/langgraph MemorySaver", createCheckpointer: () => new MemorySaver() });

let dir;
let files = 0;
validate({
  checkpointerName: "chronograph/langgraph SqliteSaver",
  beforeAll: () => {
    dir = mkdtempSync(join(tmpdir(), "chronograph-install-"));
  },
  afterAll: () => rmSync(dir, { recursive: true, force: true }),
  createCheckpointer: () => SqliteSaver.fromConnString(join(dir, `saver-${(files += 1)}.sqlite`)),
  destroyCheckpointer: (saver) => saver.db.close(),
});
