// The older state definitions LangGraph.js still accepts (gap 1): new StateGraph({ channels }),
// new StateGraph({ stateSchema }) and addNode({ name: fn, ... }). Mirrors older versions of the
// docs ("StateGraph with channels").
export const title = "new StateGraph({ channels }), new StateGraph({ stateSchema }), addNode({ ... })";

export default async function (lg, t) {
  const { StateGraph, Annotation, MemorySaver, START, END } = lg;

  const channels = {
    input: null,
    steps: { reducer: (a, b) => a.concat(b), default: () => [] },
    total: { value: (a, b) => a + b, default: () => 0 },
  };
  const g1 = new StateGraph({ channels })
    .addNode("one", (s) => ({ steps: [`one:${s.input}`], total: 1 }))
    .addNode("two", (s) => ({ steps: [`two:${s.steps.length}`], total: 2 }))
    .addEdge(START, "one")
    .addEdge("one", "two")
    .addEdge("two", END)
    .compile({ checkpointer: new MemorySaver() });
  const c1 = { configurable: { thread_id: "channels" } };
  t.record("{ channels }: result", await g1.invoke({ input: "x" }, c1));
  t.record("{ channels }: getState", await g1.getState(c1));

  const State = Annotation.Root({
    log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const g2 = new StateGraph({ stateSchema: State })
    .addNode({
      first: () => ({ log: ["first"] }),
      second: () => ({ log: ["second"] }),
    })
    .addEdge(START, "first")
    .addEdge("first", "second")
    .addEdge("second", END)
    .compile();
  t.record("{ stateSchema } + addNode({ ... })", await g2.invoke({}));
}
