// Streaming the "values" and "updates" modes, the docs' "Streaming" page's first examples.
export const title = "streamMode values and updates";

export default async function (lg, t) {
  const { Annotation, StateGraph, START, END } = lg;

  const State = Annotation.Root({
    topic: Annotation(),
    joke: Annotation(),
    tags: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const graph = new StateGraph(State)
    .addNode("refineTopic", (s) => ({ topic: `${s.topic} and cats`, tags: ["refined"] }))
    .addNode("generateJoke", (s) => ({ joke: `This is a joke about ${s.topic}` }))
    .addNode("noop", () => ({}))
    .addEdge(START, "refineTopic")
    .addEdge("refineTopic", "generateJoke")
    .addEdge("generateJoke", "noop")
    .addEdge("noop", END)
    .compile();

  await t.stream("values", () => graph.stream({ topic: "ice cream" }, { streamMode: "values" }));
  await t.stream("updates", () => graph.stream({ topic: "ice cream" }, { streamMode: "updates" }));
  await t.stream("default mode", () => graph.stream({ topic: "ice cream" }));
}
