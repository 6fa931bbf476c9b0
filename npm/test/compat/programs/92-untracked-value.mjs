// UntrackedValue: a state field kept while a run goes on but never checkpointed (a database
// handle, a scratch value): the next node reads it, the run's result has it, getState, history
// and the saver's stored values do not; a run from a checkpoint starts from its default; two
// writes in one superstep are an InvalidUpdateError unless guard is false. As an
// Annotation.Root channel (UntrackedValueChannel) and a StateSchema field (UntrackedValue).
// Mirrors LangGraph.js's reference docs of `UntrackedValue` / `UntrackedValueChannel`.
import { z } from "zod";

export const title = "UntrackedValue: a field never checkpointed (Annotation channel, StateSchema field, guard)";

export default async function (lg, t) {
  const { Annotation, StateSchema, ReducedValue, UntrackedValue, UntrackedValueChannel, StateGraph, MemorySaver, START, END } = lg;

  const State = Annotation.Root({
    log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
    scratch: new UntrackedValueChannel(),
    withDefault: new UntrackedValueChannel({ initialValueFactory: () => "initial" }),
  });
  const saver = new MemorySaver();
  const graph = new StateGraph(State)
    .addNode("a", () => ({ log: ["a"], scratch: "from a", withDefault: "set by a" }))
    .addNode("b", (s) => ({ log: [`b saw ${s.scratch} / ${s.withDefault}`] }))
    .addNode("c", (s) => ({ log: [`c saw ${s.scratch} / ${s.withDefault}`] }))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", "c")
    .addEdge("c", END)
    .compile({ checkpointer: saver, interruptBefore: ["c"] });
  const config = { configurable: { thread_id: "untracked" } };
  t.record("run: result", await graph.invoke({ log: ["in"], scratch: "from input" }, config));
  t.record("paused: state", (await graph.getState(config)).values);
  t.record("continued: result", await graph.invoke(null, config));
  await t.history("history", graph, config);
  const stored = [];
  for await (const tuple of saver.list(config)) {
    // (LangGraph.js keeps an untracked channel's key, holding undefined: compared as absent.)
    const { scratch, withDefault, log } = tuple.checkpoint.channel_values;
    stored.push({ step: tuple.metadata.step, values: { scratch, withDefault, log }, writes: (tuple.pendingWrites ?? []).map(([, c]) => c) });
  }
  t.record("stored values and writes", stored);
  await t.stream("values stream", () => graph.stream({ log: ["again"] }, { configurable: { thread_id: "untracked-2" }, streamMode: "values" }));
  const updated = await graph.updateState(config, { scratch: "updated", log: ["u"] }, "b");
  t.record("after updateState: state", (await graph.getState(updated)).values);
  t.record("after updateState: run", await graph.invoke(null, config));

  // guard: two writes in one superstep.
  const Guarded = Annotation.Root({
    strict: new UntrackedValueChannel(),
    loose: new UntrackedValueChannel({ guard: false }),
    seen: Annotation(),
  });
  const fanOut = (key) =>
    new StateGraph(Guarded)
      .addNode("x", () => ({ [key]: "x" }))
      .addNode("y", () => ({ [key]: "y" }))
      .addNode("join", (s) => ({ seen: `join saw ${s[key]}` }))
      .addEdge(START, "x")
      .addEdge(START, "y")
      .addEdge(["x", "y"], "join")
      .compile();
  await t.result("guard false: last write kept", () => fanOut("loose").invoke({}));
  await t.result("guard true: two writes", () => fanOut("strict").invoke({}));

  // A StateSchema field, with a schema and its default.
  const Schema = new StateSchema({
    history: new ReducedValue(z.array(z.string()).default(() => []), { inputSchema: z.string(), reducer: (a, b) => [...a, b] }),
    session: new UntrackedValue(z.string().default("no session")),
    anything: new UntrackedValue(),
  });
  const schemaGraph = new StateGraph(Schema)
    .addNode("open", (s) => ({ history: `open saw ${s.session}`, session: "s-1", anything: { n: 1 } }))
    .addNode("use", (s) => ({ history: `use saw ${s.session} ${JSON.stringify(s.anything)}` }))
    .addEdge(START, "open")
    .addEdge("open", "use")
    .compile({ checkpointer: new MemorySaver(), interruptBefore: ["use"] });
  const schemaConfig = { configurable: { thread_id: "schema" } };
  t.record("StateSchema: paused", await schemaGraph.invoke({ history: "in" }, schemaConfig));
  t.record("StateSchema: continued", await schemaGraph.invoke(null, schemaConfig));
  t.record("StateSchema: state", (await schemaGraph.getState(schemaConfig)).values);
  await t.result("StateSchema: invalid input", () => schemaGraph.invoke({ session: 42 }, { configurable: { thread_id: "schema-bad" } }));
}
