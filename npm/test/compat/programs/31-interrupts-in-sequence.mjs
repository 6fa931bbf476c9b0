// Several interrupt() calls in one node, answered one at a time: on each resume the node runs
// again from the top and earlier interrupt() calls return their recorded answers. Mirrors the
// docs' "Interrupts" page ("Using multiple interrupts in a single node" / validating input in
// a loop).
export const title = "several interrupt() calls in one node, resumed one by one; validation loop";

export default async function (lg, t) {
  const { Annotation, StateGraph, MemorySaver, Command, interrupt, START, END } = lg;

  const State = Annotation.Root({
    name: Annotation(),
    age: Annotation(),
  });
  const runs = [];
  const graph = new StateGraph(State)
    .addNode("form", () => {
      runs.push("form");
      const name = interrupt("What is your name?");
      let question = "How old are you?";
      let age;
      for (;;) {
        age = interrupt(question);
        if (typeof age === "number" && age > 0) break;
        question = `'${age}' is not a valid age. How old are you?`;
      }
      return { name, age };
    })
    .addEdge(START, "form")
    .addEdge("form", END)
    .compile({ checkpointer: new MemorySaver() });

  const config = { configurable: { thread_id: "form" } };
  t.record("first", await graph.invoke({}, config));
  t.record("answer the name", await graph.invoke(new Command({ resume: "Ada" }), config));
  t.record("an invalid age", await graph.invoke(new Command({ resume: "old" }), config));
  t.record("tasks while waiting", (await graph.getState(config)).tasks);
  t.record("a valid age", await graph.invoke(new Command({ resume: 36 }), config));
  t.record("times the node ran", runs.length);
}
