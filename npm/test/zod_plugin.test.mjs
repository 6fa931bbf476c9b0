// `chronograph/zod` installs LangGraph.js's zod plugin, as
// `@langchain/langgraph/zod` does: `schema.langgraph.reducer(fn, schema)`
// on zod 3 schemas gives a state field its reducer. (Both put it on zod 4's
// `ZodType.prototype` too, which zod 4's schemas do not inherit from: there
// `withLangGraph` or the `registry` is the way, as in LangGraph.js.)
import assert from "node:assert/strict";
import { test } from "node:test";
import { z as z3 } from "zod/v3";
import { START, StateGraph } from "chronograph";
import "chronograph/zod";

for (const [label, z] of [["zod 3", z3]]) {
  test(`${label}: schema.langgraph.reducer gives a field its reducer and keeps its default`, async () => {
    const State = z.object({
      items: z
        .array(z.string())
        .default(() => [])
        .langgraph.reducer((a, b) => a.concat(b), z.union([z.string(), z.array(z.string())])),
      note: z.string().langgraph.metadata({ langgraph_type: "note" }),
    });
    const graph = new StateGraph(State)
      .addNode("a", () => ({ items: ["a"], note: "a" }))
      .addNode("b", () => ({ items: ["b"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .compile();
    assert.deepEqual(await graph.invoke({ items: ["in"], note: "in" }), { items: ["in", "a", "b"], note: "a" });
    assert.deepEqual((await graph.invoke({ note: "x" })).items, ["a", "b"]);
  });
}
