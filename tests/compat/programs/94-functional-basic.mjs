// The functional API's basics (LangGraph.js docs: "Functional API", "Use the functional API":
// an `entrypoint` with a checkpointer calling `task`s): invoke, the default "updates" stream
// (one chunk per task, then the entrypoint's), getState, a task called with several arguments,
// a task called from a StateGraph node, and an entrypoint given by name alone.
export const title = "entrypoint + task: invoke, default stream, getState, tasks in a StateGraph node";

export default async function (lg, t) {
  const { entrypoint, task, MemorySaver, StateGraph, Annotation, START } = lg;
  const calls = [];
  const addOne = task("addOne", async (n) => {
    calls.push(["addOne", n]);
    return n + 1;
  });
  const join = task({ name: "join" }, (a, b, sep) => `${a}${sep}${b}`);
  const workflow = entrypoint({ checkpointer: new MemorySaver(), name: "workflow" }, async (input) => {
    const a = await addOne(input.n);
    const b = await addOne(a);
    return { total: b, text: await join(a, b, "-") };
  });
  const config = { configurable: { thread_id: "fn-94" } };
  await t.result("invoke", () => workflow.invoke({ n: 1 }, config));
  t.record("calls", calls.splice(0));
  await t.result("getState", async () => {
    const s = await workflow.getState(config);
    return { values: s.values, next: s.next, tasks: s.tasks, metadata: s.metadata };
  });
  await t.stream("stream (default: updates)", () => workflow.stream({ n: 10 }, { configurable: { thread_id: "fn-94b" } }));
  t.record("calls after stream", calls.splice(0));
  t.record("graph shape", { name: workflow.name, nodes: Object.keys(workflow.nodes), streamMode: workflow.streamMode });

  // A task called from a StateGraph node.
  const State = Annotation.Root({ n: Annotation() });
  const graph = new StateGraph(State)
    .addNode("node", async (s) => ({ n: await addOne(s.n) }))
    .addEdge(START, "node")
    .compile({ checkpointer: new MemorySaver() });
  await t.stream("a task in a StateGraph node", () => graph.stream({ n: 5 }, { configurable: { thread_id: "fn-94c" } }));

  // A name given as the first argument: no checkpointer.
  const named = entrypoint("plain", async (x) => (await addOne(x)) * 2);
  await t.result("entrypoint(name, fn) invoke", () => named.invoke(3));
  t.record("calls at the end", calls.splice(0));
}
