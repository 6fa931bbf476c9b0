// Type-checked, never run: `tsc --noEmit -p tests`. Uses every export of
// the package (values and types) the way an application would, plus
// `@ts-expect-error` lines the declarations must reject.
import {
  type AddNodeOptions,
  type AsyncCheckpointSaver,
  type ChannelSpec,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointChunk,
  type CheckpointConfig,
  type CheckpointMap,
  type CheckpointMetadata,
  type CheckpointSource,
  type CheckpointTuple,
  type DrawableGraph,
  type DrawConfig,
  type ChunkStream,
  type CompileOptions,
  type Configurable,
  type CustomChannel,
  type DebugChunk,
  type Destination,
  type ErrorFields,
  type ExecutionInfo,
  type GetStateOptions,
  type GraphNode,
  type GraphSpec,
  type Interrupt,
  type InterruptChunk,
  type Json,
  type ListOptions,
  type MessageChunkMetadata,
  type Namespace,
  type NamespacedChunk,
  type NamespacedTaggedChunk,
  type NodeConfig,
  type NodeFunction,
  type PregelTaskDescription,
  type ReducerName,
  type Router,
  type RunnableConfig,
  type RunOutput,
  type SnapshotConfig,
  type SpecOp,
  type StateSnapshot,
  type StateUpdate,
  type StateValues,
  type StreamChunks,
  type StreamMode,
  type StreamOptions,
  type SubgraphConfig,
  type TaggedChunk,
  type TaskChunk,
  type ThreadExport,
  type Update,
  type UpdatedConfig,
  type CommandParams,
  type ErrorOptions,
  type EventStream,
  type InterruptPayload,
  type LifecycleEntry,
  type ProtocolEvent,
  type StreamEvent,
  type StreamEventsOptions,
  type StreamTransformer,
  type StreamTransformerFactory,
  type ValuesProjection,
  BaseLangGraphError,
  createGraphRunStream,
  convertToProtocolEvent,
  EventLog,
  GraphRunStream,
  isCheckpointEnvelope,
  STREAM_EVENTS_V3_MODES,
  StreamChannel,
  SubgraphRunStream,
  ChronographError,
  Command,
  INTERRUPT,
  isCommand,
  isInterrupted,
  Overwrite,
  type OverwriteValue,
  UntrackedValue,
  UntrackedValueChannel,
  DeltaChannel,
  DeltaValue,
  MessagesDeltaValue,
  messagesDeltaReducer,
  type DeltaReducer,
  CompiledStateGraph,
  COPY,
  EmptyInputError,
  END,
  GraphInterrupt,
  GraphRecursionError,
  GraphSpecError,
  GraphValueError,
  INPUT,
  InMemorySaver,
  interrupt,
  InvalidUpdateError,
  MemorySaver,
  Send,
  START,
  StateGraph,
  ThreadBusyError,
  UnreachableNodeError,
} from "chronograph";
import {
  type AnnotationFunction,
  type ExtractUpdateType,
  type ExtractValueType,
  type FieldUpdate,
  type FieldValue,
  type MessageLike,
  type RetryPolicy,
  type SchemaInput,
  type SchemaOutput,
  type SingleReducer,
  type StandardSchemaV1,
  type StateDefinition,
  type StateGraphConstructor,
  type StateGraphOptions,
  type LooseReducer,
  type ReducedValueLike,
  type StateSchemaField,
  type StateSchemaFields,
  type StateType,
  type UpdateType,
  addMessages,
  Annotation,
  AnnotationRoot,
  BaseChannel,
  BinaryOperatorAggregate,
  LastValue,
  MessagesAnnotation,
  MessagesValue,
  MessagesZodMeta,
  MessagesZodState,
  messagesStateReducer,
  ReducedValue,
  REMOVE_ALL_MESSAGES,
  StateSchema,
} from "chronograph";
import { z } from "zod";
import { registry, withLangGraph, type SchemaMeta } from "chronograph/zod";
import {
  type CancellableStream,
  type InMemoryStoreConstructor,
  type Item,
  type RaisedInterrupt,
  type SearchItem,
  type StoreOperation,
  getConfig,
  getCurrentTaskInput,
  getStore,
  Graph,
  InMemoryStore,
  MessageGraph,
  NodeInterrupt,
  entrypoint,
  task,
  type Entrypoint,
  type EntrypointConfig,
  type EntrypointFinal,
  type EntrypointOptions,
  type TaskOptions,
} from "chronograph";
import { getConfigTypeSchema, getInputTypeSchema, getOutputTypeSchema, getStateTypeSchema, getUpdateTypeSchema, type JSONSchema } from "chronograph/zod/schema";
import {
  type BaseCache,
  type CacheFullKey,
  type CachePolicy,
  type InMemoryCacheConstructor,
  type NodeDefaults,
  type NodeTimeoutFields,
  type TimeoutPolicy,
  InMemoryCache,
  isNodeError,
  isNodeTimeoutError,
  NodeError,
  NodeTimeoutError,
} from "chronograph";
import { InMemoryCache as CheckpointInMemoryCache } from "@langchain/langgraph-checkpoint";
import {
  ToolExecutor,
  ToolNode,
  createAgentExecutor,
  createFunctionCallingExecutor,
  createReactAgent,
  createReactAgentAnnotation,
  toolsCondition,
  withAgentName,
  type ActionRequest,
  type AgentExecutorState,
  type AgentNameMode,
  type AgentState,
  type CreateReactAgentParams,
  type FunctionCallingExecutorState,
  type HumanInterrupt,
  type HumanInterruptConfig,
  type HumanResponse,
  type ToolExecutorArgs,
  type ToolInvocationInterface,
  type ToolNodeOptions,
} from "chronograph/prebuilt";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { tool } from "@langchain/core/tools";
import { Channel, ChannelWrite, Pregel, PregelNode, type PregelParams } from "chronograph/pregel";
import { AnyValue, EphemeralValue, NamedBarrierValue, Topic, LastValue as ChannelLastValue } from "chronograph/channels";
import { CompiledGraph, EmptyChannelError, type GraphAddNodeOptions, type GraphNodeSpec } from "chronograph";
import {
  AsyncBatchedStore,
  BaseCheckpointSaver,
  BaseStore,
  COMMAND_SYMBOL,
  ChatModelStreamImpl,
  CommandInstance,
  GraphBubbleUp,
  GraphCallbackHandler,
  GraphDrained,
  MultipleSubgraphsError,
  ParentCommand,
  RemoteException,
  RunControl,
  StateGraphInputError,
  UnknownInterruptError,
  _markInvalidResume,
  copyCheckpoint,
  createLifecycleTransformer,
  createMessagesTransformer,
  createSubgraphDiscoveryTransformer,
  createValuesTransformer,
  emptyCheckpoint,
  filterLifecycleEntries,
  filterSubgraphHandles,
  getJsonSchemaFromSchema,
  getPreviousState,
  getSchemaDefaultGetter,
  getSubgraphsSeenSet,
  getWriter,
  isGraphBubbleUp,
  isGraphDrained,
  isGraphInterrupt,
  isInvalidResume,
  isNativeTransformer,
  isParentCommand,
  isSerializableSchema,
  isStandardSchema,
  isUnknownInterruptError,
  pushMessage,
  writer,
  InMemoryStore as StoreForBatching,
  type PushMessageOptions,
  type UnknownInterruptFields,
} from "chronograph";

interface Message {
  [key: string]: Json;
  type: "human" | "ai" | "system" | "tool" | "remove";
  content: string;
}

interface ChatState {
  messages: Message[];
  turns: number;
  approved: boolean;
}

const reducerName: ReducerName = "add_messages";
const maxOf: CustomChannel<number> = { reducer: (a, b) => Math.max(a, b), default: () => 0 };
const channels: { [K in keyof ChatState]: ChannelSpec } = {
  messages: reducerName,
  turns: maxOf,
  approved: null,
};

const reply: NodeFunction<ChatState> = async (state, config: NodeConfig) => {
  const step: number = config.metadata.langgraph_step;
  const threadId: string | number | undefined = config.configurable.thread_id;
  void threadId;
  // LangGraph.js's node config: tags, the task's path and triggers, checkpoint map, executionInfo, writer.
  const tags: string[] = config.tags;
  const path: (string | number | boolean)[] = config.metadata.langgraph_path;
  const triggers: string[] = config.metadata.langgraph_triggers;
  const map: { [namespace: string]: string } = config.configurable.checkpoint_map;
  const info: ExecutionInfo = config.executionInfo;
  const attempt: number = info.nodeAttempt;
  const runName: string | undefined = config.runName;
  config.writer({ progress: 0.5 });
  const asked: boolean = config.interrupt<string, boolean>("again?");
  void [tags, path, triggers, map, attempt, runName, asked];
  // @ts-expect-error LangGraph.js's node config has no langgraph_task_id
  const taskId: string = config.metadata.langgraph_task_id;
  void taskId;
  // LangGraph.js's order: interrupt<I (the value), R (the answer)>.
  const ok = interrupt<{ question: string; step: number }, boolean>({ question: "send?", step });
  return { approved: ok, turns: state.turns + 1 };
};
const route: Router<ChatState> = (state) => (state.approved ? END : "reply");

const saver: MemorySaver = new MemorySaver();
const alias: InMemorySaver = saver;
const options: CompileOptions = { checkpointer: alias, interruptBefore: ["reply"], interruptAfter: "*" };
// Any LangGraph.js checkpointer (PostgresSaver, SqliteSaver, ...) has this shape.
declare const external: AsyncCheckpointSaver;
const externalOptions: CompileOptions = { checkpointer: external };
void externalOptions;

const graph: CompiledStateGraph<ChatState> = new StateGraph<ChatState>(channels)
  .addNode("booking", () => ({}))
  .addNode("reply", reply)
  .addEdge(START, "booking")
  .addEdge(["booking"], "reply")
  .addConditionalEdges("reply", route, ["reply", END])
  .addConditionalEdges("booking", async () => ["reply"], { reply: "reply" })
  .compile(options);

const configurable: Configurable = { thread_id: "t1", checkpoint_ns: "" };
const config: RunnableConfig = { configurable, recursionLimit: 25, metadata: { user: "u1" } };
const rejecting: RunnableConfig = { ...config, multitaskStrategy: "reject" };
void rejecting;

async function walkthrough(): Promise<void> {
  const out: RunOutput<ChatState> = await graph.invoke({ messages: [{ type: "human", content: "hi" }] }, config);
  const pending: Interrupt[] | undefined = out.__interrupt__;
  const first: Json | undefined = pending?.[0]?.value;
  await graph.invoke(new Command({ resume: true, update: { turns: 1 }, goto: "reply" }), config);
  await graph.invoke(null, config);

  const snapshot: StateSnapshot<ChatState> = await graph.getState(config);
  const messages: Message[] | undefined = snapshot.values.messages;
  const meta: CheckpointMetadata | undefined = snapshot.metadata;
  const source: CheckpointSource | undefined = meta?.source;
  const tasks: PregelTaskDescription[] = snapshot.tasks;
  const parent: CheckpointConfig | undefined = snapshot.parentConfig;
  const created: string | undefined = snapshot.createdAt;

  const history: ListOptions = { limit: 3, before: parent, filter: { source: "loop" } };
  for await (const s of graph.getStateHistory(config, history)) {
    const next: string[] = s.next;
    void next;
  }
  const lineage: StateSnapshot<ChatState>[] = await graph.getLineage(config);

  const updated: UpdatedConfig = await graph.updateState(config, { turns: 3 }, "booking");
  const copied: UpdatedConfig = await graph.updateState(updated, null, COPY);
  await graph.updateState(copied, { messages: [] }, INPUT);
  const update: StateUpdate<ChatState> = { values: { approved: false }, asNode: "reply" };
  await graph.bulkUpdateState(config, [{ updates: [update] }, { updates: [{ values: null, asNode: END }] }]);

  const values: ChunkStream<StreamChunks<ChatState>["values"]> = graph.stream(null, config, { streamMode: "values" });
  for await (const chunk of values) {
    const c: Partial<ChatState> | InterruptChunk = chunk;
    void c;
  }
  for await (const chunk of await graph.stream(null, config)) {
    const u: StreamChunks<ChatState>["updates"] = chunk;
    void u;
  }
  for await (const chunk of graph.stream(null, config, { streamMode: ["checkpoints", "tasks", "debug"] })) {
    const tagged: TaggedChunk<ChatState, "checkpoints" | "tasks" | "debug"> = chunk;
    if (tagged[0] === "checkpoints") {
      const cp: CheckpointChunk<ChatState> = tagged[1];
      void cp;
    } else if (tagged[0] === "tasks") {
      const t: TaskChunk = tagged[1];
      void t;
    } else {
      const d: DebugChunk<ChatState> = tagged[1];
      void d;
    }
  }

  const tuple: CheckpointTuple | undefined = await saver.getTuple(config);
  if (tuple) {
    const cp: Checkpoint = tuple.checkpoint;
    // LangGraph.js's integer versions (the engine's version texts are taken too).
    const versions: ChannelVersions = cp.channel_versions;
    const counter: number | string | undefined = versions["messages"];
    void counter;
    const latest: Checkpoint | undefined = await saver.get(config);
    void latest;
    await saver.put({ configurable: { thread_id: "t3" } }, { ...cp, channel_versions: { messages: 2 } }, { source: "loop", step: 0, parents: {} }, { messages: 2 });
    const stored: CheckpointConfig = await saver.put({ configurable: { thread_id: "t2" } }, cp, { source: "input", step: -1, parents: {} }, {});
    await saver.putWrites(stored, [["turns", 1]], "task-1");
  }
  for await (const t of saver.list({ configurable: { thread_id: "t1" } }, { limit: 1 })) {
    const writes: [string, string, Json][] = t.pendingWrites;
    void writes;
  }
  const data: ThreadExport | undefined = await saver.exportThread("t1");
  if (data) await saver.importThread(data);
  const threads: string[] = await saver.threadIds();
  await saver.deleteThread(threads[0] ?? "t1");

  const spec: GraphSpec = {
    channels: { n: { reducer: "sum" } },
    nodes: { a: { writes: [{ incr: "n", by: 1 } satisfies SpecOp] } },
    edges: [[START, "a"], ["a", END]],
    compile: { checkpointer: true },
  };
  const fromSpec: CompiledStateGraph<StateValues> = StateGraph.fromSpec(spec).compile({ checkpointer: new MemorySaver() });
  await fromSpec.invoke({ n: 0 }, { configurable: { thread_id: 1 } });

  try {
    await graph.invoke({}, config);
  } catch (e) {
    if (e instanceof ChronographError) {
      const fields: ErrorFields = e;
      const code: string = fields.code;
      void code;
    }
    const known =
      e instanceof InvalidUpdateError ||
      e instanceof GraphRecursionError ||
      e instanceof EmptyInputError ||
      e instanceof GraphValueError ||
      e instanceof GraphSpecError ||
      e instanceof GraphInterrupt ||
      e instanceof ThreadBusyError ||
      e instanceof UnreachableNodeError;
    void known;
  }
  const base: BaseLangGraphError = new GraphValueError("x", { lc_error_code: "INVALID_GRAPH" } satisfies ErrorOptions);
  const interruptKey: "__interrupt__" = INTERRUPT;
  const params: CommandParams = { resume: 1 };
  const isCmd: boolean = isCommand(new Command(params)) && !isInterrupted({});
  void [base, interruptKey, isCmd];
  const conversions: number = graph._stateConversions;
  const items: number = graph._stateItemsConverted;
  const mode: StreamMode = "debug";
  const u: Update<ChatState> = undefined;
  void [first, messages, tasks, created, lineage, conversions, items, mode, u, graph.checkpointer];
}
void walkthrough;

// Subgraphs, Send and Command (LangGraph.js shapes).
interface Work {
  items: string[];
  results: string[];
  item?: string;
}
const child = new StateGraph<Work>({ items: "last_value", results: "append", item: "last_value" })
  .addNode("inner", (state) => ({ results: [`did:${state.item ?? ""}`] }))
  .addNode("escape", () => new Command({ update: { results: ["up"] }, goto: "reduce", graph: Command.PARENT }))
  .addEdge(START, "inner")
  .compile();
const fanOut: Router<Work> = (state) => state.items.map((item): Destination => new Send("work", { item }));
const ends: AddNodeOptions = { ends: ["reduce", END] };
const mapReduce: CompiledStateGraph<Work> = new StateGraph<Work>({ items: "last_value", results: "append", item: "last_value" })
  .addNode("split", () => ({ items: ["a", "b"] }))
  .addNode("work", child)
  .addNode("pick", () => new Command({ goto: [new Send("work", { item: "c" }), "reduce"] }), ends)
  .addNode("reduce", () => ({}))
  .addEdge(START, "split")
  .addConditionalEdges("split", fanOut)
  .addConditionalEdges("reduce", () => [END, new Send("pick", {})])
  .compile({ checkpointer: new MemorySaver() });

async function subgraphs(): Promise<void> {
  const cfg: RunnableConfig = { configurable: { thread_id: "m" } };
  const send: Send<{ item: string }> = new Send("work", { item: "x" });
  const packet: { lg_name: "Send"; node: string; args: { item: string } } = send.toJSON();
  const cmd = new Command({ update: { results: [] }, goto: send });
  const pairs = new Command({ update: [["results", ["x"]]], goto: [send, END] });
  const gotos: Destination[] = cmd.goto;
  const parent: "__parent__" = Command.PARENT;
  const getOptions: GetStateOptions = { subgraphs: true };
  const snapshot = await mapReduce.getState(cfg, getOptions);
  const snapConfig: SnapshotConfig = snapshot.config;
  const map: CheckpointMap | undefined = snapConfig.configurable.checkpoint_map;
  for (const task of snapshot.tasks) {
    const state: SubgraphConfig | StateSnapshot | undefined = task.state;
    if (state !== undefined && "values" in state) {
      const inner: StateSnapshot = state;
      for await (const s of mapReduce.getStateHistory(inner.config)) void s;
      await mapReduce.updateState(inner.config, { results: ["fixed"] });
    } else if (state !== undefined) {
      const ns: string = state.configurable.checkpoint_ns;
      void ns;
    }
  }
  const streamOptions: StreamOptions<"updates"> = { streamMode: "updates", subgraphs: true };
  for await (const [ns, chunk] of mapReduce.stream({ items: [] }, cfg, streamOptions as { streamMode: "updates"; subgraphs: true })) {
    const where: Namespace = ns;
    const c: NamespacedChunk<"updates">[1] = chunk;
    void [where, c];
  }
  for await (const chunk of mapReduce.stream({ items: [] }, cfg, { subgraphs: true })) {
    const c: NamespacedChunk<"updates"> = chunk;
    void c;
  }
  for await (const chunk of mapReduce.stream(null, { configurable: { thread_id: "m" }, subgraphs: true })) {
    const c: NamespacedChunk<"updates"> = chunk;
    void c;
  }
  for await (const chunk of mapReduce.stream(null, cfg, { streamMode: ["values", "updates"], subgraphs: true })) {
    const c: NamespacedTaggedChunk<"values" | "updates"> = chunk;
    if (c[1] === "values") {
      const v: StreamChunks<StateValues>["values"] = c[2];
      void v;
    }
  }
  void [packet, gotos, parent, map, pairs];
}
void subgraphs;

// LangGraph.js's state definitions, written as its docs write them.
const Docs = Annotation.Root({
  question: Annotation<string>,
  items: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  total: Annotation<number, number>({ value: (a, b) => a + b, default: () => 0 }),
});
type DocsState = typeof Docs.State;
const retry: RetryPolicy = { maxAttempts: 3, initialInterval: 10, jitter: false };
const docsGraph = new StateGraph(Docs)
  .addNode("collect", (state: DocsState) => ({ items: [`${state.question}:${state.items.length}`], total: 1 }), { retryPolicy: retry })
  .addNode({ finish: (state) => ({ question: `${state.total}` }) })
  .addEdge(START, "collect")
  .addConditionalEdges("collect", (state) => (state.items.length < 3 ? "collect" : "finish"))
  .addEdge("finish", END)
  .compile({ checkpointer: new MemorySaver() });
// A node input schema (private state), node metadata, the object form of
// addConditionalEdges and a node called on its own, as LangGraph.js writes them.
const Private = Annotation.Root({ ...Docs.spec, secret: Annotation<string> });
const privateGraph = new StateGraph(Docs)
  .addNode("hide", () => ({ secret: "s" }) as Partial<DocsState>, { metadata: { description: "writes the secret" } })
  .addNode("read", (state: typeof Private.State) => ({ question: state.secret }), { input: Private })
  .addEdge(START, "hide")
  .addConditionalEdges({ source: "hide", path: () => "read", pathMap: ["read"] })
  .compile();
const readNode: GraphNode | undefined = privateGraph.nodes.read;
void readNode?.invoke({ question: "q", secret: "s" });

// Node options of LangGraph.js 1.7.3: defer, cachePolicy with compile({ cache }),
// timeout, errorHandler, and setNodeDefaults, as its docs write them.
const cachePolicy: CachePolicy = { ttl: 120, keyFunc: ([input]) => JSON.stringify(input) };
const timeoutPolicy: TimeoutPolicy = { runTimeout: 5_000, idleTimeout: 1_000, refreshOn: "heartbeat" };
const defaults: NodeDefaults<DocsState> = { retryPolicy: retry, cachePolicy: true, timeout: 60_000 };
const ownCache: BaseCache = new InMemoryCache();
const cacheClass: InMemoryCacheConstructor = InMemoryCache;
const optionsGraph = new StateGraph(Docs)
  .setNodeDefaults(defaults)
  .addNode("slow", (state: DocsState) => ({ items: [state.question] }), { cachePolicy, timeout: timeoutPolicy })
  .addNode("late", () => ({ total: 1 }), { defer: true, cachePolicy: false, timeout: 100 })
  .addNode("risky", () => ({ total: 2 }), {
    errorHandler: (_state, error, config) => ({ question: `${error.node}: ${String(error.error)} in ${config.metadata.langgraph_node}` }),
  })
  .setNodeDefaults({ errorHandler: (state: DocsState, error: NodeError) => ({ question: `${state.question} (${error.node})` }) })
  .addEdge(START, "slow")
  .addEdge("slow", "late")
  .addEdge("slow", "risky")
  .compile({ cache: new CheckpointInMemoryCache() });
const givenCache: BaseCache | undefined = optionsGraph.cache;
const fullKey: CacheFullKey = [["__pregel_ns_writes", "__dynamic__", "slow"], "0123"];
void optionsGraph.clearCache();
void ownCache.get([fullKey]);
const timedOut: NodeTimeoutFields = { node: "slow", elapsed: 6_000, kind: "run", runTimeout: 5_000 };
const timeoutError = new NodeTimeoutError(timedOut);
const timeoutKind: "run" | "idle" = timeoutError.kind;
const nodeError = new NodeError("risky", timeoutError);
const errorChecks: boolean[] = [isNodeError(nodeError), isNodeTimeoutError(nodeError.error)];
void [cacheClass, givenCache, timeoutKind, errorChecks];

async function docs(): Promise<void> {
  const out = await docsGraph.invoke({ question: "q" }, { configurable: { thread_id: "d" } });
  const items: string[] | undefined = out.items;
  const chat = new StateGraph(MessagesAnnotation)
    .addNode("bot", (state) => ({ messages: [{ role: "assistant", content: `${state.messages.length}` }] }))
    .addEdge(START, "bot")
    .compile();
  const reply = await chat.invoke({ messages: [{ role: "user", content: "hi" }] });
  const merged: MessageLike[] = messagesStateReducer([{ role: "user", content: "a", id: "1" }], { id: REMOVE_ALL_MESSAGES, type: "remove" });
  const schema = new StateSchema({
    messages: MessagesValue,
    step: z.string(),
    count: z.number().default(0),
    log: new ReducedValue(z.array(z.string()).default(() => []), { inputSchema: z.string(), reducer: (a: string[], b: string) => [...a, b] }),
  });
  const zodGraph = new StateGraph(schema)
    .addNode("s", (state) => ({ step: "s", count: state.count + 1, log: `n=${state.log.length}` }))
    .addEdge(START, "s")
    .compile();
  const zodOut = await zodGraph.invoke({ step: "start" });
  const legacy = new StateGraph({ channels: { input: null, steps: { reducer: (a: string[], b: string[]) => a.concat(b), default: () => [] } } });
  const wrapped = new StateGraph({ stateSchema: Docs });
  const definition: StateDefinition = Docs.spec;
  const fromDefinition = new StateGraph(Docs.spec);
  const ctor: StateGraphConstructor = StateGraph;
  const options: StateGraphOptions | undefined = undefined;
  const annotate: AnnotationFunction = Annotation;
  const single: SingleReducer<number> = { reducer: (a, b) => a + b };
  const value: ExtractValueType<typeof Docs.spec.items> = [];
  const update: ExtractUpdateType<typeof Docs.spec.total> = 1;
  const st: StateType<typeof Docs.spec> = { question: "q", items: [], total: 0 };
  const up: UpdateType<typeof Docs.spec> = { total: 1 };
  const fields: StateSchemaFields = schema.fields;
  const field: StateSchemaField = z.string();
  const loose: LooseReducer = { value: (a: number, b: number) => a + b };
  const reducedLike: ReducedValueLike = MessagesValue;
  void [loose, reducedLike];
  const fv: FieldValue<typeof schema.fields.count> = 1;
  const fu: FieldUpdate<typeof schema.fields.log> = "x";
  const so: SchemaOutput<z.ZodString> = "x";
  const si: SchemaInput<z.ZodString> = "x";
  const std: StandardSchemaV1 = z.number();
  // streamMode "messages": [message, metadata] for each LangChain message a node returns.
  for await (const [message, metadata] of graph.stream(null, config, { streamMode: "messages" })) {
    const m: MessageChunkMetadata = metadata;
    const node: string = m.langgraph_node;
    void [message, node];
  }
  const root: AnnotationRoot<{ n: LastValue<number> }> = Annotation.Root({ n: Annotation<number>() });
  const channel: BaseChannel = new BinaryOperatorAggregate<number>((a, b) => a + b, () => 0);
  // Zod object states (chronograph/zod is @langchain/langgraph/zod).
  const zodMeta: SchemaMeta = MessagesZodMeta;
  const zodChat = new StateGraph(MessagesZodState).addNode("bot", () => ({})).addEdge(START, "bot").compile();
  const tagged = withLangGraph(z.array(z.string()), { reducer: { fn: (a: string[], b: string[]) => a.concat(b) }, default: () => [] });
  registry.add(z.number(), { default: () => 0 });
  void [zodMeta, zodChat, tagged];
  void [items, reply, merged, zodOut.count, legacy, wrapped, definition, fromDefinition, ctor, options, annotate, single, value, update, st, up, fields, field, fv, fu, so, si, std, root, channel, addMessages];
}
void docs;

// LangGraph.js's long-term store, NodeInterrupt, cancellation, batch, zod JSON schemas, ToolNode.
{
  const store: BaseStore = new InMemoryStore();
  const ctor: InMemoryStoreConstructor = InMemoryStore;
  const op: StoreOperation = { namespace: ["a"], key: "k" };
  const storeGraph = new StateGraph<ChatState>(channels)
    .addNode("remember", async (state, config) => {
      const item: Item | null = (await config.store?.get(["users"], "1")) ?? null;
      const found: SearchItem[] = (await getStore()?.search(["users"])) ?? [];
      const input = getCurrentTaskInput<ChatState>();
      const signal: AbortSignal | undefined = getConfig().signal;
      if (state.messages.length === 0) throw new NodeInterrupt("empty");
      void [item, found, input, signal];
      return {};
    })
    .addEdge(START, "remember")
    .compile({ checkpointer: new MemorySaver(), store });
  storeGraph.stepTimeout = 1000;
  const raised: RaisedInterrupt[] = new NodeInterrupt("why").interrupts;
  const controller = new AbortController();
  const results: Promise<unknown[]> = storeGraph.batch([{ messages: [] }], [{ ...config, signal: controller.signal }], { maxConcurrency: 2 });
  const stream: Promise<CancellableStream<unknown>> = storeGraph.stream(null, config);
  void stream.then((s) => s.cancel("stop"));
  const schemas: (JSONSchema | undefined)[] = [getStateTypeSchema(storeGraph), getUpdateTypeSchema(storeGraph), getInputTypeSchema(storeGraph), getOutputTypeSchema(storeGraph), getConfigTypeSchema(storeGraph)];
  const tools = new ToolNode([]);
  const route: string = toolsCondition({ messages: [] });
  const lowLevel = [MessageGraph, entrypoint, task];
  void [ctor, op, raised, results, schemas, tools, route, lowLevel];

  // Drawing (LangGraph.js's getGraph, over @langchain/core's Graph) and introspection.
  const named = new StateGraph({ n: "sum" }).addNode("a", () => ({ n: 1 })).addEdge(START, "a").compile({ name: "counter" });
  const xray: DrawConfig = { xray: 1 };
  const drawing: DrawableGraph = named.getGraph(xray);
  const mermaid: string = drawing.drawMermaid({ withStyles: false });
  const png: Promise<Blob> = (await named.getGraphAsync()).drawMermaidPng();
  const json: object = drawing.toJSON();
  const name: string | undefined = named.name;
  const runName: string = named.getName();
  for (const [ns, sub] of named.getSubgraphs(undefined, true)) void [ns.length, sub.name];
  for await (const [ns] of named.getSubgraphsAsync("a")) void ns;
  void [mermaid, png, json, name, runName];
}

/** streamEvents: v2/v1 (LangChain's events), v3 (the streaming protocol), and its building blocks. */
async function streamEventsApi(): Promise<void> {
  const filters: StreamEventsOptions = { includeNames: ["agent"], excludeTags: ["langsmith:hidden"] };
  const events: EventStream<StreamEvent> = graph.streamEvents(null, { ...config, version: "v2", tags: ["t"], runName: "Top", callbacks: [] }, filters);
  for await (const e of events) {
    const named: string = e.name;
    const chunk: unknown = e.data.chunk;
    const step: unknown = e.metadata.langgraph_step;
    void [named, chunk, step, e.run_id, e.event, e.tags];
    break;
  }
  await events.cancel();
  const aborted: boolean = events.signal.aborted;
  const sse: EventStream<Uint8Array> = graph.streamEvents(null, { ...config, version: "v1", encoding: "text/event-stream" });
  const counter = (): StreamTransformer<{ count: Promise<number> }> => {
    let n = 0;
    let done!: (v: number) => void;
    const count = new Promise<number>((resolve) => (done = resolve));
    return { init: () => ({ count }), process: () => (n++, true), finalize: () => done(n) };
  };
  const transformers: StreamTransformerFactory[] = [counter];
  const run: GraphRunStream<ChatState> = await graph.streamEvents(null, { ...config, version: "v3", transformers });
  for await (const e of run) {
    const event: ProtocolEvent = e;
    void [event.method, event.params.namespace, event.params.data];
  }
  const states: ValuesProjection<ChatState> = run.values;
  const last: ChatState | undefined = await run.output;
  const interrupts: readonly InterruptPayload[] = run.interrupts;
  for await (const sub of run.subgraphs) {
    const child: SubgraphRunStream = sub;
    void [child.name, child.index, child.path];
  }
  for await (const entry of run.lifecycle) {
    const lifecycle: LifecycleEntry = entry;
    void lifecycle.event;
  }
  run.abort("stop");
  const log = StreamChannel.remote<number>("ticks");
  log.push(1);
  const local: StreamChannel = EventLog.local();
  const made: GraphRunStream = createGraphRunStream((async function* () {})(), []);
  const converted: ProtocolEvent[] = convertToProtocolEvent({ namespace: [], mode: "values", payload: {}, seq: 0 });
  void [aborted, sse, states, last, interrupts, local, made, converted, isCheckpointEnvelope({}), STREAM_EVENTS_V3_MODES, run.interrupted, run.extensions];
}

// The low-level API: a Pregel of channels and nodes, and a Graph.
async function lowLevelApi(): Promise<void> {
  const node: PregelNode = Channel.subscribeTo(["input"], { tags: ["t"] })
    .join(["total"])
    .pipe((i: { input: number; total: number }) => i.input + i.total)
    .pipe(Channel.writeTo(["output"], { total: (x: number) => x, constant: 1 }));
  const writer: ChannelWrite = Channel.writeTo(["a"]);
  const fields: PregelParams = {
    nodes: { node, other: Channel.subscribeTo("a", { key: "value" }).pipe(writer) },
    channels: {
      input: new ChannelLastValue<number>(),
      output: new ChannelLastValue<number>(),
      total: new BinaryOperatorAggregate<number>((a, b) => a + b, () => 0),
      a: new EphemeralValue(false),
      b: new AnyValue(),
      c: new Topic({ accumulate: true, unique: false }),
      d: new NamedBarrierValue(new Set(["x"])),
      constant: new ChannelLastValue(),
    },
    inputChannels: "input",
    outputChannels: ["output", "total"],
    streamChannels: ["output"],
    interruptBefore: ["node"],
    checkpointer: new MemorySaver(),
    retryPolicy: { maxAttempts: 2 },
  };
  const app = new Pregel(fields);
  app.checkpointer = false;
  app.stepTimeout = 100;
  const config = { configurable: { thread_id: "p" } };
  const out: unknown = await app.invoke(2, config);
  const snapshot: StateSnapshot<object> = await app.getState(config);
  for await (const chunk of app.stream(3, config, { streamMode: "updates" })) void chunk;
  const bound: Pregel = app.withConfig({ configurable: { user: "u" } }).validate();
  const graph: CompiledGraph = new Graph()
    .addNode("a", (x: number) => x + 1)
    .addNode({ b: (x: number) => x * 2 })
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addConditionalEdges("b", (x: number) => (x > 2 ? "a" : END), ["a", END])
    .compile({ checkpointer: new MemorySaver(), interruptBefore: ["b"] });
  const empty: Error = new EmptyChannelError("empty");
  const nodeOptions: GraphAddNodeOptions = { metadata: { kind: "math" } };
  const spec: GraphNodeSpec | undefined = graph.builder.nodes.a;
  void [out, snapshot, bound, graph, empty, nodeOptions, spec];
}
void lowLevelApi;

// LangGraph.js's other main-entry names, used as its docs and API reference do.
async function langGraphExtras(): Promise<void> {
  // A custom checkpointer ("Persistence" docs): only the methods it needs.
  class ListSaver extends BaseCheckpointSaver {
    async getTuple(config: RunnableConfig) {
      void config;
      return undefined;
    }
    async *list(_config: RunnableConfig) {}
    async put(config: RunnableConfig, checkpoint: Checkpoint) {
      return { configurable: { thread_id: String(config.configurable?.thread_id), checkpoint_id: checkpoint.id } };
    }
    async putWrites(_config: RunnableConfig, _writes: [string, unknown][], _taskId: string) {}
    async deleteThread(_threadId: string) {}
  }
  const saverGraph = new StateGraph(Annotation.Root({ n: Annotation<number>() }))
    .addNode("a", () => ({ n: 1 }))
    .addEdge(START, "a")
    .compile({ checkpointer: new ListSaver() });
  void saverGraph;
  class OpsStore extends BaseStore {
    async batch(operations: StoreOperation[]): Promise<unknown[]> {
      return operations.map(() => null);
    }
  }
  const stores: BaseStore[] = [new OpsStore(), new AsyncBatchedStore(new StoreForBatching())];
  const fresh: Checkpoint = emptyCheckpoint();
  const copied: Checkpoint = copyCheckpoint(fresh);

  // Errors and their predicates.
  const caught: unknown = new GraphDrained("sigterm");
  if (isGraphBubbleUp(caught) && isGraphDrained(caught)) console.log(caught.reason);
  const parent = new ParentCommand(new Command({ graph: Command.PARENT, goto: "b" }));
  const flags: boolean[] = [isParentCommand(parent), isGraphInterrupt(parent), parent instanceof GraphBubbleUp, isInvalidResume(parent), isUnknownInterruptError(parent)];
  _markInvalidResume(parent);
  const unknownFields: UnknownInterruptFields = { reason: "not_pending", interruptIds: ["i"] };
  const unknown = new UnknownInterruptError("not pending", unknownFields);
  const reasons: string[] = [unknown.reason, ...unknown.pendingIds];
  const errors: Error[] = [new StateGraphInputError(), new MultipleSubgraphsError("m"), new RemoteException("r"), new GraphBubbleUp("b")];
  const seenSet: Set<unknown> = getSubgraphsSeenSet();

  // Commands.
  const command = new Command({ goto: "a" });
  const base: CommandInstance = command;
  const args = base[COMMAND_SYMBOL];

  // Helpers a node calls through the async context.
  const helpers = new StateGraph(MessagesAnnotation)
    .addNode("talk", async () => {
      getWriter()?.({ progress: 1 });
      writer({ progress: 2 });
      const previous = getPreviousState<number | undefined>();
      const pushOptions: PushMessageOptions = { stateKey: "messages" };
      const message = pushMessage({ role: "assistant", content: "hi", id: "m1" }, pushOptions);
      void [previous, message];
      return {};
    })
    .addEdge(START, "talk")
    .compile();

  // Schema helpers.
  const schema = z.string().default("x");
  const schemaFacts: boolean[] = [isStandardSchema(schema), isSerializableSchema(schema)];
  const json: Record<string, unknown> | undefined = getJsonSchemaFromSchema(schema);
  const defaultOf: (() => unknown) | undefined = getSchemaDefaultGetter(schema);

  // Streaming-protocol pieces.
  const transformers = [createLifecycleTransformer(), createValuesTransformer([]), createMessagesTransformer([], "talk")];
  const native: boolean[] = transformers.map((tr) => isNativeTransformer(tr));
  const pieces = [filterLifecycleEntries, filterSubgraphHandles, createSubgraphDiscoveryTransformer, ChatModelStreamImpl, RunControl, GraphCallbackHandler];
  void [stores, copied, flags, reasons, errors, seenSet, args, helpers, schemaFacts, json, defaultOf, native, pieces];
}
void langGraphExtras;

// The declarations must reject these.
// @ts-expect-error: not a reducer name
const badReducer: ChannelSpec = "max";
// @ts-expect-error: not a stream mode
graph.stream(null, config, { streamMode: "tokens" });
// @ts-expect-error: a node update must be an object of the state's channels
const badNode: NodeFunction<ChatState> = () => 42;
// @ts-expect-error: asNode is a string
graph.updateState(config, {}, 1);
// @ts-expect-error: "interrupt" and "rollback" are Agent Server strategies the package does not have
const badStrategy: RunnableConfig = { multitaskStrategy: "rollback" };
// @ts-expect-error: a Send names its node with a string
const badSend = new Send(3, {});
// @ts-expect-error: Command.graph is Command.PARENT or nothing
const badGraph = new Command({ graph: "other" });
// @ts-expect-error: subgraphs is a boolean
mapReduce.getState(config, { subgraphs: "yes" });
// @ts-expect-error: streamEvents needs a version
graph.streamEvents(null, config);
// @ts-expect-error: xray is a boolean or a number of levels
mapReduce.getGraph({ xray: "deep" });
// Overwrite: a reducer channel's update type takes it; its value keeps its type.
const OverwriteState = Annotation.Root({ log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }) });
const overwriteUpdate: typeof OverwriteState.Update = { log: new Overwrite(["replaced"]) };
const overwriteWire: OverwriteValue<string[]> = { __overwrite__: [] };
const overwritten: string[] = new Overwrite(["x"]).value;
const isOverwrite: boolean = Overwrite.isInstance(overwriteWire);
new StateGraph(OverwriteState).addNode("reset", () => ({ log: new Overwrite<string[]>([]) }));
new StateGraph(MessagesAnnotation).addNode("reset", () => ({ messages: new Overwrite([]) }));
// @ts-expect-error: an Overwrite of a reducer channel holds the channel's value type
const badOverwrite: typeof OverwriteState.Update = { log: new Overwrite(42) };
void [overwriteUpdate, overwritten, isOverwrite, badOverwrite];
// UntrackedValue: an Annotation.Root channel and a StateSchema field, typed by their value.
const UntrackedState = Annotation.Root({ conn: new UntrackedValueChannel<{ id: number }>({ guard: false, initialValueFactory: () => ({ id: 0 }) }) });
const untrackedId: number = ({} as typeof UntrackedState.State).conn.id;
const UntrackedSchema = new StateSchema({ session: new UntrackedValue(z.string(), { guard: true }) });
const untrackedSession: string = ({} as typeof UntrackedSchema.State).session;
// The delta channels: typed as LangGraph.js's (they fail when used).
const deltaReducer: DeltaReducer<string[], string> = (state, writes) => [...state, ...writes];
const deltaField = new DeltaValue(z.array(z.string()), { reducer: deltaReducer, snapshotFrequency: 10 });
const deltaKinds: boolean = DeltaValue.isInstance(MessagesDeltaValue) && deltaField.snapshotFrequency === 10 && typeof DeltaChannel === "function";
const deltaMessages = messagesDeltaReducer([{ role: "user", content: "a", id: "1" }], [[{ role: "user", content: "b", id: "1" }]]);
void [untrackedId, untrackedSession, deltaKinds, deltaMessages];
void [badReducer, badNode, badStrategy, badSend, badGraph, streamEventsApi];

// The functional API, as LangGraph.js's docs write it: typed tasks, an entrypoint whose invoke
// resolves to the function's result (entrypoint.final's value), getPreviousState, interrupt.
async function functionalApi(): Promise<void> {
  const addOne = task("addOne", async (n: number) => n + 1);
  const join = task({ name: "join", retry: { maxAttempts: 2 } }, (a: string, b: string): string => `${a}${b}`);
  const one: Promise<number> = addOne(1);
  // @ts-expect-error: a task's arguments are typed
  void addOne("x");
  const workflow = entrypoint({ checkpointer: new MemorySaver(), name: "workflow" }, async (input: { n: number }) => {
    const a = await addOne(input.n);
    const approved = interrupt<{ a: number }, boolean>({ a });
    return { a, approved, text: await join("a", "b") };
  });
  const out: { a: number; approved: boolean; text: string } = await workflow.invoke({ n: 1 }, { configurable: { thread_id: "1" } });
  const memory = entrypoint({ checkpointer: new MemorySaver(), name: "memory" }, async (n: number) => {
    const previous = getPreviousState<number>() ?? 0;
    return entrypoint.final({ value: previous, save: previous + n });
  });
  const previous: number = await memory.invoke(1, { configurable: { thread_id: "1" } });
  await workflow.invoke(new Command({ resume: true }), { configurable: { thread_id: "1" } });
  for await (const chunk of await workflow.stream({ n: 2 }, { configurable: { thread_id: "2" }, streamMode: "updates" })) void chunk;
  const state = await workflow.getState({ configurable: { thread_id: "1" } });
  const named: Entrypoint<string, number> = entrypoint("named", (x: string) => x.length);
  const options: EntrypointOptions = { name: "typed", checkpointer: new MemorySaver() };
  const taskOptions: TaskOptions = { name: "typedTask", retry: { maxAttempts: 3 } };
  const final: EntrypointFinal<string, number> = entrypoint.final({ value: "v", save: 1 });
  const typed = entrypoint(options, (x: number, config: EntrypointConfig) => `${x} ${String(config.configurable?.thread_id)}`);
  const typedTask = task(taskOptions, (x: number) => x);
  const length: Promise<number> = named.invoke("abc");
  void [one, out, previous, state.next, final, typed, typedTask, length];
}
void functionalApi;

/** `chronograph/prebuilt`: createReactAgent and LangGraph.js's other prebuilt names. */
async function prebuiltAgents(): Promise<void> {
  const llm = new FakeListChatModel({ responses: ["hi"] });
  const weather = tool(async ({ city }: { city: string }) => `sunny in ${city}`, { name: "weather", description: "The weather.", schema: z.object({ city: z.string() }) });
  const agent = createReactAgent({ llm, tools: [weather], prompt: "Be brief.", checkpointer: new MemorySaver(), interruptBefore: ["tools"], name: "bot" });
  const out = await agent.invoke({ messages: [{ role: "user", content: "hi" }] }, { configurable: { thread_id: "1" } });
  const messages: MessageLike[] = out.messages ?? [];
  const State = createReactAgentAnnotation<{ answer: number }>();
  const params: CreateReactAgentParams<typeof State, { answer: number }> = {
    llm: (state, runtime) => (state.messages.length > 1 && runtime.configurable.thread_id ? llm : llm),
    tools: new ToolNode([weather], { name: "tools" } satisfies ToolNodeOptions),
    stateSchema: State,
    responseFormat: z.object({ answer: z.number() }),
    preModelHook: (state) => ({ llmInputMessages: state.messages.slice(-1) }),
    postModelHook: () => ({}),
    prompt: (state) => state.messages,
    version: "v2",
    includeAgentName: "inline",
  };
  const structured = createReactAgent(params);
  const answer: number | undefined = (await structured.invoke({ messages: [] })).structuredResponse?.answer;
  const agentState: AgentState<{ answer: number }> = { messages, structuredResponse: { answer: 1 } };
  const mode: AgentNameMode = "inline";
  const named = withAgentName(llm, mode);
  const executor = new ToolExecutor({ tools: [weather] } satisfies ToolExecutorArgs);
  const invocation: ToolInvocationInterface = { tool: "weather", toolInput: "{}" };
  const executed: Promise<unknown> = executor.invoke(invocation);
  const legacy = createAgentExecutor({ agentRunnable: llm, tools: executor });
  const legacyState: AgentExecutorState = { input: "x", steps: [] };
  const calling = createFunctionCallingExecutor({ model: llm, tools: [weather] });
  const callingState: FunctionCallingExecutorState = { messages };
  const request: ActionRequest = { action: "Approve", args: { city: "sf" } };
  const allowed: HumanInterruptConfig = { allow_ignore: true, allow_respond: true, allow_edit: false, allow_accept: true };
  const asked: HumanInterrupt = { action_request: request, config: allowed, description: "Approve?" };
  const answered: HumanResponse = { type: "edit", args: request };
  // @ts-expect-error: version is "v1" or "v2"
  createReactAgent({ llm, tools: [], version: "v3" });
  void [answer, agentState, named, executed, legacy, legacyState, calling, callingState, asked, answered];
}
void prebuiltAgents;
