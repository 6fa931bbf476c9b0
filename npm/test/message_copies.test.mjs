// Message instances from another copy of @langchain/core than the one the
// package finds (issue 27: a linked package, a workspace): recognised by
// @langchain/core's brand, and handed back as instances of the classes they
// came from. Two real copies: npm/test's (the one found from here) and
// npm/test/interop's (installed by scripts/setup.sh). Its own file: the
// classes noted are the process's.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as found from "@langchain/core/messages";
import { END, MemorySaver, MessagesAnnotation, START, StateGraph } from "chronograph";

const other = await import(new URL("./interop/node_modules/@langchain/core/dist/messages/index.js", import.meta.url).href);

test("messages come back as the classes of the application's instances, not those of the copy the package found", async () => {
  assert.notEqual(other.HumanMessage, found.HumanMessage, "two copies of @langchain/core");
  const seen = [];
  const graph = new StateGraph(MessagesAnnotation)
    .addNode("agent", (state) => {
      seen.push(...state.messages.map((m) => Object.getPrototypeOf(m) === other.HumanMessage.prototype));
      return { messages: [new other.AIMessage({ content: "hello", id: "a1" })] };
    })
    .addEdge(START, "agent")
    .addEdge("agent", END)
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "copies" } };
  const out = await graph.invoke({ messages: [new other.HumanMessage({ content: "hi", id: "h1" })] }, config);
  assert.deepEqual(seen, [true]);
  assert.deepEqual(
    out.messages.map((m) => [m.id, Object.getPrototypeOf(m) === other[m.constructor.name].prototype]),
    [["h1", true], ["a1", true]],
  );
  const history = [];
  for await (const snapshot of graph.getStateHistory(config)) history.push(...(snapshot.values.messages ?? []));
  assert.ok(history.length > 0 && history.every((m) => Object.getPrototypeOf(m) === other[m.constructor.name].prototype));
  // A plain message the engine coerces comes back as the application's class of its type too.
  const next = await graph.invoke({ messages: [{ role: "user", content: "again", id: "h2" }] }, config);
  const coerced = next.messages.find((m) => m.id === "h2");
  assert.equal(Object.getPrototypeOf(coerced), other.HumanMessage.prototype);
});
