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

/** Supersteps of a W1 run: `__start__`, then 2·iterations − 1 node steps. */
export const w1Supersteps = (iterations) => 2 * iterations;
/** Checkpoints of a W1 thread: the input checkpoint plus one per superstep. */
export const w1Checkpoints = (iterations) => 2 * iterations + 1;
