// A node with several interrupt() calls, resumed one answer at a time: between two answers it
// is paused again with one answer stored, and LangGraph.js's getState does not list it in
// `next` (its `_prepareStateSnapshot` counts the stored `__resume__` as the task's write), while
// the history and the "checkpoints"/"debug" stream list every task of the checkpoint. Mirrors
// the docs' "Interrupts" page ("Using multiple interrupts in a single node", "Validating human
// input" in a loop).
export const title = "next after a partial resume: getState, history, checkpoints and debug streams";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, Command, interrupt, START, END } = lg;

  const State = Annotation.Root({
    answers: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
    age: Annotation(),
  });
  const ask = () => {
    const name = interrupt("name?");
    const city = interrupt("city?");
    return { answers: [`${name} from ${city}`] };
  };
  const graph = new StateGraph(State)
    .addNode("ask", ask)
    .addNode("after", () => ({ answers: ["after"] }))
    .addEdge(START, "ask")
    .addEdge("ask", "after")
    .addEdge("after", END)
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "two" } };
  t.record("run", await graph.invoke({ answers: [] }, config));
  t.record("state before any answer", await graph.getState(config));
  await t.stream("resume 1 (checkpoints, debug)", () => graph.stream(new Command({ resume: "Ann" }), { ...config, streamMode: ["checkpoints", "debug", "updates"] }));
  const paused = await graph.getState(config);
  t.record("state after one answer", paused);
  t.record("the same checkpoint addressed by id", await graph.getState(paused.config));
  t.record("state with subgraphs", await graph.getState(config, { subgraphs: true }));
  await t.history("history after one answer", graph, config);
  t.record("resume 2", await graph.invoke(new Command({ resume: "Oslo" }), config));
  t.record("state at the end", await graph.getState(config));

  // Validating input in a loop: every invalid answer is stored and the node asks again.
  const getAge = () => {
    let prompt = "Please enter your age:";
    for (;;) {
      const answer = interrupt(prompt);
      if (typeof answer === "number" && answer >= 0) return { age: answer };
      prompt = `'${answer}' is not valid. Please enter a non-negative integer for age.`;
    }
  };
  const validating = new StateGraph(State)
    .addNode("getAge", getAge)
    .addEdge(START, "getAge")
    .addEdge("getAge", END)
    .compile({ checkpointer: new MemorySaver() });
  const v = { configurable: { thread_id: "age" } };
  t.record("validate: first", await validating.invoke({}, v));
  t.record("validate: bad answer", await validating.invoke(new Command({ resume: "not a number" }), v));
  t.record("validate: state", await validating.getState(v));
  t.record("validate: good answer", await validating.invoke(new Command({ resume: 25 }), v));
  t.record("validate: final state", await validating.getState(v));
}
