// streamMode "custom": nodes send their own data with config.writer (gap 5). Mirrors the docs'
// "Streaming" page ("Stream custom data"), alone and mixed with "updates".
export const title = "streamMode custom with config.writer, and [custom, updates]";

export default async function (lg, t) {
  const { Annotation, StateGraph, START, END } = lg;

  const State = Annotation.Root({
    query: Annotation(),
    answer: Annotation(),
  });
  const graph = new StateGraph(State)
    .addNode("node", async (state, config) => {
      config.writer?.({ custom_key: "Generating custom data inside node" });
      config.writer?.({ progress: 50 });
      config.writer?.("plain string");
      return { answer: `some data for ${state.query}` };
    })
    .addNode("after", (_s, config) => {
      config.writer?.({ progress: 100 });
      return {};
    })
    .addEdge(START, "node")
    .addEdge("node", "after")
    .addEdge("after", END)
    .compile();

  await t.stream("custom", () => graph.stream({ query: "example" }, { streamMode: "custom" }));
  await t.stream("custom + updates", () => graph.stream({ query: "example" }, { streamMode: ["custom", "updates"] }));
  t.record("invoke still works", await graph.invoke({ query: "x" }));
}
