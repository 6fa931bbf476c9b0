// Short-term memory with the functional API (LangGraph.js docs: "Functional API" > "Short-term
// memory", `entrypoint.final`, `getPreviousState()`): each run on a thread sees what the last one
// returned (or saved with `entrypoint.final({ value, save })`); another thread starts empty.
export const title = "entrypoint.final({ value, save }) and getPreviousState() across invokes";

export default async function (lg, t) {
  const { entrypoint, task, getPreviousState, MemorySaver } = lg;
  const checkpointer = new MemorySaver();
  const accumulate = entrypoint({ checkpointer, name: "accumulate" }, async (n) => {
    const previous = getPreviousState() ?? 0;
    return entrypoint.final({ value: { previous, n }, save: previous + n });
  });
  const config = { configurable: { thread_id: "fn-96" } };
  await t.result("first", () => accumulate.invoke(1, config));
  await t.result("second", () => accumulate.invoke(2, config));
  await t.result("third", () => accumulate.invoke(3, config));
  await t.result("another thread", () => accumulate.invoke(10, { configurable: { thread_id: "fn-96b" } }));
  await t.result("getState", async () => {
    const s = await accumulate.getState(config);
    return { values: s.values, next: s.next, metadata: s.metadata };
  });
  await t.stream("stream values", () => accumulate.stream(4, { ...config, streamMode: "values" }));

  // The return value itself is what the next run sees, without final(); a task sees it too.
  const peek = task("peek", async () => getPreviousState() ?? "none");
  const chat = entrypoint({ checkpointer, name: "chat" }, async (message, config) => {
    const previous = getPreviousState() ?? [];
    const seenByTask = await peek();
    return { log: [...(previous.log ?? []), message], fromConfig: config.configurable?.thread_id ?? null, seenByTask: seenByTask === "none" ? "none" : seenByTask.log.length };
  });
  const c2 = { configurable: { thread_id: "fn-96c" } };
  await t.result("chat 1", () => chat.invoke("hi", c2));
  await t.result("chat 2", () => chat.invoke("how are you", c2));
  // final() without save: nothing is saved for the next run.
  const forget = entrypoint({ checkpointer, name: "forget" }, async (x) => entrypoint.final({ value: { x, previous: getPreviousState() ?? null } }));
  const c3 = { configurable: { thread_id: "fn-96d" } };
  await t.result("final without save 1", () => forget.invoke(1, c3));
  await t.result("final without save 2", () => forget.invoke(2, c3));
}
