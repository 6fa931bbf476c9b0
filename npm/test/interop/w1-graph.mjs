// W1, the agent/tool loop the saver benches run (bench-saver.mjs, bench-saver-w1.mjs): an
// `agent` node counting up and a `tool` node, `iterations` times round, on LangGraph.js's
// engine; 2 checkpoints per iteration plus the input's.
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";

const State = Annotation.Root({
  count: Annotation({ reducer: (_, b) => b, default: () => 0 }),
  trail: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

/** W1 compiled on `checkpointer`, looping `iterations` times. */
export function w1Graph(checkpointer, iterations) {
  return new StateGraph(State)
    .addNode("agent", (s) => ({ count: s.count + 1, trail: ["agent"] }))
    .addNode("tool", () => ({ trail: ["tool"] }))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", (s) => (s.count < iterations ? "tool" : END), ["tool", END])
    .addEdge("tool", "agent")
    .compile({ checkpointer });
}
