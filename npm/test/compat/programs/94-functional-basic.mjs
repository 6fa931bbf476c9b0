// The functional API's basics (LangGraph.js docs: "Functional API", "Use the functional API":
// an `entrypoint` with a checkpointer calling `task`s): invoke, the default "updates" stream
// (one chunk per task, then the entrypoint's), getState, a task called with several arguments,
// a task called from a StateGraph node, a task calling a task (and its config's metadata), an
// entrypoint run inside a node, and an entrypoint given by name alone.
export const title = "entrypoint + task: invoke, default stream, getState, tasks in a StateGraph node";

export default async function (lg, t) {
  const { entrypoint, task, MemorySaver, StateGraph, Annotation, START, getConfig } = lg;
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

  // A task calling a task; a task's config (getConfig()) names it; an entrypoint run by a node.
  const inner = task("inner", async (x) => x + 1);
  const outer = task("outer", async (x) => {
    const { metadata } = getConfig();
    calls.push(["outer", metadata.langgraph_node, metadata.langgraph_path, metadata.langgraph_triggers]);
    return (await inner(x)) * 10;
  });
  const nested = entrypoint({ checkpointer: new MemorySaver(), name: "nested" }, async (x) => outer(x));
  await t.stream("a task calling a task", () => nested.stream(1, { configurable: { thread_id: "fn-94d" } }));
  const inNode = new StateGraph(State)
    .addNode("run", async (s) => ({ n: await nested.invoke(s.n) }))
    .addEdge(START, "run")
    .compile({ checkpointer: new MemorySaver() });
  await t.stream("an entrypoint run by a node (subgraphs)", () => inNode.stream({ n: 2 }, { configurable: { thread_id: "fn-94e" }, subgraphs: true }));

  // A name given as the first argument: no checkpointer.
  const named = entrypoint("plain", async (x) => (await addOne(x)) * 2);
  await t.result("entrypoint(name, fn) invoke", () => named.invoke(3));
  t.record("calls at the end", calls.splice(0));
}
