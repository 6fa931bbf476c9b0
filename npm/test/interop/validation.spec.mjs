// LangGraph.js's own checkpointer validation suite
// (@langchain/langgraph-checkpoint-validation, all 718 tests of `validate`)
// against chronograph/langgraph's MemorySaver, SqliteSaver (on a real
// file, a new one per set of validations) and PostgresSaver (on a real
// server started here, postgres.mjs: a new schema per set of validations;
// skipped without PostgreSQL's binaries), plus the suite's opt-in
// getDeltaChannelHistory tests. Run by scripts/test-pkg.sh:
//   (cd npm/test/interop && node node_modules/vitest/vitest.mjs run --globals validation.spec.mjs)
// The name must not be "MemorySaver": the suite skips a test for the saver
// of that name ("should only store channel_values that have changed"),
// which LangGraph.js's own MemorySaver fails and Chronograph's passes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validate, deltaChannelHistoryTests } from "@langchain/langgraph-checkpoint-validation";
import { MemorySaver, PostgresSaver, SqliteSaver } from "chronograph/langgraph";
import { startPostgres } from "./postgres.mjs";

const memory = {
  checkpointerName: "chronograph/langgraph MemorySaver",
  createCheckpointer: () => new MemorySaver(),
};
validate(memory);
deltaChannelHistoryTests(memory);

let dir;
let files = 0;
const sqlite = {
  checkpointerName: "chronograph/langgraph SqliteSaver",
  beforeAll: () => {
    dir = mkdtempSync(join(tmpdir(), "chronograph-validation-"));
  },
  afterAll: () => rmSync(dir, { recursive: true, force: true }),
  createCheckpointer: () => SqliteSaver.fromConnString(join(dir, `saver-${(files += 1)}.sqlite`)),
  destroyCheckpointer: (saver) => saver.db.close(),
};
validate(sqlite);
deltaChannelHistoryTests(sqlite);

const pg = startPostgres();
if (pg !== null) {
  afterAll(() => pg.stop());
  let schemas = 0;
  const postgres = {
    checkpointerName: "chronograph/langgraph PostgresSaver",
    createCheckpointer: async () => {
      const saver = PostgresSaver.fromConnString(pg.url, { schema: `validation_${(schemas += 1)}` });
      await saver.setup();
      return saver;
    },
    destroyCheckpointer: (saver) => saver.end(),
  };
  validate(postgres);
  deltaChannelHistoryTests(postgres);
}
