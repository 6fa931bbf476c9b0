// Map-reduce with Send: a conditional edge returns one Send per item; each worker gets its own
// input; results are reduced. Mirrors the docs' "Graph API" page ("Map-Reduce and the Send API").
export const title = "map-reduce with Send (per-item input, reduce, history, stream)";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, Send, START, END } = lg;

  const OverallState = Annotation.Root({
    topic: Annotation(),
    subjects: Annotation(),
    jokes: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
    bestJoke: Annotation(),
  });
  const graph = new StateGraph(OverallState)
    .addNode("generateSubjects", (s) => ({ subjects: [`${s.topic} lions`, `${s.topic} elephants`, `${s.topic} penguins`] }))
    .addNode("generateJoke", (state) => ({ jokes: [`Joke about ${state.subject}`] }))
    .addNode("pickBest", (s) => ({ bestJoke: s.jokes.at(-1) }))
    .addEdge(START, "generateSubjects")
    .addConditionalEdges("generateSubjects", (state) => state.subjects.map((subject) => new Send("generateJoke", { subject })))
    .addEdge("generateJoke", "pickBest")
    .addEdge("pickBest", END)
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "mr" } };
  t.record("result", await graph.invoke({ topic: "animals" }, config));
  await t.history("history", graph, config);
  await t.stream("updates", () => graph.stream({ topic: "zoo" }, { configurable: { thread_id: "mr-2" }, streamMode: "updates" }));
  const s = new Send("generateJoke", { subject: "x" });
  t.record("a Send object", { node: s.node, args: s.args });
}
