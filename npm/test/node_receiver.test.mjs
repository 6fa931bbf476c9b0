// What a node function is called on, and a retry policy that keeps a
// synchronous node synchronous (LangGraph.js calls a node as a method of its
// RunnableCallable, whose `name` is the node's name).
import assert from "node:assert/strict";
import { test } from "node:test";
import { Annotation, MemorySaver, START, StateGraph } from "chronograph";

const State = Annotation.Root({ value: Annotation({ reducer: (a, b) => [...a, ...b], default: () => [] }) });

class Named {
  constructor(name) {
    this.name = name;
  }
  call() {
    return { value: [this.name] };
  }
}

test("a node function is called with `this.name` the node's name, as LangGraph.js does (an unbound class method works)", async () => {
  const graph = new StateGraph(State)
    .addNode("1", new Named("x").call)
    .addNode("2", new Named("y").call, { retryPolicy: { maxAttempts: 2, logWarning: false } })
    .addEdge(START, "1")
    .addEdge("1", "2")
    .compile({ checkpointer: new MemorySaver() });
  assert.deepEqual((await graph.invoke({ value: [] }, { configurable: { thread_id: "receiver" } })).value, ["1", "2"]);
});

test("a retry policy retries a synchronous node, which stays synchronous until it fails", async () => {
  let calls = 0;
  let sync;
  const graph = new StateGraph(State)
    .addNode(
      "flaky",
      () => {
        calls += 1;
        if (calls === 1) throw new Error("once");
        return { value: ["ok"] };
      },
      { retryPolicy: { maxAttempts: 2, initialInterval: 1, jitter: false, logWarning: false } },
    )
    .addNode(
      "steady",
      function () {
        sync = this.name;
        return { value: ["steady"] };
      },
      { retryPolicy: { logWarning: false } },
    )
    .addEdge(START, "flaky")
    .addEdge("flaky", "steady")
    .compile();
  assert.deepEqual((await graph.invoke({ value: [] })).value, ["ok", "steady"]);
  assert.equal(calls, 2);
  assert.equal(sync, "steady");
});
