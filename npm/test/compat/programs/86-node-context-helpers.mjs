// The helpers a node calls without its config, through LangGraph.js's async context: getWriter()
// (the docs' "Streaming" page, "Stream custom data": `const writer = getWriter()`), writer(chunk),
// getPreviousState() (functional API only: nothing in a StateGraph node), pushMessage (the docs'
// "Streaming" page: push a message to the messages stream and to the state), and each outside a
// node. Also COMMAND_SYMBOL / CommandInstance / isCommand on Commands.
export const title = "getWriter, writer, getPreviousState, pushMessage in nodes and outside; COMMAND_SYMBOL, CommandInstance";

export default async function (lg, t) {
  const { Annotation, StateGraph, START, MessagesAnnotation, Command, MemorySaver } = lg;
  const State = Annotation.Root({ a: Annotation(), seen: Annotation({ reducer: (x, y) => x.concat(y), default: () => [] }) });

  const graph = new StateGraph(State)
    .addNode("n", async (_s, config) => {
      const w = lg.getWriter();
      const fromConfig = lg.getWriter(config);
      w?.({ progress: "half" });
      const written = lg.writer({ via: "writer()" });
      await new Promise((r) => setTimeout(r, 1));
      lg.getWriter()?.({ progress: "done, after await" });
      return { a: 1, seen: [{ writer: typeof w, same: w === fromConfig, written: written ?? null, previous: lg.getPreviousState() ?? null }] };
    })
    .addEdge(START, "n")
    .compile({ checkpointer: new MemorySaver() });
  await t.stream("custom + values", () => graph.stream({ a: 0 }, { streamMode: ["custom", "values"], configurable: { thread_id: "ctx-86" } }));
  await t.result("invoke (no custom mode)", () => graph.invoke({ a: 0 }, { configurable: { thread_id: "ctx-86" } }));
  await t.result("writer outside a node", async () => lg.writer(1));
  await t.result("getWriter outside a node", async () => lg.getWriter());
  await t.result("getWriter with a config", async () => lg.getWriter({ writer: null, configurable: {} }) ?? "none");
  await t.result("getPreviousState outside a node", async () => lg.getPreviousState());
  await t.result("getConfig outside a node", async () => lg.getConfig() ?? "undefined");
  await t.result("getStore outside a node", async () => lg.getStore());

  const chat = new StateGraph(MessagesAnnotation)
    .addNode("talk", async () => {
      const pushed = lg.pushMessage({ role: "assistant", content: "pushed", id: "m-pushed" });
      lg.pushMessage({ role: "assistant", content: "stream only", id: "m-stream" }, { stateKey: null });
      return { messages: [{ role: "assistant", content: "returned", id: "m-returned" }], _pushed: undefined, ...(pushed.id ? {} : { bad: 1 }) };
    })
    .addEdge(START, "talk")
    .compile();
  const input = { messages: [{ role: "user", content: "hi", id: "m-user" }] };
  await t.result("pushMessage: state", async () => (await chat.invoke(input)).messages.map((m) => [m.id, m.content, m.constructor.name]));
  await t.stream("pushMessage: messages stream", () => chat.stream(input, { streamMode: "messages" }));
  await t.stream("pushMessage: updates stream", () => chat.stream(input, { streamMode: "updates" }));
  const noId = new StateGraph(MessagesAnnotation)
    .addNode("talk", () => {
      lg.pushMessage({ role: "assistant", content: "no id" });
      return {};
    })
    .addEdge(START, "talk")
    .compile();
  await t.result("pushMessage without an id", () => noId.invoke(input));

  const cmd = new Command({ goto: "x", update: { a: 1 } });
  t.record("COMMAND_SYMBOL", {
    isSymbol: typeof lg.COMMAND_SYMBOL,
    global: lg.COMMAND_SYMBOL === Symbol.for("langgraph.command"),
    args: cmd[lg.COMMAND_SYMBOL],
    instance: cmd instanceof lg.CommandInstance,
    isCommand: lg.isCommand(cmd),
    plain: lg.isCommand({ lg_name: "Command" }),
    json: JSON.parse(JSON.stringify(cmd)),
  });
  const base = new lg.CommandInstance({ resume: 1 });
  t.record("CommandInstance", { args: base[lg.COMMAND_SYMBOL], isCommand: lg.isCommand(base), keys: Object.keys(base) });
}
