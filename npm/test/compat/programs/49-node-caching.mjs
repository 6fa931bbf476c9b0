// addNode(name, fn, { cachePolicy }) with compile({ cache: new InMemoryCache() }): a node runs
// once per input; later runs stream its update with __metadata__: { cached: true } and store
// its writes on the checkpoint; keyFunc decides which inputs share an entry; ttl expires
// (Date.now, which InMemoryCache reads, is stubbed); failures and interrupts are not cached;
// Send tasks are keyed by their argument; clearCache() drops everything; a cached messages
// node streams no message. Mirrors the docs' "Graph API" page ("Add node caching").
import { InMemoryCache } from "@langchain/langgraph-checkpoint";
import { AIMessage, HumanMessage } from "@langchain/core/messages";

export const title = "cachePolicy + compile({ cache }): cached updates, keyFunc, ttl, errors, Send, clearCache";

export default async function (lg, t) {
  const { Annotation, MessagesAnnotation, StateGraph, MemorySaver, Send, Command, interrupt, START, END } = lg;

  // The docs' graph: a slow node with a ttl of two minutes.
  const State = Annotation.Root({
    items: Annotation({ reducer: (acc, item) => [...acc, ...item], default: () => [] }),
  });
  let calls = 0;
  const saver = new MemorySaver();
  const cache = new InMemoryCache();
  const graph = new StateGraph(State)
    .addNode(
      "node",
      async () => {
        calls += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { items: ["Hello, how are you?"] };
      },
      { cachePolicy: { ttl: 120 } },
    )
    .addNode("after", (state) => ({ items: [`after (saw ${state.items.length})`] }))
    .addEdge(START, "node")
    .addConditionalEdges("node", () => "after", ["after"])
    .addEdge("after", END)
    .compile({ checkpointer: saver, cache });
  t.record("graph.cache is the cache given", graph.cache === cache);
  t.record("first run", await graph.invoke({ items: ["Hello!"] }, { configurable: { thread_id: "1" } }));
  t.record("second run", await graph.invoke({ items: ["Hello!"] }, { configurable: { thread_id: "2" } }));
  t.record("calls after two runs", calls);
  await t.stream("updates (cached)", () => graph.stream({ items: ["Hello!"] }, { configurable: { thread_id: "3" }, streamMode: "updates" }));
  await t.stream("tasks and debug (cached)", () =>
    graph.stream({ items: ["Hello!"] }, { configurable: { thread_id: "4" }, streamMode: ["tasks", "debug", "values"] }),
  );
  await t.stream("updates (another input runs)", () => graph.stream({ items: ["Hi"] }, { configurable: { thread_id: "5" }, streamMode: "updates" }));
  t.record("calls", calls);
  await t.history("history of a cached run", graph, { configurable: { thread_id: "2" } });
  const writes = [];
  for await (const tuple of saver.list({ configurable: { thread_id: "2" } })) writes.push({ step: tuple.metadata.step, writes: tuple.pendingWrites });
  t.record("stored writes of a cached run", writes);
  t.record("cache namespaces", Object.keys(cache.cache).sort());
  await graph.clearCache();
  t.record("cache after clearCache", cache.cache);
  await graph.invoke({ items: ["Hello!"] }, { configurable: { thread_id: "6" } });
  t.record("calls after clearCache", calls);

  // keyFunc is given [input]; cachePolicy: true is {} (no expiry).
  const Keyed = Annotation.Root({ user: Annotation(), greeting: Annotation() });
  const seen = [];
  const keyed = new StateGraph(Keyed)
    .addNode("greet", (state) => ({ greeting: `hello ${state.user.name}` }), {
      cachePolicy: {
        keyFunc: (args) => {
          seen.push(args);
          return String(args[0].user.id);
        },
      },
    })
    .addNode("shout", (state) => ({ greeting: state.greeting.toUpperCase() }), { cachePolicy: true })
    .addEdge(START, "greet")
    .addEdge("greet", "shout")
    .addEdge("shout", END)
    .compile({ cache: new InMemoryCache() });
  t.record("keyFunc: first", await keyed.invoke({ user: { id: 1, name: "Ada" } }));
  t.record("keyFunc: same id, another name (cached)", await keyed.invoke({ user: { id: 1, name: "Bob" } }));
  t.record("keyFunc: another id", await keyed.invoke({ user: { id: 2, name: "Bob" } }));
  t.record("keyFunc arguments", seen);

  // ttl in seconds, measured by Date.now (stubbed here, as a fake clock would).
  const realNow = Date.now;
  let now = realNow.call(Date);
  let ttlCalls = 0;
  const ttl = new StateGraph(State)
    .addNode("node", () => {
      ttlCalls += 1;
      return { items: [`call ${ttlCalls}`] };
    }, { cachePolicy: { ttl: 10 } })
    .addEdge(START, "node")
    .compile({ cache: new InMemoryCache() });
  Date.now = () => now;
  try {
    t.record("ttl: first", await ttl.invoke({ items: [] }));
    now += 9_000;
    t.record("ttl: after 9 s (cached)", await ttl.invoke({ items: [] }));
    now += 1_000;
    t.record("ttl: after 10 s (expired)", await ttl.invoke({ items: [] }));
  } finally {
    Date.now = realNow;
  }

  // A failure is not cached; nor is an interrupt; the resumed run's writes are.
  let attempts = 0;
  const flaky = new StateGraph(State)
    .addNode("node", () => {
      attempts += 1;
      if (attempts === 1) throw new Error("first attempt fails");
      return { items: [`attempt ${attempts}`] };
    }, { cachePolicy: true })
    .addEdge(START, "node")
    .compile({ checkpointer: new MemorySaver(), cache: new InMemoryCache() });
  await t.result("failure", () => flaky.invoke({ items: [] }, { configurable: { thread_id: "f1" } }));
  t.record("after a failure it runs again", await flaky.invoke({ items: [] }, { configurable: { thread_id: "f2" } }));
  t.record("then it is cached", await flaky.invoke({ items: [] }, { configurable: { thread_id: "f3" } }));
  const AskState = Annotation.Root({ answer: Annotation() });
  let asked = 0;
  const asking = new StateGraph(AskState)
    .addNode("ask", () => {
      asked += 1;
      return { answer: interrupt("why?") };
    }, { cachePolicy: true })
    .addEdge(START, "ask")
    .compile({ checkpointer: new MemorySaver(), cache: new InMemoryCache() });
  t.record("interrupt: paused", await asking.invoke({}, { configurable: { thread_id: "i1" } }));
  t.record("interrupt: paused again (not cached)", await asking.invoke({}, { configurable: { thread_id: "i2" } }));
  t.record("interrupt: resumed", await asking.invoke(new Command({ resume: "because" }), { configurable: { thread_id: "i2" } }));
  t.record("interrupt: a new run gets the resumed run's writes", await asking.invoke({}, { configurable: { thread_id: "i3" } }));
  t.record("interrupt: calls", asked);

  // Send tasks are keyed by their argument.
  const MapState = Annotation.Root({
    items: Annotation(),
    done: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const worked = [];
  const mapped = new StateGraph(MapState)
    .addNode("work", (arg) => {
      worked.push(arg.item);
      return { done: [arg.item.toUpperCase()] };
    }, { cachePolicy: true })
    .addConditionalEdges(START, (state) => state.items.map((item) => new Send("work", { item })), ["work"])
    .addEdge("work", END)
    .compile({ cache: new InMemoryCache() });
  t.record("send: first", await mapped.invoke({ items: ["a", "b"] }));
  await t.stream("send: second (cached)", () => mapped.stream({ items: ["b", "c"] }, { streamMode: "updates" }));
  t.record("send: worked on", worked);

  // A cached messages node streams no message.
  const chat = new StateGraph(MessagesAnnotation)
    .addNode("bot", () => ({ messages: [new AIMessage({ content: "Hi there", id: "ai-1" })] }), { cachePolicy: true })
    .addEdge(START, "bot")
    .addEdge("bot", END)
    .compile({ cache: new InMemoryCache() });
  const hello = { messages: [new HumanMessage({ content: "hello", id: "h-1" })] };
  await t.stream("messages: first", () => chat.stream(hello, { streamMode: ["messages", "updates"] }));
  await t.stream("messages: cached", () => chat.stream(hello, { streamMode: ["messages", "updates"] }));
}
