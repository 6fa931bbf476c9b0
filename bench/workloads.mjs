// The issue-5 workloads, built the same way on every engine: the same node
// functions and routers for chronograph (JS nodes) and LangGraph.js, and
// the same graphs in the JSON graph format for chronograph's built-in
// (Rust) spec nodes. core/benches/common/mod.rs and python/run.py build
// the same graphs.

export const END = "__end__";
export const START = "__start__";
export const FANOUT = 8;

// ---- node functions and routers (shared by chronograph and LangGraph.js) ----

/** W1 agent: count + 1, and one trail entry. */
export const agent = (state) => ({ count: state.count + 1, trail: ["agent"] });
/** W1 tool: one trail entry. */
export const tool = () => ({ trail: ["tool"] });
/** W1 router: loop to the tool until `count` reaches `iterations`. */
export const w1Router = (iterations) => (state) => (state.count < iterations ? "tool" : END);

/** W2 reply: an AI message echoing the last message. */
export const reply = (state) => ({
  messages: [{ type: "ai", content: "echo: " + state.messages[state.messages.length - 1].content }],
});

/** W3 worker `name`: adds 1 to `total` and its name to `log`. */
export const worker = (name) => () => ({ total: 1, log: [name] });
/**
 * W3 router of worker `name`. A router reads the state with only its own
 * node's writes applied (LangGraph's fresh read), so after superstep k it
 * sees total = FANOUT·(k−1) + 1: looping while that is below FANOUT·(S−1) + 1
 * gives exactly S supersteps.
 */
export const w3Limit = (supersteps) => FANOUT * (supersteps - 1) + 1;
export const w3Router = (name, supersteps) => (state) =>
  state.total < w3Limit(supersteps) ? name : END;

/**
 * W4: a `Send` fan-out of FANOUT tasks into a 2-node subgraph, every
 * superstep. The root graph's `plan` node counts rounds; its router sends
 * FANOUT items to the subgraph node `sub` and loops to `plan` itself, so
 * superstep k runs `plan` and the FANOUT subgraph tasks sent in superstep
 * k − 1. Each subgraph task runs its own loop in its own namespace
 * (`sub:<task id>`): `double` then `finish`, 4 checkpoints (input,
 * `__start__`, two nodes); its final state's `results` is appended to the
 * root's. Every engine runs the same functions; `send(node, arg)` builds
 * the engine's own `Send`.
 */
export const w4Plan = (state) => ({ round: state.round + 1 });
/** W4 subgraph node 1: doubles the item it was sent. */
export const w4Double = (state) => ({ doubled: state.item * 2 });
/** W4 subgraph node 2: one result for the root's `results`. */
export const w4Finish = (state) => ({ results: [state.doubled + 1] });
/**
 * W4 root router: while `round` (plan's fresh write) is below the bound,
 * `plan` again plus FANOUT Sends of the next items; then END. `plan` runs
 * in supersteps 1..S−1, so a run is exactly S supersteps (with
 * `__start__`), of which S − 2 (2..S−1) run the fan-out.
 */
export const w4Router = (supersteps, send) => (state) =>
  state.round < supersteps - 1
    ? ["plan", ...Array.from({ length: FANOUT }, (_, i) => send("sub", { item: state.round * FANOUT + i }))]
    : END;
/**
 * Builds W4 on `subgraph` and `root`, empty builders of either engine
 * (their builder methods are named alike) with W4's channels declared;
 * `compile` compiles the subgraph (inheriting the root's checkpointer) and
 * `send` builds the engine's `Send`. Returns the root builder.
 */
export function w4Graph(subgraph, root, compile, supersteps, send) {
  const sub = compile(
    subgraph
      .addNode("double", w4Double)
      .addNode("finish", w4Finish)
      .addEdge(START, "double")
      .addEdge("double", "finish")
      .addEdge("finish", END),
  );
  return root
    .addNode("plan", w4Plan)
    .addNode("sub", sub)
    .addEdge(START, "plan")
    .addConditionalEdges("plan", w4Router(supersteps, send));
}
/** W4 supersteps that run the fan-out. */
export const w4FanOuts = (supersteps) => supersteps - 2;
/** Root checkpoints of a W4 thread: the input checkpoint plus one per superstep. */
export const w4RootCheckpoints = (supersteps) => supersteps + 1;
/** Subgraph checkpoints of a W4 thread: 4 per subgraph task. */
export const w4SubCheckpoints = (supersteps) => 4 * FANOUT * w4FanOuts(supersteps);
/** W4's final `results`: every item i sent, as 2i + 1, in send order. */
export const w4Results = (supersteps) =>
  Array.from({ length: FANOUT * w4FanOuts(supersteps) }, (_, i) => 2 * (i + FANOUT) + 1);

// ---- the same graphs in the JSON graph format (built-in spec nodes) ----

export function w1Spec(iterations) {
  return {
    channels: { count: { reducer: "last_value" }, trail: { reducer: "append" } },
    nodes: {
      agent: { writes: [{ incr: "count", by: 1 }, { set: { trail: ["agent"] } }] },
      tool: { writes: [{ set: { trail: ["tool"] } }] },
    },
    edges: [
      [START, "agent"],
      ["tool", "agent"],
    ],
    conditional_edges: [
      { from: "agent", when: [{ if: { channel: "count", lt: iterations }, to: "tool" }], else: END },
    ],
  };
}

export function w2Spec() {
  return {
    channels: { messages: { reducer: "add_messages" } },
    nodes: { reply: { writes: [{ reply: "messages", prefix: "echo: " }] } },
    edges: [
      [START, "reply"],
      ["reply", END],
    ],
  };
}

export function w3Spec(supersteps) {
  const nodes = {};
  const edges = [];
  const conditional_edges = [];
  for (let i = 0; i < FANOUT; i++) {
    const name = `w${i}`;
    nodes[name] = { writes: [{ set: { total: 1, log: [name] } }] };
    edges.push([START, name]);
    conditional_edges.push({
      from: name,
      when: [{ if: { channel: "total", lt: w3Limit(supersteps) }, to: name }],
      else: END,
    });
  }
  return {
    channels: { total: { reducer: "sum" }, log: { reducer: "append" } },
    nodes,
    edges,
    conditional_edges,
  };
}

// ---- inputs ----

export const w1Input = () => ({ count: 0, trail: [] });
export const w2Input = (i) => ({ messages: [{ type: "human", content: `hello ${i}` }] });
export const w3Input = () => ({ total: 0, log: [] });
export const w4Input = () => ({ round: 0, results: [] });

/** Supersteps of a W1 run: `__start__`, then 2·iterations − 1 node steps. */
export const w1Supersteps = (iterations) => 2 * iterations;
/** Checkpoints of a W1 thread: the input checkpoint plus one per superstep. */
export const w1Checkpoints = (iterations) => 2 * iterations + 1;
