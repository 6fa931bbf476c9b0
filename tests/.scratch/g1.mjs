import { Graph, START, END, MemorySaver } from "@langchain/langgraph";
const g = new Graph()
  .addNode("a", (x) => x + 1)
  .addNode("b", (x) => x * 10)
  .addNode("c", (x) => x - 1)
  .addEdge(START, "a")
  .addConditionalEdges("a", (x) => (x > 2 ? "b" : "c"))
  .addEdge("b", END)
  .addEdge("c", END)
  .compile({ checkpointer: new MemorySaver() });
const cfg = { configurable: { thread_id: "1" } };
console.log(await g.invoke(1, cfg));
console.log(JSON.stringify((await g.getState(cfg)), null, 1));
for await (const c of await g.stream(5, { configurable: { thread_id: "2" }, streamMode: ["values", "updates", "debug"] })) console.log(JSON.stringify(c));
const hist = []; for await (const s of g.getStateHistory(cfg)) hist.push(s);
console.log(JSON.stringify(hist.map(s => [s.values, s.next, s.metadata]), null, 0));
const tup = await g.checkpointer.getTuple(cfg); console.log(JSON.stringify(tup.checkpoint));
