// The test helpers the ported LangGraph.js tests import, for one engine `lg`:
//   ../utils.js                gatherIterator (LangGraph.js's src/utils.ts)
//   ../node.js                 initializeAsyncLocalStorageSingleton (a no-op here: the public
//                              @langchain/langgraph entry initializes it on import)
//   ./time_travel_helpers.js   TimeTravelState and the history helpers (verbatim, types erased)
//   ./utils.js                 _AnyId*Message, createAnyStringSame, MemorySaverAssertImmutable
//   ./utils.models.js          FakeChatModel, FakeToolCallingChatModel
// From langchain-ai/langgraphjs@f8bdf16d4fe23a79e945ea5dc6f86bbf09abb77d,
// libs/langgraph-core/src/tests/{time_travel_helpers.ts,utils.ts,utils.models.ts}, src/utils.ts.

import { AIMessage, HumanMessage, ToolMessage, FunctionMessage, AIMessageChunk } from "@langchain/core/messages";
import { BaseTracer } from "@langchain/core/tracers/base";
import { InMemoryCache } from "@langchain/langgraph-checkpoint";
import { FakeChatModel, FakeToolCallingChatModel } from "./_utils_models.mjs";

export async function gatherIterator(i) {
  const out = [];
  for await (const item of await i) out.push(item);
  return out;
}

export function helpers(lg, { expect }) {
  const h = { gatherIterator, initializeAsyncLocalStorageSingleton: () => {} };
  // src/constants.ts (internal names, not exported by @langchain/langgraph)
  Object.assign(h, {
    PULL: "__pregel_pull",
    PUSH: "__pregel_push",
    TASKS: "__pregel_tasks",
    TAG_NOSTREAM: "langsmith:nostream",
    TAG_HIDDEN: "langsmith:hidden",
    NULL_TASK_ID: "00000000-0000-0000-0000-000000000000",
    RESUME: "__resume__",
    ERROR: "__error__",
    SELF: "__self__",
    RETURN: "__return__",
  });

  // --- time_travel_helpers.ts --------------------------------------------------------------
  Object.defineProperty(h, "TimeTravelState", {
    enumerable: true,
    get: () =>
      lg.Annotation.Root({
        value: lg.Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
      }),
  });
  function isStateSnapshot(state) {
    return "values" in state && "next" in state;
  }
  function snapshotCheckpointId(snapshot) {
    const id = snapshot.config.configurable?.checkpoint_id;
    return typeof id === "string" ? id : undefined;
  }
  function collectCheckpointIds(history) {
    const ids = history.flatMap((s) => {
      const id = snapshotCheckpointId(s);
      return id ? [id] : [];
    });
    return new Set(ids);
  }
  function getTaskRunnableConfig(task) {
    const { state } = task;
    if (!state) return undefined;
    return isStateSnapshot(state) ? state.config : state;
  }
  function getTaskThreadId(task) {
    const threadId = getTaskRunnableConfig(task)?.configurable?.thread_id;
    return typeof threadId === "string" ? threadId : undefined;
  }
  function checkpointSummary(history) {
    return history.map((s) => {
      const cid = s.config.configurable?.checkpoint_id ?? "";
      const pid = s.parentConfig?.configurable?.checkpoint_id ?? null;
      return {
        id: typeof cid === "string" ? cid.slice(-6) : "",
        parentId: typeof pid === "string" ? pid.slice(-6) : null,
        source: s.metadata?.source,
        next: s.next,
        values: s.values,
      };
    });
  }
  function historyHasNext(snapshot, node) {
    return snapshot.next.includes(node);
  }
  function findHistoryByNext(history, node) {
    return history.find((s) => historyHasNext(s, node));
  }
  function filterHistoryByNext(history, node) {
    return history.filter((s) => historyHasNext(s, node));
  }
  function findInterruptAtNode(history, node) {
    return history.find((s) => historyHasNext(s, node) && s.tasks.some((t) => (t.interrupts?.length ?? 0) > 0));
  }
  async function getSubgraphState(graph, config, subgraphName) {
    const threadId = config.configurable?.thread_id;
    if (typeof threadId !== "string") throw new Error("config.configurable.thread_id is required");
    return graph.getState({ configurable: { thread_id: threadId, checkpoint_ns: subgraphName } }, { subgraphs: true });
  }
  Object.assign(h, {
    isStateSnapshot,
    snapshotCheckpointId,
    collectCheckpointIds,
    getTaskRunnableConfig,
    getTaskThreadId,
    checkpointSummary,
    historyHasNext,
    findHistoryByNext,
    filterHistoryByNext,
    findInterruptAtNode,
    getSubgraphState,
  });

  // --- utils.ts ------------------------------------------------------------------------------
  // MemorySaverAssertImmutable checks that LangGraph.js does not mutate saved checkpoints; for
  // a ported test it is the engine's MemorySaver.
  h.MemorySaverAssertImmutable = lg.MemorySaver;
  h.SlowInMemoryCache = class SlowInMemoryCache extends InMemoryCache {
    async get(keys) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return super.get(keys);
    }
    async set(pairs) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      return super.set(pairs);
    }
  };
  h.FakeTracer = class FakeTracer extends BaseTracer {
    runs = [];
    name = "fake_tracer";
    async persistRun(run) {
      this.runs.push(run);
    }
  };
  class AnyStringSame {
    constructor(key) {
      this.$$typeof = Symbol.for("jest.asymmetricMatcher");
      this.lastValue = undefined;
      this.key = key;
    }
    asymmetricMatch(other) {
      if (!(typeof other === "string" || other instanceof String)) return false;
      if (this.lastValue != null && this.lastValue !== other) return false;
      this.lastValue = other;
      return true;
    }
    toString() {
      return "AnyStringSame";
    }
  }
  h.createAnyStringSame = () => {
    const memory = new Map();
    return (key) => {
      if (!memory.has(key)) memory.set(key, new AnyStringSame(key));
      return memory.get(key);
    };
  };
  const withAnyId = (fields) =>
    typeof fields === "string" ? { content: fields, id: expect.any(String) } : { ...fields, id: expect.any(String) };
  h._AnyIdHumanMessage = class _AnyIdHumanMessage extends HumanMessage {
    get lc_id() { return ["langchain_core", "messages", "HumanMessage"]; }
    constructor(fields) { super(withAnyId(fields)); }
  };
  h._AnyIdAIMessage = class _AnyIdAIMessage extends AIMessage {
    get lc_id() { return ["langchain_core", "messages", "AIMessage"]; }
    constructor(fields) { super(withAnyId(fields)); }
  };
  h._AnyIdToolMessage = class _AnyIdToolMessage extends ToolMessage {
    get lc_id() { return ["langchain_core", "messages", "ToolMessage"]; }
    constructor(fields) {
      super({ id: expect.any(String), ...fields, ...(fields.metadata != null ? { metadata: expect.objectContaining(fields.metadata) } : {}) });
    }
  };
  h._AnyIdFunctionMessage = class _AnyIdFunctionMessage extends FunctionMessage {
    get lc_id() { return ["langchain_core", "messages", "FunctionMessage"]; }
    constructor(fields) { super({ id: expect.any(String), ...fields }); }
  };
  h._AnyIdAIMessageChunk = class _AnyIdAIMessageChunk extends AIMessageChunk {
    get lc_id() { return ["langchain_core", "messages", "AIMessageChunk"]; }
    constructor(fields) { super(withAnyId(fields)); }
  };

  // --- utils.models.ts (transpiled verbatim into _utils_models.mjs) ------------------------
  h.FakeChatModel = FakeChatModel;
  h.FakeToolCallingChatModel = FakeToolCallingChatModel;
  return h;
}
