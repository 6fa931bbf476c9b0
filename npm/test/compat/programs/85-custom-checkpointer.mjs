// A checkpointer written the way LangGraph.js's "Persistence" docs ("Implementing your own
// checkpointer") tell: `class ... extends BaseCheckpointSaver` from the main entry, with getTuple,
// list, put, putWrites and deleteThread over a Map; a long-term store extending BaseStore (only
// `batch`), and AsyncBatchedStore around InMemoryStore; emptyCheckpoint / copyCheckpoint.
export const title = "BaseCheckpointSaver subclass as checkpointer, BaseStore subclass, AsyncBatchedStore, emptyCheckpoint";

export default async function (lg, t) {
  const { Annotation, StateGraph, START, END, Command, interrupt, BaseCheckpointSaver, BaseStore, AsyncBatchedStore, InMemoryStore } = lg;

  class MapSaver extends BaseCheckpointSaver {
    storage = new Map(); // thread -> [{ config, checkpoint, metadata, parentConfig, writes }]
    calls = [];
    async getTuple(config) {
      this.calls.push("getTuple");
      const list = this.storage.get(config.configurable.thread_id) ?? [];
      const id = config.configurable.checkpoint_id;
      const found = id === undefined ? list[list.length - 1] : list.find((e) => e.checkpoint.id === id);
      if (!found) return undefined;
      return { config: found.config, checkpoint: found.checkpoint, metadata: found.metadata, parentConfig: found.parentConfig, pendingWrites: found.writes };
    }
    async *list(config, options) {
      this.calls.push("list");
      const list = [...(this.storage.get(config.configurable.thread_id) ?? [])].reverse();
      for (const e of list.slice(0, options?.limit ?? list.length)) {
        yield { config: e.config, checkpoint: e.checkpoint, metadata: e.metadata, parentConfig: e.parentConfig, pendingWrites: e.writes };
      }
    }
    async put(config, checkpoint, metadata) {
      this.calls.push("put");
      const thread = config.configurable.thread_id;
      const ns = config.configurable.checkpoint_ns ?? "";
      const list = this.storage.get(thread) ?? [];
      const parent = config.configurable.checkpoint_id;
      const saved = { configurable: { thread_id: thread, checkpoint_ns: ns, checkpoint_id: checkpoint.id } };
      list.push({
        config: saved,
        checkpoint: structuredClone(checkpoint),
        metadata: structuredClone(metadata),
        parentConfig: parent ? { configurable: { thread_id: thread, checkpoint_ns: ns, checkpoint_id: parent } } : undefined,
        writes: [],
      });
      this.storage.set(thread, list);
      return saved;
    }
    async putWrites(config, writes, taskId) {
      this.calls.push("putWrites");
      const list = this.storage.get(config.configurable.thread_id) ?? [];
      const entry = list.find((e) => e.checkpoint.id === config.configurable.checkpoint_id);
      for (const [channel, value] of writes) entry?.writes.push([taskId, channel, structuredClone(value)]);
    }
    async deleteThread(threadId) {
      this.storage.delete(threadId);
    }
  }

  const saver = new MapSaver();
  t.record("saver", { isBase: saver instanceof BaseCheckpointSaver, nextVersion: [saver.getNextVersion(undefined), saver.getNextVersion(3)] });

  const State = Annotation.Root({ steps: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  const graph = new StateGraph(State)
    .addNode("a", () => ({ steps: ["a"] }))
    .addNode("ask", () => ({ steps: [interrupt("continue?")] }))
    .addEdge(START, "a")
    .addEdge("a", "ask")
    .addEdge("ask", END)
    .compile({ checkpointer: saver });
  const config = { configurable: { thread_id: "custom-85" } };
  await t.result("first run", async () => (await graph.invoke({ steps: ["in"] }, config)).__interrupt__.map((i) => i.value));
  await t.result("state", async () => {
    const s = await graph.getState(config);
    return { values: s.values, next: s.next, step: s.metadata.step, tasks: s.tasks.map((x) => x.name) };
  });
  await t.result("resumed", () => graph.invoke(new Command({ resume: "yes" }), config));
  await t.history("history", graph, config);
  t.record("stored checkpoints", saver.storage.get("custom-85").length);
  t.record("saver methods used", [...new Set(saver.calls)].sort());

  const empty = lg.emptyCheckpoint();
  t.record("emptyCheckpoint", { ...empty, idIsString: typeof empty.id === "string", tsIsString: typeof empty.ts === "string" });
  const source = { v: 4, id: "c1", ts: "2026-01-01T00:00:00.000Z", channel_values: { a: 1 }, channel_versions: { a: 2 }, versions_seen: { n: { a: 1 } } };
  const copy = lg.copyCheckpoint(source);
  copy.channel_values.a = 9;
  copy.versions_seen.n.a = 5;
  t.record("copyCheckpoint", { copy, source });

  class MapStore extends BaseStore {
    data = new Map();
    async batch(ops) {
      return ops.map((op) => {
        const key = `${op.namespace?.join("/")}:${op.key}`;
        if ("value" in op) {
          if (op.value === null) this.data.delete(key);
          else this.data.set(key, { value: op.value, key: op.key, namespace: op.namespace });
          return undefined;
        }
        if ("key" in op) return this.data.get(key) ?? null;
        return [...this.data.values()].filter((item) => item.namespace.join("/").startsWith(op.namespacePrefix.join("/")));
      });
    }
  }
  const store = new MapStore();
  const withStore = new StateGraph(State)
    .addNode("remember", async (_s, cfg) => {
      await cfg.store.put(["memories", "u1"], "k", { text: "likes tea" });
      const item = await lg.getStore().get(["memories", "u1"], "k");
      const found = await cfg.store.search(["memories"]);
      return { steps: [item.value.text, found.length] };
    })
    .addEdge(START, "remember")
    .compile({ store });
  await t.result("BaseStore subclass as store", () => withStore.invoke({ steps: [] }));

  const batched = new AsyncBatchedStore(new InMemoryStore());
  const withBatched = new StateGraph(State)
    .addNode("remember", async (_s, cfg) => {
      await Promise.all([cfg.store.put(["n"], "a", { v: 1 }), cfg.store.put(["n"], "b", { v: 2 })]);
      const items = await Promise.all([cfg.store.get(["n"], "a"), cfg.store.get(["n"], "b")]);
      return { steps: items.map((i) => i.value.v) };
    })
    .addEdge(START, "remember")
    .compile({ store: batched });
  await t.result("AsyncBatchedStore as store", () => withBatched.invoke({ steps: [] }));
  batched.stop();
}
