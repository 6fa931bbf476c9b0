// getGraph / getGraphAsync (npm/src/drawing.ts) beyond the compat programs (82, 83): the same
// drawing as LangGraph.js for a ToolNode, a LangChain Runnable as a node and nodes added after
// compile; the errors without @langchain/core and for a graph from StateGraph.fromSpec.
import assert from "node:assert/strict";
import { test, after } from "node:test";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import * as chronograph from "chronograph";
import * as chronographPrebuilt from "chronograph/prebuilt";
import * as langgraph from "@langchain/langgraph";
import * as langgraphPrebuilt from "@langchain/langgraph/prebuilt";
import { RunnableLambda } from "@langchain/core/runnables";
import { Graph } from "@langchain/core/runnables/graph";

const here = dirname(fileURLToPath(import.meta.url));
const engines = [
  ["langgraph", { ...langgraph, ...langgraphPrebuilt }],
  ["chronograph", { ...chronograph, ...chronographPrebuilt }],
];

/** What `build(lg)` draws on each engine: `[langgraph, chronograph]`. */
const drawnOnBoth = (build) => engines.map(([, lg]) => build(lg));

test("a ToolNode is drawn as LangGraph.js draws it: its class, its name and its tools as metadata", () => {
  const [lgDrawn, cgDrawn] = drawnOnBoth((lg) => {
    const tools = [{ name: "search", invoke: async () => "found" }, { name: "calculator", invoke: async () => "42" }];
    const State = lg.Annotation.Root({ messages: lg.Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
    return new lg.StateGraph(State)
      .addNode("agent", () => ({}))
      // Named: LangGraph.js 1.7.3's ToolNode without a name option reports the name "func".
      .addNode("tools", new lg.ToolNode(tools, { name: "tools" }))
      .addEdge(lg.START, "agent")
      .addConditionalEdges("agent", lg.toolsCondition, ["tools", lg.END])
      .addEdge("tools", "agent")
      .compile()
      .getGraph();
  });
  assert.deepEqual(cgDrawn.toJSON(), lgDrawn.toJSON());
  assert.equal(cgDrawn.drawMermaid(), lgDrawn.drawMermaid());
  assert.deepEqual(cgDrawn.nodes.tools.metadata, { __tools: ["search", "calculator"] });
});

test("a LangChain Runnable as a node is its own data, drawn (and x-rayed) as in LangGraph.js", async () => {
  const [lgDrawn, cgDrawn] = drawnOnBoth((lg) => {
    const State = lg.Annotation.Root({ x: lg.Annotation() });
    const shout = RunnableLambda.from((s) => ({ x: String(s.x).toUpperCase() })).withConfig({ runName: "shout" });
    return new lg.StateGraph(State).addNode("shout", shout).addEdge(lg.START, "shout").compile();
  });
  assert.deepEqual(cgDrawn.getGraph().toJSON(), lgDrawn.getGraph().toJSON());
  assert.equal(cgDrawn.getGraph({ xray: true }).drawMermaid(), lgDrawn.getGraph({ xray: true }).drawMermaid());
  assert.deepEqual((await cgDrawn.getGraphAsync({ xray: true })).toJSON(), (await lgDrawn.getGraphAsync({ xray: true })).toJSON());
});

test("getGraph returns @langchain/core's Graph, whose nodes' data run the node, and reads the builder as it is now", async () => {
  const [lgGraph, cgGraph] = engines.map(([, lg]) => {
    const State = lg.Annotation.Root({ x: lg.Annotation() });
    const builder = new lg.StateGraph(State).addNode("a", (s) => ({ x: s.x + 1 })).addEdge(lg.START, "a");
    const compiled = builder.compile();
    // As LangGraph.js draws from its builder, a node added after compile is drawn.
    builder.addNode("late", () => ({})).addEdge("a", "late");
    return compiled;
  });
  const drawn = cgGraph.getGraph();
  assert.ok(drawn instanceof Graph);
  assert.equal(typeof drawn.drawMermaidPng, "function");
  assert.deepEqual(await drawn.nodes.a.data.invoke({ x: 1 }), { x: 2 });
  assert.equal(drawn.drawMermaid(), lgGraph.getGraph().drawMermaid());
  // withConfig keeps the drawing.
  assert.equal(cgGraph.withConfig({ configurable: { thread_id: "t" } }).getGraph().drawMermaid(), drawn.drawMermaid());
});

test("a graph from StateGraph.fromSpec cannot be drawn: UNSUPPORTED, naming why", () => {
  const graph = chronograph.StateGraph.fromSpec({
    channels: { x: {} },
    nodes: { a: { writes: [{ set: { x: 1 } }] } },
    edges: [["__start__", "a"], ["a", "__end__"]],
  }).compile();
  assert.throws(() => graph.getGraph(), (e) => e.name === "GraphValueError" && e.code === "UNSUPPORTED" && /fromSpec/.test(e.message));
  assert.throws(() => [...graph.getSubgraphs()], (e) => e.code === "UNSUPPORTED");
});

// ---------------------------------------------------------------------------------------
// Without @langchain/core: a copy of the package in a folder where it cannot be resolved
// ---------------------------------------------------------------------------------------

const scratch = mkdtempSync(join(tmpdir(), "chronograph-drawing-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

test("without @langchain/core, getGraph and getGraphAsync fail with MISSING_PEER, naming the package", () => {
  const dir = join(scratch, "without");
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  cpSync(join(here, "..", "..", "pkg"), join(dir, "node_modules", "chronograph"), { recursive: true });
  writeFileSync(
    join(dir, "main.mjs"),
    `import { StateGraph, START } from "chronograph";
const graph = new StateGraph({ x: "last_value" }).addNode("a", () => ({})).addEdge(START, "a").compile();
const caught = (f) => { try { f(); return "no error"; } catch (e) { return [e.name, e.code, e.message]; } };
const sync = caught(() => graph.getGraph());
const later = await graph.getGraphAsync().then(() => "no error", (e) => [e.name, e.code, e.message]);
console.log(JSON.stringify({ sync, later, subgraphs: [...graph.getSubgraphs()].length }));
`,
  );
  const out = JSON.parse(execFileSync(process.execPath, ["main.mjs"], { cwd: dir, encoding: "utf8" }));
  const message =
    "getGraph() needs @langchain/core (npm install @langchain/core): it draws the graph with @langchain/core's Graph, as LangGraph.js does";
  assert.deepEqual(out.sync, ["GraphValueError", "MISSING_PEER", message]);
  assert.deepEqual(out.later, ["GraphValueError", "MISSING_PEER", message.replace("getGraph()", "getGraphAsync()")]);
  assert.equal(out.subgraphs, 0, "getSubgraphs needs no peer");
});
