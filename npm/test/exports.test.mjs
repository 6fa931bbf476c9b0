// The names of LangGraph.js's main entry that npm/test/compat/programs/84-87 cannot
// compare on both engines: what fails with UNSUPPORTED here (and works on
// LangGraph.js), the engine's own ParentCommand, and the checkpoint re-exports
// without their peer.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import * as lg from "chronograph";

/** Asserts that `run` throws a GraphValueError of code UNSUPPORTED whose message names `what`. */
function unsupported(run, what) {
  assert.throws(run, (e) => {
    assert.equal(e.name, "GraphValueError");
    assert.equal(e.code, "UNSUPPORTED");
    assert.match(e.message, what);
    return true;
  });
}

test("RunControl, GraphCallbackHandler and createLifecycleTransformer's options fail with UNSUPPORTED", () => {
  unsupported(() => new lg.RunControl(), /RunControl \(draining a run\) is not supported/);
  unsupported(() => new lg.GraphCallbackHandler(), /GraphCallbackHandler/);
  unsupported(() => lg.createLifecycleTransformer({ rootGraphName: "main" }), /createLifecycleTransformer's options \(rootGraphName\)/);
  assert.equal(lg.isNativeTransformer(lg.createLifecycleTransformer({ rootGraphName: undefined })), true);
});

test("a root graph's node returning Command.PARENT throws a ParentCommand, a GraphBubbleUp", async () => {
  const graph = new lg.StateGraph(lg.Annotation.Root({ a: lg.Annotation() }))
    .addNode("n", () => new lg.Command({ graph: lg.Command.PARENT, update: { a: 1 } }))
    .addEdge(lg.START, "n")
    .compile();
  await assert.rejects(graph.invoke({ a: 0 }), (e) => {
    assert.ok(e instanceof lg.ParentCommand);
    assert.ok(e instanceof lg.GraphBubbleUp);
    assert.equal(e.name, "ParentCommand");
    assert.equal(e.code, "PARENT_COMMAND");
    assert.equal(lg.isGraphBubbleUp(e) && lg.isParentCommand(e), true);
    // The command the node returned, addressed to the graph that would run this one (none: "").
    assert.ok(lg.isCommand(e.command));
    assert.deepEqual([e.command.graph, e.command.update, e.command.goto], ["", { a: 1 }, []]);
    return true;
  });
});

test("an interrupt the engine raises is a GraphBubbleUp; other engine errors are not", async () => {
  const State = lg.Annotation.Root({ a: lg.Annotation() });
  let seen;
  const graph = new lg.StateGraph(State)
    .addNode("n", () => {
      try {
        lg.interrupt("q");
      } catch (e) {
        seen = e;
        throw e;
      }
      return {};
    })
    .addEdge(lg.START, "n")
    .compile({ checkpointer: new lg.MemorySaver() });
  await graph.invoke({ a: 0 }, { configurable: { thread_id: "t" } });
  assert.ok(seen instanceof lg.GraphInterrupt && seen instanceof lg.GraphBubbleUp && lg.isGraphBubbleUp(seen));
  const loop = new lg.StateGraph(State).addNode("n", () => ({})).addEdge(lg.START, "n").addEdge("n", "n").compile();
  await assert.rejects(loop.invoke({ a: 0 }, { recursionLimit: 2 }), (e) => e instanceof lg.GraphRecursionError && !(e instanceof lg.GraphBubbleUp) && !lg.isGraphBubbleUp(e));
});

test("without @langchain/langgraph-checkpoint the checkpoint re-exports fail with UNSUPPORTED", () => {
  const program = `
    import * as lg from "chronograph";
    const out = [];
    for (const f of [() => new (class extends lg.BaseCheckpointSaver {})(), () => new lg.AsyncBatchedStore({}), () => lg.emptyCheckpoint(), () => new lg.ChatModelStreamImpl()]) {
      try { f(); out.push("no error"); } catch (e) { out.push(e.code + " " + e.message.split(":")[0]); }
    }
    console.log(JSON.stringify(out));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", program], {
    cwd: new URL(".", import.meta.url),
    env: { ...process.env, CHRONOGRAPH_LANGCHAIN: "off" },
  }).toString();
  assert.deepEqual(JSON.parse(out), [
    "UNSUPPORTED BaseCheckpointSaver without @langchain/langgraph-checkpoint is not supported by chronograph",
    "UNSUPPORTED AsyncBatchedStore without @langchain/langgraph-checkpoint is not supported by chronograph",
    "UNSUPPORTED emptyCheckpoint without @langchain/langgraph-checkpoint is not supported by chronograph",
    "UNSUPPORTED ChatModelStreamImpl without @langchain/core is not supported by chronograph",
  ]);
});

test("with the peer, they are @langchain/langgraph-checkpoint's own", async () => {
  const peer = await import("@langchain/langgraph-checkpoint");
  assert.equal(lg.BaseCheckpointSaver, peer.BaseCheckpointSaver);
  assert.equal(lg.BaseStore, peer.BaseStore);
  assert.equal(lg.AsyncBatchedStore, peer.AsyncBatchedStore);
  assert.equal(lg.emptyCheckpoint, peer.emptyCheckpoint);
  assert.equal(lg.copyCheckpoint, peer.copyCheckpoint);
  const { ChatModelStream } = await import("@langchain/core/language_models/stream");
  assert.equal(lg.ChatModelStreamImpl, ChatModelStream);
});
