// LangGraph.js's own checkpointer validation suite
// (@langchain/langgraph-checkpoint-validation, all 718 tests of `validate`)
// against chronograph/langgraph's MemorySaver, plus the suite's opt-in
// getDeltaChannelHistory tests. Run by scripts/test-pkg.sh:
//   (cd npm/test/interop && node node_modules/vitest/vitest.mjs run --globals validation.spec.mjs)
// The name must not be "MemorySaver": the suite skips a test for the saver
// of that name ("should only store channel_values that have changed"),
// which LangGraph.js's own MemorySaver fails and Chronograph's passes.
import { validate, deltaChannelHistoryTests } from "@langchain/langgraph-checkpoint-validation";
import { MemorySaver } from "chronograph/langgraph";

const initializer = {
  checkpointerName: "chronograph/langgraph MemorySaver",
  createCheckpointer: () => new MemorySaver(),
};

validate(initializer);
deltaChannelHistoryTests(initializer);
