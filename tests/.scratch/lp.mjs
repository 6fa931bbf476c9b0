const lg = await import(process.argv[2] === "lg" ? "@langchain/langgraph" : "chronograph");
const { Graph, START, END, MemorySaver } = lg;
const logs = [];
class LongPut extends MemorySaver {
  async put(config, checkpoint, metadata) {
    logs.push("putting checkpoint");
    await new Promise((r) => setTimeout(r, 100));
    try { const r = await super.put(config, checkpoint, metadata); logs.push("put checkpoint"); return r; }
    catch (e) { logs.push("error putting checkpoint " + e.stack); throw e; }
  }
}
const g = new Graph().addNode("agent", async (x, config) => { logs.push("start"); await new Promise((r) => setTimeout(r, 200)); return x + 1; }).addEdge(START, "agent").addEdge("agent", END).compile({ checkpointer: new LongPut() });
console.log(await g.invoke(1, { configurable: { thread_id: "1" } }));
await new Promise((r) => setTimeout(r, 300));
console.log(logs);
