// A compiled graph invoked inside a node: with streamEvents v2 its run nests in the node's
// (its tasks in it), and with v3 its protocol events come under the node's task namespace.
// Mirrors the docs' "Subgraphs" page ("invoke a graph from a node") with the "Streaming"
// concepts page (".streamEvents") and the "Event streaming" page (version "v3").
export const title = "streamEvents v2 and v3 around a graph invoked inside a node";

export default async function (lg, t) {
  const { Annotation, StateGraph, START, END, MemorySaver } = lg;
  const State = Annotation.Root({ value: Annotation({ reducer: (_a, b) => b, default: () => "" }) });
  const child = new StateGraph(State)
    .addNode("child_node", (state) => ({ value: `${state.value}, then the child` }))
    .addEdge(START, "child_node")
    .addEdge("child_node", END)
    .compile({ name: "Child" });
  const parent = new StateGraph(State)
    .addNode("parent_node", async (state) => {
      const out = await child.invoke({ value: state.value }, { configurable: { ls_agent_type: "helper" } });
      return { value: out.value };
    })
    .addNode("finish", (state) => ({ value: `${state.value}, done` }))
    .addEdge(START, "parent_node")
    .addEdge("parent_node", "finish")
    .addEdge("finish", END)
    .compile({ name: "Parent", checkpointer: new MemorySaver() });
  await t.stream("v2", () => parent.streamEvents({ value: "start" }, { configurable: { thread_id: "n1" }, version: "v2" }));
  await t.stream("v3", () => parent.streamEvents({ value: "start" }, { configurable: { thread_id: "n2" }, version: "v3" }));
  t.record("result", await parent.invoke({ value: "again" }, { configurable: { thread_id: "n3" } }));
}
