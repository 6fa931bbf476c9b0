// Overwrite beyond a plain reducer: on a last-value channel (kept as the Overwrite itself while
// the run goes on, as its JSON once read back from the saver), on the messages channel of
// MessagesAnnotation (the list taken as it is, not coerced into messages), in a zod object state
// and in a StateSchema with a ReducedValue. Mirrors the reference docs of `Overwrite`.
import { z } from "zod";

export const title = "Overwrite on last-value, messages, zod and StateSchema channels";

export default async function (lg, t) {
  const { Annotation, MessagesAnnotation, StateSchema, ReducedValue, StateGraph, MemorySaver, Overwrite, START } = lg;

  // A last-value channel keeps whatever is written, an Overwrite too.
  const Last = Annotation.Root({ note: Annotation(), seen: Annotation() });
  const last = new StateGraph(Last)
    .addNode("write", () => ({ note: new Overwrite("replaced") }))
    .addNode("read", (s) => ({ seen: [typeof s.note, s.note instanceof Overwrite, JSON.stringify(s.note)] }))
    .addEdge(START, "write")
    .addEdge("write", "read")
    .compile({ checkpointer: new MemorySaver() });
  const lastConfig = { configurable: { thread_id: "last" } };
  const out = await last.invoke({ note: "n" }, lastConfig);
  t.record("last value: result", { note: JSON.stringify(out.note), isOverwrite: out.note instanceof Overwrite, seen: out.seen });
  const state = await last.getState(lastConfig);
  t.record("last value: read back", { note: state.values.note, isOverwrite: state.values.note instanceof Overwrite });

  // MessagesAnnotation: the Overwrite's list replaces the messages as it is.
  const chat = new StateGraph(MessagesAnnotation)
    .addNode("reset", () => ({ messages: new Overwrite([{ role: "assistant", content: "fresh start", id: "r1" }]) }))
    .addNode("reply", () => ({ messages: [{ role: "assistant", content: "after", id: "r2" }] }))
    .addEdge(START, "reset")
    .addEdge("reset", "reply")
    .compile({ checkpointer: new MemorySaver() });
  await t.result("messages: result", () => chat.invoke({ messages: [{ role: "user", content: "hi", id: "u1" }] }, { configurable: { thread_id: "chat" } }));

  // A zod object state: the Overwrite's value is parsed with the field's schema.
  const zodState = z.object({ name: z.string(), tags: z.array(z.string()) });
  const zodGraph = new StateGraph(zodState)
    .addNode("rename", () => ({ name: new Overwrite("renamed"), tags: { __overwrite__: ["t"] } }))
    .addEdge(START, "rename")
    .compile();
  await t.result("zod: result", () => zodGraph.invoke({ name: "n", tags: [] }));
  // StateSchema with a ReducedValue.
  const Schema = new StateSchema({
    history: new ReducedValue(z.array(z.string()).default(() => []), { inputSchema: z.string(), reducer: (a, b) => [...a, b] }),
  });
  const schemaGraph = new StateGraph(Schema)
    .addNode("one", () => ({ history: "one" }))
    .addNode("reset", () => ({ history: new Overwrite(["reset"]) }))
    .addEdge(START, "one")
    .addEdge("one", "reset")
    .compile();
  await t.result("StateSchema: result", () => schemaGraph.invoke({ history: "in" }));
}
