// The state handed to JS nodes and routers: a list channel whose JS array
// is not current is a lazy property, converted only when it is read
// (core/wasm/src/state_cache.rs, `defineLazy` in npm/src/lazy.ts), and the
// object still behaves as a plain object of values.
import assert from "node:assert/strict";
import { test } from "node:test";
import util from "node:util";
import v8 from "node:v8";
import vm from "node:vm";
import { END, MemorySaver, START, StateGraph } from "chronograph";

/** A loop of `steps` node calls growing `trail` by one item each; `look(state, i)` sees each call's state. */
function loop(steps, look = () => {}, route) {
  let i = 0;
  return new StateGraph({ trail: "append", n: "last_value" })
    .addNode("step", (state) => {
      look(state, i++);
      return { trail: [{ at: state.n }], n: state.n + 1 };
    })
    .addEdge(START, "step")
    .addConditionalEdges("step", route ?? ((state) => (state.n < steps ? "step" : END)))
    .compile({ checkpointer: new MemorySaver() });
}

const cfg = (thread) => ({ configurable: { thread_id: thread }, recursionLimit: 100000 });

test("a node that never reads a list leaves it unconverted (converted items do not grow with its length)", async () => {
  const items = [];
  for (const steps of [50, 500]) {
    const graph = loop(steps);
    const out = await graph.invoke({ trail: [], n: 0 }, cfg("t"));
    assert.equal(out.n, steps);
    assert.equal(out.trail.length, steps, "invoke's output is still the whole list");
    items.push(graph._stateItemsConverted);
  }
  // n per node and router call; the trail only for invoke's output.
  assert.ok(items[1] < 2 * 500 + 600, `items converted: ${items}`);
  assert.ok(items[1] - items[0] < 2 * 450 + 500, `items converted: ${items}`);
});

test("reading a lazy list converts it once and turns it into a plain data property", async () => {
  const seen = [];
  const graph = loop(20, (state, i) => {
    const d = Object.getOwnPropertyDescriptor(state, "trail");
    if (i > 0) assert.equal(typeof d.get, "function", "an accessor until read");
    assert.equal(d.enumerable, true);
    const trail = state.trail;
    assert.equal(trail.length, i);
    assert.equal(state.trail, trail, "later reads see the same array");
    assert.deepEqual(Object.getOwnPropertyDescriptor(state, "trail"), {
      value: trail,
      writable: true,
      enumerable: true,
      configurable: true,
    });
    seen.push(trail);
  });
  await graph.invoke({ trail: [], n: 0 }, cfg("t"));
  assert.deepEqual(seen[19].map((x) => x.at), Array.from({ length: 19 }, (_, i) => i));
  assert.equal(seen[19][0], seen[18][0], "items already converted are shared (incremental conversion)");
  assert.ok(graph._stateItemsConverted < 200, `items converted: ${graph._stateItemsConverted}`);
});

test("spreading, JSON.stringify, Object.keys, entries and structuredClone see the lazy list's values in key order", async () => {
  const checks = [];
  const graph = new StateGraph({ a: "last_value", trail: "append", z: "last_value" })
    .addNode("step", (state) => {
      checks.push({
        keys: Object.keys(state),
        json: JSON.stringify(state),
        spread: { ...state },
        entries: Object.entries(state).map(([k]) => k),
        clone: structuredClone(state),
      });
      const { trail } = state;
      return { trail: [trail.length], a: state.a + 1 };
    })
    .addEdge(START, "step")
    .addConditionalEdges("step", (s) => (s.a < 3 ? "step" : END))
    .compile();
  // Each kind of read on its own state object: spread first (then the others read a data property).
  const fresh = [];
  const g2 = new StateGraph({ a: "last_value", trail: "append", z: "last_value" })
    .addNode("step", (state) => {
      const i = fresh.length;
      const read = [
        () => JSON.stringify(state),
        () => JSON.stringify({ ...state }),
        () => JSON.stringify(structuredClone(state)),
        () => JSON.stringify(Object.fromEntries(Object.entries(state))),
      ][i % 4];
      fresh.push(read());
      return { trail: [i], a: state.a + 1 };
    })
    .addEdge(START, "step")
    .addConditionalEdges("step", (s) => (s.a < 8 ? "step" : END))
    .compile();
  await graph.invoke({ a: 0, trail: ["x"], z: "end" });
  await g2.invoke({ a: 0, trail: ["x"], z: "end" });
  assert.equal(checks.length, 3);
  checks.forEach((c, i) => {
    assert.deepEqual(c.keys, ["a", "trail", "z"]);
    assert.deepEqual(c.entries, ["a", "trail", "z"]);
    const want = { a: i, trail: ["x", ...Array.from({ length: i }, (_, k) => k + 1)], z: "end" };
    assert.equal(c.json, JSON.stringify(want));
    assert.deepEqual(c.spread, want);
    assert.deepEqual(c.clone, want);
  });
  fresh.forEach((text, i) => {
    assert.equal(text, JSON.stringify({ a: i, trail: ["x", ...Array.from({ length: i }, (_, k) => k)], z: "end" }));
  });
});

test("assigning a lazy list replaces it without converting it", async () => {
  const spent = [];
  const graph = loop(300, (state, i) => {
    const before = graph._stateItemsConverted;
    if (i >= 1) {
      state.trail = ["mine"];
      assert.deepEqual(state.trail, ["mine"]);
      assert.deepEqual(Object.getOwnPropertyDescriptor(state, "trail"), {
        value: ["mine"],
        writable: true,
        enumerable: true,
        configurable: true,
      });
      // In the graph's declaration order, as LangGraph.js gives a node its state.
      assert.deepEqual(Object.keys(state), ["trail", "n"]);
    }
    spent.push(graph._stateItemsConverted - before);
  });
  await graph.invoke({ trail: [], n: 0 }, cfg("t"));
  assert.deepEqual(spent, Array(300).fill(0), "no assignment converted anything");
});

test("util.inspect and console.log show a lazy list's values, not a getter, and the inspect method is hidden", async () => {
  const texts = [];
  const graph = loop(3, (state) => {
    const inspect = Object.getOwnPropertyDescriptor(state, Symbol.for("nodejs.util.inspect.custom"));
    assert.equal(typeof inspect.value, "function");
    assert.equal(inspect.enumerable, false);
    assert.deepEqual(Reflect.ownKeys(state).filter((k) => typeof k === "string"), ["trail", "n"]);
    texts.push(util.inspect(state, { depth: 5 }));
    assert.deepEqual(Object.keys({ ...state }), ["trail", "n"]);
    assert.ok(!JSON.stringify(state).includes("inspect"));
  });
  await graph.invoke({ trail: [], n: 0 }, cfg("t"));
  assert.equal(texts[2], util.inspect({ trail: [{ at: 0 }, { at: 1 }], n: 2 }, { depth: 5 }));
  assert.ok(texts.every((t) => !t.includes("Getter")), texts.join("\n"));
});

test("a node's saved state can be read after the run ended", async () => {
  const kept = [];
  const graph = loop(30, (state) => kept.push(state));
  await graph.invoke({ trail: [], n: 0 }, cfg("t"));
  await graph.invoke({ trail: ["other"], n: 0 }, cfg("u"));
  // Read in reverse order, after other runs moved the cache on.
  for (let i = kept.length - 1; i >= 0; i--) {
    const want = i < 30 ? Array.from({ length: i }, (_, k) => ({ at: k })) : ["other", ...Array.from({ length: i - 30 }, (_, k) => ({ at: k }))];
    assert.deepEqual(kept[i].trail, want, `state ${i}`);
    assert.deepEqual(JSON.parse(JSON.stringify(kept[i])), { n: i % 30, trail: want });
  }
});

test("a router reading the list gets the lazy state too", async () => {
  const lengths = [];
  const graph = loop(10, () => {}, (state) => {
    assert.equal(typeof Object.getOwnPropertyDescriptor(state, "trail").get, "function");
    lengths.push(state.trail.length);
    assert.deepEqual(Object.keys(state), ["trail", "n"]);
    return state.trail.length < 10 ? "step" : END;
  });
  const out = await graph.invoke({ trail: [], n: 0 }, cfg("t"));
  assert.deepEqual(lengths, Array.from({ length: 10 }, (_, i) => i + 1));
  assert.equal(out.trail.length, 10);
});

test("the engine's values behind never-read lazy lists are released when the state objects are collected", async () => {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc");
  const raw = await import(new URL("../../pkg/wasm/chronograph.js", import.meta.url));
  const before = raw.lazyStates();
  const graph = loop(200);
  await graph.invoke({ trail: [], n: 0 }, cfg("t"));
  assert.ok(raw.lazyStates() - before >= 100, `pending: ${raw.lazyStates() - before}`);
  for (let i = 0; i < 20 && raw.lazyStates() - before > 5; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.ok(raw.lazyStates() - before <= 5, `still pending: ${raw.lazyStates() - before}`);
});
