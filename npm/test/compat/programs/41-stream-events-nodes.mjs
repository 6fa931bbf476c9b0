// streamEvents v2 on a 3-node graph: the graph's run, each task's (and its routers') as chain
// runs, the root's chunks as on_chain_stream, custom events dispatched in a node (with and
// without its config), the runnables a node calls, the stream filters, and v1. Mirrors the
// docs' "Streaming" concepts page ("Streaming LLM tokens and events (.streamEvents)").
import { dispatchCustomEvent } from "@langchain/core/callbacks/dispatch";
import { RunnableLambda } from "@langchain/core/runnables";

export const title = "streamEvents v2/v1: graph, tasks, routers, custom events, filters";

export default async function (lg, t) {
  const { Annotation, StateGraph, START, END, MemorySaver } = lg;
  const State = Annotation.Root({
    topic: Annotation(),
    steps: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const shout = RunnableLambda.from((text) => text.toUpperCase());
  const graph = new StateGraph(State)
    .addNode("research", async (state, config) => {
      await dispatchCustomEvent("progress", { done: 0.5 }, config);
      return { steps: [await shout.invoke(`notes on ${state.topic}`, config)] };
    })
    .addNode("write", async (state) => {
      await dispatchCustomEvent("progress", { done: 1 });
      return { steps: [`draft from ${state.steps.length} notes`] };
    })
    .addNode("review", () => ({ steps: ["ok"] }))
    .addEdge(START, "research")
    .addConditionalEdges("research", (state) => (state.steps.length > 0 ? "write" : END))
    .addEdge("write", "review")
    .addEdge("review", END)
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "events" }, version: "v2", tags: ["docs"], metadata: { user: "ada" } };

  await t.stream("every event", () => graph.streamEvents({ topic: "cats" }, config));
  await t.stream("only the write node", () => graph.streamEvents({ topic: "dogs" }, { ...config, configurable: { thread_id: "2" } }, { includeNames: ["write"] }));
  await t.stream("custom events only", async () => {
    const out = [];
    for await (const e of graph.streamEvents({ topic: "owls" }, { ...config, configurable: { thread_id: "3" } }, { excludeTypes: ["chain"] })) out.push(e);
    return out;
  });
  await t.stream("runs tagged graph:step:2", () => graph.streamEvents({ topic: "ants" }, { ...config, configurable: { thread_id: "4" } }, { includeTags: ["graph:step:2"] }));
  await t.stream("v1", () => graph.streamEvents({ topic: "bees" }, { ...config, version: "v1", configurable: { thread_id: "5" } }));
  t.record("state", (await graph.getState({ configurable: { thread_id: "events" } })).values);
}
