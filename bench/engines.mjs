// One adapter per engine: build the workload graphs, run them, list and
// replay history, all through each engine's public API.
import * as W from "./workloads.mjs";

/** LangGraph.js with the shared JS node functions. */
export async function langgraphJs() {
  const lg = await import("@langchain/langgraph");
  const { version } = (await import("@langchain/langgraph/package.json", { with: { type: "json" } }))
    .default;
  return annotationGraphs(lg, "LangGraph.js", version, () => undefined);
}

/**
 * chronograph running LangGraph.js's own program: the same `Annotation.Root`
 * states with JS reducers (`messagesStateReducer` for W2), built by the same
 * function as LangGraph.js's graphs, with only the module object changed.
 */
export function chronographAnnotation({ cg, memory, version }) {
  return annotationGraphs(cg, "chronograph (Annotation.Root)", version, () => memory?.buffer.byteLength);
}

/** The workload graphs as a LangGraph.js docs program writes them, on module `lg`. */
function annotationGraphs(lg, name, version, memory) {
  const { Annotation, MemorySaver, Send, StateGraph, messagesStateReducer } = lg;
  const concat = (a, b) => a.concat(b);
  const compile = (g) => {
    const saver = new MemorySaver();
    return { graph: g.compile({ checkpointer: saver }), saver };
  };
  return {
    name,
    version,
    w1(iterations) {
      const S = Annotation.Root({
        count: Annotation(),
        trail: Annotation({ reducer: concat, default: () => [] }),
      });
      return compile(
        new StateGraph(S)
          .addNode("agent", W.agent)
          .addNode("tool", W.tool)
          .addEdge(W.START, "agent")
          .addEdge("tool", "agent")
          .addConditionalEdges("agent", W.w1Router(iterations)),
      );
    },
    w2() {
      const S = Annotation.Root({
        messages: Annotation({ reducer: messagesStateReducer, default: () => [] }),
      });
      return compile(
        new StateGraph(S).addNode("reply", W.reply).addEdge(W.START, "reply").addEdge("reply", W.END),
      );
    },
    w3(supersteps) {
      const S = Annotation.Root({
        total: Annotation({ reducer: (a, b) => a + b, default: () => 0 }),
        log: Annotation({ reducer: concat, default: () => [] }),
      });
      let g = new StateGraph(S);
      for (let i = 0; i < W.FANOUT; i++) {
        const name = `w${i}`;
        g = g
          .addNode(name, W.worker(name))
          .addEdge(W.START, name)
          .addConditionalEdges(name, W.w3Router(name, supersteps));
      }
      return compile(g);
    },
    w4(supersteps) {
      const Sub = Annotation.Root({
        item: Annotation(),
        doubled: Annotation(),
        results: Annotation({ reducer: concat, default: () => [] }),
      });
      const S = Annotation.Root({
        round: Annotation(),
        results: Annotation({ reducer: concat, default: () => [] }),
      });
      const send = (node, arg) => new Send(node, arg);
      return compile(W.w4Graph(new StateGraph(Sub), new StateGraph(S), (g) => g.compile(), supersteps, send));
    },
    memory,
  };
}

/** Loads the built npm package (`pkg/node.js`, or `--pkg DIR`). */
export async function loadChronograph(pkgDir) {
  const url = new URL(`file://${pkgDir}/node.js`);
  const cg = await import(url.href);
  let memory;
  try {
    // The wasm-bindgen glue returns the already-initialised instance's exports.
    const glue = await import(new URL(`file://${pkgDir}/wasm/chronograph.js`).href);
    memory = glue.initSync?.()?.memory;
  } catch {
    memory = undefined;
  }
  let version = "?";
  try {
    const fs = await import("node:fs");
    version = JSON.parse(fs.readFileSync(`${pkgDir}/package.json`, "utf8")).version;
  } catch {
    /* keep "?" */
  }
  return { cg, memory, version };
}

/** chronograph with the shared JS node functions. */
export function chronographJs({ cg, memory, version }) {
  const { StateGraph, MemorySaver, Send } = cg;
  const compile = (g) => {
    const saver = new MemorySaver();
    return { graph: g.compile({ checkpointer: saver }), saver };
  };
  return {
    name: "chronograph (JS nodes)",
    version,
    w1(iterations) {
      return compile(
        new StateGraph({ count: "last_value", trail: "append" })
          .addNode("agent", W.agent)
          .addNode("tool", W.tool)
          .addEdge(W.START, "agent")
          .addEdge("tool", "agent")
          .addConditionalEdges("agent", W.w1Router(iterations)),
      );
    },
    w2() {
      return compile(
        new StateGraph({ messages: "add_messages" })
          .addNode("reply", W.reply)
          .addEdge(W.START, "reply")
          .addEdge("reply", W.END),
      );
    },
    w3(supersteps) {
      const g = new StateGraph({ total: "sum", log: "append" });
      for (let i = 0; i < W.FANOUT; i++) {
        const name = `w${i}`;
        g.addNode(name, W.worker(name))
          .addEdge(W.START, name)
          .addConditionalEdges(name, W.w3Router(name, supersteps));
      }
      return compile(g);
    },
    w4(supersteps) {
      const sub = new StateGraph({ item: "last_value", doubled: "last_value", results: "append" });
      const root = new StateGraph({ round: "last_value", results: "append" });
      const send = (node, arg) => new Send(node, arg);
      return compile(W.w4Graph(sub, root, (g) => g.compile(), supersteps, send));
    },
    memory: () => memory?.buffer.byteLength,
  };
}

/** chronograph with built-in Rust spec nodes (`StateGraph.fromSpec`). */
export function chronographSpec({ cg, memory, version }) {
  const { StateGraph, MemorySaver } = cg;
  const compile = (spec) => {
    const saver = new MemorySaver();
    return { graph: StateGraph.fromSpec(spec).compile({ checkpointer: saver }), saver };
  };
  return {
    name: "chronograph (spec nodes)",
    version,
    w1: (iterations) => compile(W.w1Spec(iterations)),
    w2: () => compile(W.w2Spec()),
    w3: (supersteps) => compile(W.w3Spec(supersteps)),
    // W4 needs a router that sends while a counter is below a bound: the
    // JSON graph format's `send` edge fans out unconditionally, so W4 has
    // no spec-node twin (the native core bench builds it with Rust closures).
    w4: undefined,
    memory: () => memory?.buffer.byteLength,
  };
}
