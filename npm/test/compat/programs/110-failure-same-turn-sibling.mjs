// Fault tolerance (LangGraph.js docs: "Persistence" > "Pending writes") with nodes that do not
// wait: in one superstep a node throws while its sibling returns in the same turn of the event
// loop (both synchronous, or both resolving at once). Is the sibling's result kept as a pending
// write, so that the resume runs only the failed node?
export const title = "a failure and a sibling finishing in the same turn: the sibling's writes kept or not";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, START, END } = lg;
  const State = Annotation.Root({ log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  for (const kind of ["sync", "async"]) {
    let broken = true;
    const calls = { fail: 0, sibling: 0 };
    const fail = kind === "sync"
      ? () => { calls.fail++; if (broken) throw new Error("boom"); return { log: ["fail fixed"] }; }
      : async () => { calls.fail++; if (broken) throw new Error("boom"); return { log: ["fail fixed"] }; };
    const sibling = kind === "sync"
      ? () => { calls.sibling++; return { log: ["sibling"] }; }
      : async () => { calls.sibling++; return { log: ["sibling"] }; };
    for (const order of ["fail first", "sibling first"]) {
      const g = new StateGraph(State);
      if (order === "fail first") g.addNode("fail", fail).addNode("sibling", sibling);
      else g.addNode("sibling", sibling).addNode("fail", fail);
      const graph = g
        .addEdge(START, "fail")
        .addEdge(START, "sibling")
        .addNode("join", (s) => ({ log: [`join(${s.log.join(",")})`] }))
        .addEdge(["fail", "sibling"], "join")
        .addEdge("join", END)
        .compile({ checkpointer: new MemorySaver() });
      const config = { configurable: { thread_id: `${kind}-${order}` } };
      broken = true;
      await t.result(`${kind}, ${order}: the run fails`, () => graph.invoke({ log: ["start"] }, config));
      const failed = await graph.getState(config);
      t.record(`${kind}, ${order}: tasks after the failure`, failed.tasks.map((task) => [task.name, task.error ?? null, task.result ?? null]));
      broken = false;
      await t.result(`${kind}, ${order}: resume`, () => graph.invoke(null, config));
      t.record(`${kind}, ${order}: calls`, { ...calls });
    }
  }
}
