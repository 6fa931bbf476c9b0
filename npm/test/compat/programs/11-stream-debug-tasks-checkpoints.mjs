// The exact chunk shapes of streamMode "debug", "tasks" and "checkpoints" (gap 5): task start
// with input/triggers/interrupts, task result with result, checkpoints with tasks. Mirrors the
// docs' "Streaming" page ("debug" mode) on a graph with a checkpointer and an interrupt.
export const title = "streamMode debug, tasks, checkpoints (with a checkpointer and an interrupt)";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, START, END, Command, interrupt } = lg;

  const State = Annotation.Root({
    value: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const graph = new StateGraph(State)
    .addNode("first", () => ({ value: ["first"] }))
    .addNode("ask", () => ({ value: [`answer:${interrupt("question")}`] }))
    .addEdge(START, "first")
    .addEdge("first", "ask")
    .addEdge("ask", END)
    .compile({ checkpointer: new MemorySaver() });

  for (const mode of ["debug", "tasks", "checkpoints"]) {
    const config = { configurable: { thread_id: `t-${mode}` } };
    await t.stream(`${mode}: until the interrupt`, () => graph.stream({ value: ["in"] }, { ...config, streamMode: mode }));
    await t.stream(`${mode}: resume`, () => graph.stream(new Command({ resume: "yes" }), { ...config, streamMode: mode }));
  }

  // Without a checkpointer.
  const plain = new StateGraph(State)
    .addNode("only", () => ({ value: ["x"] }))
    .addEdge(START, "only")
    .compile();
  await t.stream("debug without a checkpointer", () => plain.stream({ value: [] }, { streamMode: "debug" }));
  await t.stream("tasks without a checkpointer", () => plain.stream({ value: [] }, { streamMode: "tasks" }));
}
