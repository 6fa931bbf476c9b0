// The functional API (npm/src/func.ts over core/src/pregel/loop/call.rs): an entrypoint is a
// one-node Pregel, a task's calls run as tasks of the caller's superstep, their results are
// stored and handed back on resume, tasks called together overlap, and the options the package
// does not support fail with UNSUPPORTED. The compat programs 94-99 compare the same behaviours
// with LangGraph.js; these check what they cannot see (the stored writes, the overlap, the options).
import assert from "node:assert/strict";
import { test } from "node:test";
import { Command, GraphValueError, MemorySaver, entrypoint, getPreviousState, interrupt, task } from "chronograph";
import { Pregel } from "chronograph/pregel";

test("an entrypoint is a Pregel named after it, reading __start__ and writing __end__ and __previous__", () => {
  const wf = entrypoint({ name: "wf", checkpointer: new MemorySaver() }, (x) => x);
  assert.ok(wf instanceof Pregel);
  assert.equal(wf.name, "wf");
  assert.deepEqual(Object.keys(wf.nodes), ["wf"]);
  assert.deepEqual(Object.keys(wf.channels), ["__start__", "__end__", "__previous__"]);
  assert.deepEqual([wf.inputChannels, wf.outputChannels, wf.streamChannels, wf.streamMode], ["__start__", "__end__", "__end__", ["updates"]]);
});

test("a finished task's return value is stored as a __return__ pending write and handed back on resume", async () => {
  const saver = new MemorySaver();
  let calls = 0;
  const slow = task("slow", async (x) => {
    calls++;
    return x + 1;
  });
  const wf = entrypoint({ name: "wf", checkpointer: saver }, async (x) => {
    const y = await slow(x);
    return { y, ok: interrupt("ok?") };
  });
  const config = { configurable: { thread_id: "t" } };
  await wf.invoke(1, config);
  const tuple = await saver.getTuple(config);
  const returns = tuple.pendingWrites.filter(([, channel]) => channel === "__return__");
  assert.deepEqual(returns.map(([, , value]) => value), [2]);
  assert.deepEqual(await wf.invoke(new Command({ resume: "yes" }), config), { y: 2, ok: "yes" });
  assert.equal(calls, 1);
});

test("tasks called together run concurrently", async () => {
  const log = [];
  const step = task("step", async (x) => {
    log.push(`start ${x}`);
    await new Promise((r) => setTimeout(r, 10));
    log.push(`end ${x}`);
    return x;
  });
  const wf = entrypoint("wf", async (xs) => Promise.all(xs.map((x) => step(x))));
  assert.deepEqual(await wf.invoke([1, 2]), [1, 2]);
  assert.deepEqual(log.slice(0, 2), ["start 1", "start 2"]);
});

test("a task's retry policy retries its failed calls", async () => {
  let attempts = 0;
  const flaky = task({ name: "flaky", retry: { maxAttempts: 3, initialInterval: 1, jitter: false } }, () => {
    if (++attempts < 3) throw new Error("not yet");
    return attempts;
  });
  const wf = entrypoint("wf", async () => flaky());
  assert.equal(await wf.invoke(1), 3);
});

test("getPreviousState() and config.configurable.__pregel_previous read the last saved value", async () => {
  const wf = entrypoint({ name: "wf", checkpointer: new MemorySaver() }, async (x, config) => {
    return entrypoint.final({ value: [getPreviousState() ?? null, config.configurable.__pregel_previous ?? null], save: x });
  });
  const config = { configurable: { thread_id: "t" } };
  assert.deepEqual(await wf.invoke(1, config), [null, null]);
  assert.deepEqual(await wf.invoke(2, config), [1, 1]);
});

test("a task's cache and timeout options, and an entrypoint's, fail with UNSUPPORTED", () => {
  const unsupported = (e) => e instanceof GraphValueError && e.code === "UNSUPPORTED" && /not supported by chronograph/.test(e.message);
  assert.throws(() => task({ name: "t", cachePolicy: { ttl: 1 } }, () => 1), unsupported);
  assert.throws(() => task({ name: "t", timeout: 10 }, () => 1), unsupported);
  assert.throws(() => entrypoint({ name: "e", cache: {} }, () => 1), unsupported);
  assert.throws(() => entrypoint({ name: "e", timeout: 10 }, () => 1), unsupported);
});

test("a task called outside a running graph throws LangGraph.js's TypeError at once", () => {
  const t = task("t", () => 1);
  assert.throws(() => t(), (e) => e instanceof TypeError && e.message === "Cannot read properties of undefined (reading 'configurable')");
});
