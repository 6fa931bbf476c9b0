// Subgraphs, Send and Command in a browser: a fan-out of Sends to a compiled
// subgraph whose node asks with interrupt() and, resumed, hands a
// Command(graph: PARENT) to the parent; streamed with subgraphs: true. The
// Node tests run it too. Takes the package's module namespace; returns what
// it saw.
export async function subgraphs({ StateGraph, MemorySaver, START, Command, Send, interrupt }) {
  const child = new StateGraph({ item: "last_value", results: "append" })
    .addNode("check", (state) => ({ results: [`${state.item}:${interrupt(`ok ${state.item}?`)}`] }))
    .addNode("escape", (state) => new Command({ update: { results: state.results }, goto: "summarize", graph: Command.PARENT }))
    .addEdge(START, "check")
    .addEdge("check", "escape")
    .compile();
  const graph = new StateGraph({ items: "last_value", results: "append", report: "last_value" })
    .addNode("split", () => ({ items: ["x", "y"] }))
    .addNode("work", child, { ends: ["summarize"] })
    // Named apart from the `report` channel: LangGraph.js refuses a node named after a channel.
    .addNode("summarize", (state) => ({ report: state.results.join(",") }))
    .addEdge(START, "split")
    .addConditionalEdges("split", (state) => state.items.map((item) => new Send("work", { item })))
    .compile({ checkpointer: new MemorySaver() });
  const cfg = { configurable: { thread_id: "browser-subgraphs" } };
  const levels = (ns) => ns.map((level) => level.split(":")[0]).join("|");
  const first = [];
  for await (const [ns, chunk] of graph.stream({ results: [] }, cfg, { subgraphs: true })) first.push([levels(ns), Object.keys(chunk)]);
  const paused = await graph.getState(cfg, { subgraphs: true });
  const asked = paused.tasks.map((t) => t.state.tasks[0].interrupts[0].value);
  const answers = Object.fromEntries(paused.tasks.map((t) => [t.state.tasks[0].interrupts[0].id, "yes"]));
  const rest = [];
  for await (const [ns, chunk] of graph.stream(new Command({ resume: answers }), cfg, { subgraphs: true })) rest.push([levels(ns), Object.keys(chunk)]);
  const final = await graph.getState(cfg);
  return { first, asked, rest, report: final.values.report, next: final.next };
}

export const expectedSubgraphs = {
  first: [
    ["", ["split"]],
    ["work", ["__interrupt__"]],
    ["work", ["__interrupt__"]],
    // Each paused task reports its interrupt as it commits, as LangGraph.js does.
    ["", ["__interrupt__"]],
    ["", ["__interrupt__"]],
  ],
  asked: ["ok x?", "ok y?"],
  rest: [
    ["work", ["check"]],
    ["work", ["check"]],
    ["", ["work"]],
    ["", ["work"]],
    ["", ["summarize"]],
  ],
  report: "x:yes,y:yes",
  next: [],
};
