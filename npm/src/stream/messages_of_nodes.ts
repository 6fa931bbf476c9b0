// streamMode "messages" for the messages nodes write (a chat model's are
// stream/messages_of_chat_models.ts's): LangGraph.js's StreamMessagesHandler
// emits, when a node ends, each LangChain message instance in what it
// returned (in a `Command`'s update too) that the run has not seen yet (in
// the node's input state, or emitted before), as `[message, metadata]`.
// The metadata is that of the node's run: `tags` (`graph:step:N` first),
// `name`, the run's metadata (with `ls_integration` and the thread ids
// LangGraph.js copies from `configurable`), then the task's
// `langgraph_step`, `langgraph_node`, `langgraph_triggers`,
// `langgraph_path`, `langgraph_checkpoint_ns` and `checkpoint_ns`.
//
// A task's step, triggers and namespace come from the engine's `"debug"`
// task chunks, which the run then asks for even when the caller did not
// (graph/state_graph.ts drops them; the same for `"updates"`): a task the stream has no chunk of (a subgraph's, without
// `subgraphs: true`) emits nothing, as in LangGraph.js. A JS node's
// messages are emitted when it returns (the very objects it returned); a
// task that is no JS node of this run (a subgraph node, whose output is the
// subgraph's state, and with `subgraphs: true` the subgraph's own nodes,
// which the run's data does not reach) emits from its `"updates"` chunk,
// just before it, the messages that were instances.
import { isMessageInstance, newMessageId, reviveWrittenMessages, type LcMessage } from "../langchain/message_classes.js";
import { runMetadata } from "../pregel/node_config.js";
import { argumentError, thrownText } from "../internal/args.js";


/** What a task-start chunk tells of a task. */
interface TaskInfo {
  name: string;
  step: number;
  triggers: unknown[];
  path: unknown[];
  ns: string[];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** One `"messages"` stream: what it has seen, and where its chunks go. */
export class NodeMessages {
  readonly #emit: (chunk: [LcMessage, Record<string, unknown>], ns: string[]) => void;
  readonly #tags: unknown[];
  readonly #metadata: Record<string, unknown>;
  /** The root graph's nodes' own metadata (addNode's option), by node name. */
  readonly #nodeMetadata: ReadonlyMap<string, Record<string, unknown>> | undefined;
  /** Ids of the messages seen so far (LangGraph.js's `seen`). */
  readonly #seen = new Set<string>();
  readonly #tasks = new Map<string, TaskInfo>();
  /** Per namespace and node name: the ids of its tasks started and not yet reported. */
  readonly #open = new Map<string, string[]>();
  /** Tasks whose JS node returned (their messages are emitted). */
  readonly #ended = new Set<string>();
  /** The message chunks the run's nodes returned, by id (see `returned`). */
  readonly #chunks = new Map<string, LcMessage>();
  /** Per namespace: how many push tasks (`Send`) of the current superstep started, and whether a result came since. */
  readonly #pushes = new Map<string, { count: number; results: boolean }>();

  constructor(
    emit: (chunk: [LcMessage, Record<string, unknown>], ns: string[]) => void,
    config: unknown,
    nodeMetadata?: ReadonlyMap<string, Record<string, unknown>>,
  ) {
    this.#emit = emit;
    this.#nodeMetadata = nodeMetadata;
    const c = isRecord(config) ? config : {};
    try {
      this.#tags = Array.isArray(c.tags) ? [...(c.tags as unknown[])] : [];
      this.#metadata = runMetadata(c);
    } catch (e) {
      // A config whose getters throw: the run's own reading of it names the mistake the same way.
      throw argumentError(`config: reading it threw ${thrownText(e)}`, e);
    }
  }

  /** A `"debug"` chunk of the run (from namespace `ns`): a starting task's step, triggers and path. */
  debug(debug: unknown, ns: string[] | undefined): void {
    ns ??= [];
    if (!isRecord(debug) || (debug.type !== "task" && debug.type !== "task_result")) return;
    const chunk = debug.payload;
    if (!isRecord(chunk) || typeof chunk.id !== "string") return;
    const level = ns.join("|");
    let pushes = this.#pushes.get(level);
    if (pushes === undefined) this.#pushes.set(level, (pushes = { count: 0, results: false }));
    if (debug.type === "task_result") {
      pushes.results = true;
      return;
    }
    if (pushes.results) {
      pushes.count = 0;
      pushes.results = false;
    }
    const triggers = Array.isArray(chunk.triggers) ? chunk.triggers : [];
    const name = String(chunk.name);
    const push = triggers.length === 1 && triggers[0] === "__pregel_push";
    const path = push ? ["__pregel_push", pushes.count++, false] : ["__pregel_pull", name];
    this.#tasks.set(chunk.id, { name, triggers, path, ns, step: typeof debug.step === "number" ? debug.step : 0 });
    const key = `${level}\u0000${name}`;
    const open = this.#open.get(key);
    if (open === undefined) this.#open.set(key, [chunk.id]);
    else open.push(chunk.id);
    // The messages of its input are seen (LangGraph.js's handleChainStart).
    this.start(chunk.input, isRecord(chunk.input) ? Object.keys(chunk.input) : []);
  }

  /**
   * An `"updates"` chunk (from namespace `ns`), before it is streamed: each
   * node in it whose task is no JS node of this run emits the messages of
   * its update that were instances.
   */
  update(chunk: unknown, ns: string[] | undefined): void {
    if (!isRecord(chunk)) return;
    const level = (ns ?? []).join("|");
    // A task served from the node cache did not run: LangGraph.js streams no message of it.
    const cached = isRecord(chunk.__metadata__) && chunk.__metadata__.cached === true;
    for (const [name, update] of Object.entries(chunk)) {
      const open = this.#open.get(`${level}\u0000${name}`);
      const at = open?.findIndex((id) => !this.#ended.has(id)) ?? -1;
      if (open === undefined || at < 0) continue;
      const [taskId] = open.splice(at, 1);
      const task = this.#tasks.get(taskId!);
      if (task === undefined || !isRecord(update) || cached) continue;
      this.#emitAll(reviveWrittenMessages(update), task, taskId!, task.step);
    }
  }

  /** A node starts: the messages of its input are seen. */
  start(state: unknown, keys: readonly string[]): void {
    if (!isRecord(state)) return;
    for (const key of keys) {
      const value = state[key];
      for (const item of Array.isArray(value) ? value : [value]) {
        if (isMessageInstance(item) && item.id !== undefined && item.id !== null) this.#seen.add(item.id);
      }
    }
  }

  /** A node ended with `output` (what it returned): each message in it not seen yet is emitted. */
  end(taskId: string, step: number, output: unknown): void {
    const task = this.#tasks.get(taskId);
    if (task === undefined) return;
    this.#ended.add(taskId);
    this.#emitAll(output, task, taskId, step);
  }

  /**
   * A chunk of mode `mode` as it is streamed: in an `"updates"` chunk, or a
   * `"tasks"`/`"debug"` task result, a message chunk a node returned (a
   * chat model's streamed reply is an `AIMessageChunk`) in place of the
   * message the engine keeps for it, as LangGraph.js shows what the node
   * returned there (its reducer's state has the message, as here).
   */
  returned(mode: string, chunk: unknown): unknown {
    if (this.#chunks.size === 0 || !isRecord(chunk)) return chunk;
    if (mode === "updates") for (const update of Object.values(chunk)) this.#restore(update);
    else if (mode === "tasks") this.#restore(chunk.result);
    else if (mode === "debug" && chunk.type === "task_result" && isRecord(chunk.payload)) this.#restore(chunk.payload.result);
    return chunk;
  }

  /** The message chunks of one update, put back in its lists (see `returned`). */
  #restore(update: unknown): void {
    if (!isRecord(update)) return;
    for (const value of Object.values(update)) {
      if (!Array.isArray(value)) continue;
      value.forEach((item, i) => {
        const original = isMessageInstance(item) && item.id != null ? this.#chunks.get(item.id) : undefined;
        if (original !== undefined) value[i] = original;
      });
    }
  }

  /** Whether a message of id `id` was seen (in a node's input, or emitted). */
  hasSeen(id: string): boolean {
    return this.#seen.has(id);
  }

  /** A chat model's message, with its run's metadata, from namespace `ns` (stream/messages_of_chat_models.ts): emitted, and seen. */
  chatModel(message: LcMessage, metadata: Record<string, unknown>, ns: string[]): void {
    if (message.id != null) this.#seen.add(message.id);
    this.#emit([message, metadata], ns);
  }

  /**
   * `pushMessage(message)` in task `taskId`: streamed at once, seen or not
   * (LangGraph.js emits it without dedupe), with the metadata of the node's
   * config as LangGraph.js's `pushMessage` passes it (its chunks' metadata
   * without `tags` and `name`).
   */
  push(taskId: string, message: LcMessage): void {
    const task = this.#tasks.get(taskId);
    if (task === undefined) return;
    if (message.id != null) this.#seen.add(message.id);
    const { tags: _tags, name: _name, ...metadata } = this.#meta(task, taskId, task.step);
    this.#emit([message, metadata], task.ns);
  }

  /**
   * Emits the messages of `output` (what a task returned) not seen yet,
   * LangGraph.js's way: a message without an id gets the one LangGraph.js's
   * handler gives it, in place (`run-<run id>-out-<index>`, a ToolMessage
   * `run-<run id>-tool-<tool_call_id>`; the run id is the node's callback
   * run's, here a fresh UUID per node run).
   */
  #emitAll(output: unknown, task: TaskInfo, taskId: string, step: number): void {
    let meta: Record<string, unknown> | undefined;
    let runId: string | undefined;
    let index = 0;
    const emit = (value: unknown) => {
      if (!isMessageInstance(value)) return;
      const at = index++;
      if (value.id != null && /Chunk$/.test(value.constructor.name)) this.#chunks.set(value.id, value);
      if (value.id != null && this.#seen.has(value.id)) return;
      if (value.id == null) {
        runId ??= newMessageId();
        if (runId !== undefined) {
          const toolCall = (value as { tool_call_id?: unknown }).tool_call_id;
          const tool = (value.getType?.() ?? value._getType()) === "tool";
          value.id = tool ? `run-${runId}-tool-${String(toolCall)}` : `run-${runId}-out-${at}`;
          value.lc_kwargs.id = value.id;
        }
      }
      if (value.id != null) this.#seen.add(value.id);
      meta ??= this.#meta(task, taskId, step);
      this.#emit([value, meta], task.ns);
    };
    const emitOutput = (out: unknown): void => {
      if (isRecord(out) && out.lg_name === "Command") emitOutput(out.update);
      else if (isMessageInstance(out)) emit(out);
      else if (Array.isArray(out)) {
        const commands = out.some((v) => isRecord(v) && v.lg_name === "Command");
        for (const v of out) if (commands) emitOutput(v);
        else emit(v);
      } else if (out !== null && typeof out === "object") {
        for (const v of Object.values(out)) if (Array.isArray(v)) emitOutput(v);
        else emit(v);
      }
    };
    emitOutput(output);
  }

  /** The metadata of a task's messages, in LangGraph.js's key order. */
  #meta(task: TaskInfo, taskId: string, step: number): Record<string, unknown> {
    const ns = [...task.ns, `${task.name}:${taskId}`].join("|");
    return {
      tags: [`graph:step:${step}`, ...this.#tags],
      name: task.name,
      ...this.#metadata,
      langgraph_step: step,
      langgraph_node: task.name,
      langgraph_triggers: task.triggers,
      langgraph_path: task.path,
      langgraph_checkpoint_ns: ns,
      checkpoint_ns: ns,
      ...(task.ns.length === 0 ? this.#nodeMetadata?.get(task.name) : undefined),
    };
  }
}
