// streamEvents v3, LangGraph.js's streaming protocol: lifecycle, checkpoints envelopes,
// values, updates, tasks, custom data, a subgraph's events under its namespace (and its
// SubgraphRunStream), an interrupt; the run's output, interrupts and values projection.
// Mirrors the docs' "Event streaming" page (version "v3").
export const title = "streamEvents v3 protocol events and projections";

export default async function (lg, t) {
  const { Annotation, StateGraph, START, END, MemorySaver, interrupt } = lg;
  const State = Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  const inner = new StateGraph(State).addNode("step", () => ({ log: ["inner step"] })).addEdge(START, "step").compile();
  const graph = new StateGraph(State)
    .addNode("first", (_state, config) => {
      config.writer?.({ progress: "starting" });
      return { log: ["first"] };
    })
    .addNode("inner", inner)
    .addNode("ask", () => ({ log: [interrupt("continue?")] }))
    .addEdge(START, "first")
    .addEdge("first", "inner")
    .addEdge("inner", "ask")
    .addEdge("ask", END)
    .compile({ checkpointer: new MemorySaver() });
  const run = await graph.streamEvents({ log: [] }, { configurable: { thread_id: "v3" }, version: "v3" });
  await t.stream("events", () => run);
  t.record("output", await run.output);
  t.record("interrupted", run.interrupted);
  t.record("interrupts", run.interrupts);

  const again = await graph.streamEvents({ log: [] }, { configurable: { thread_id: "v3b" }, version: "v3" });
  const states = [];
  const subgraphs = [];
  await Promise.all([
    (async () => {
      for await (const s of again.values) states.push(s);
    })(),
    (async () => {
      for await (const sub of again.subgraphs) {
        const events = [];
        for await (const e of sub) events.push(e.method);
        subgraphs.push({ name: sub.name, path: sub.path, events });
      }
    })(),
  ]);
  t.record("values projection", states);
  t.record("subgraph streams", subgraphs);
  t.record("last values", await again.values);
}
