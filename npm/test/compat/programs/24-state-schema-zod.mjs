// The current docs' zod-based state definition: new StateSchema({ ... }) with zod fields,
// defaults, ReducedValue and MessagesValue (gap 1). Mirrors the docs' "Graph API" page
// ("Define state with StateSchema").
import { z } from "zod";

export const title = "StateSchema with zod fields, .default(), ReducedValue, MessagesValue";

export default async function (lg, t) {
  const { StateSchema, ReducedValue, MessagesValue, StateGraph, MemorySaver, START, END } = lg;

  const AgentState = new StateSchema({
    messages: MessagesValue,
    currentStep: z.string(),
    count: z.number().default(0),
    history: new ReducedValue(z.array(z.string()).default(() => []), {
      inputSchema: z.string(),
      reducer: (current, next) => [...current, next],
    }),
  });

  const graph = new StateGraph(AgentState)
    .addNode("step", (state) => ({
      currentStep: "step",
      count: state.count + 1,
      history: `step saw count=${state.count}, history=${state.history.length}`,
      messages: [{ role: "assistant", content: "stepped", id: "m-1" }],
    }))
    .addNode("done", (state) => ({ currentStep: "done", history: `done after ${state.history.length}` }))
    .addEdge(START, "step")
    .addEdge("step", "done")
    .addEdge("done", END)
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "zod" } };
  t.record("result", await graph.invoke({ currentStep: "start", messages: [{ role: "user", content: "go", id: "u-1" }] }, config));
  await t.history("history", graph, config);
  await t.result("invalid input (currentStep: 42)", () => graph.invoke({ currentStep: 42 }, { configurable: { thread_id: "zod-bad" } }));
}
