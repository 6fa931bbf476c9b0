import { runProgram, normalize } from "../compat/harness.mjs";
const lg = { ...(await import("chronograph")), ...(await import("chronograph/pregel")), ...(await import("chronograph/channels")) };
const { Graph, START, END, MemorySaver } = lg;
const r = await runProgram(async (lg, t) => {
    const graph = new Graph()
      .addNode("add", (x) => x + 1)
      .addNode("double", (x) => x * 2)
      .addNode("big", (x) => `${x} is big`)
      .addNode("small", (x) => `${x} is small`)
      .addEdge(START, "add")
      .addEdge("add", "double")
      .addConditionalEdges("double", (x) => (x > 5 ? "big" : "small"), ["big", "small"])
      .addEdge("big", END)
      .addEdge("small", END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "graph" } };
    await t.result("invoke", () => graph.invoke(2, config));
    await t.result("state", async () => { const s = await graph.getState(config); return { values: s.values, next: s.next, tasks: s.tasks, metadata: s.metadata }; });
    await t.history("history", graph, config);
    await t.stream("stream", () => graph.stream(1, { configurable: { thread_id: "graph2" }, streamMode: ["values", "updates"] }));
}, lg);
console.log(JSON.stringify(normalize(r), null, 0).slice(0, 3000));
