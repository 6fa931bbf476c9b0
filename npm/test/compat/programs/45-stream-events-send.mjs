// streamEvents v2 on a map-reduce fan-out: the router's run in __start__'s task, one task run
// per Send (path ["__pregel_push", i, false], its argument as input), then the reduce step.
// Mirrors the docs' "Map-reduce" how-to (Send) with the "Streaming" concepts page (".streamEvents").
export const title = "streamEvents v2 on a Send fan-out";

export default async function (lg, t) {
  const { Annotation, StateGraph, START, END, Send } = lg;
  const State = Annotation.Root({
    subjects: Annotation(),
    jokes: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
    best: Annotation(),
  });
  const graph = new StateGraph(State)
    .addNode("joke", (arg) => ({ jokes: [`a joke about ${arg.subject}`] }))
    .addNode("pick", (state) => ({ best: state.jokes[0] }))
    .addConditionalEdges(START, (state) => state.subjects.map((subject) => new Send("joke", { subject })))
    .addEdge("joke", "pick")
    .addEdge("pick", END)
    .compile();
  await t.stream("events", () => graph.streamEvents({ subjects: ["cats", "dogs"] }, { version: "v2" }));
}
