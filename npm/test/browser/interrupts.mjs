// interrupt() in a browser (no AsyncLocalStorage): before the node's first
// await it finds its node by itself; after one, with the node's config; and
// without it, the error says so. Returns what happened.
export async function interrupts({ StateGraph, MemorySaver, START, Command, interrupt }) {
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  const graph = new StateGraph({ early: "last_value", late: "last_value" })
    .addNode("ask", async (_, config) => {
      const early = interrupt("early?");
      await tick();
      const late = interrupt("late?", config);
      return { early, late };
    })
    .addEdge(START, "ask")
    .compile({ checkpointer: new MemorySaver() });
  const cfg = { configurable: { thread_id: "browser-interrupts" } };
  const asked = [];
  let out = await graph.invoke({}, cfg);
  asked.push(out.__interrupt__.map((i) => i.value));
  out = await graph.invoke(new Command({ resume: 1 }), cfg);
  asked.push(out.__interrupt__.map((i) => i.value));
  out = await graph.invoke(new Command({ resume: 2 }), cfg);

  const lost = new StateGraph({ v: "last_value" })
    .addNode("ask", async () => {
      await tick();
      return { v: interrupt("lost?") };
    })
    .addEdge(START, "ask")
    .compile({ checkpointer: new MemorySaver() });
  let error = null;
  try {
    await lost.invoke({ v: 0 }, { configurable: { thread_id: "browser-lost" } });
  } catch (e) {
    error = { isError: e instanceof Error, name: e.name, code: e.code, node: e.node };
  }
  return { asked, final: out, error };
}

export const expectedInterrupts = {
  asked: [["early?"], ["late?"]],
  final: { early: 1, late: 2 },
  error: { isError: true, name: "GraphValueError", code: "INTERRUPT_OUTSIDE_NODE", node: "ask" },
};
