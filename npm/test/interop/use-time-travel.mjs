// LangGraph.js's docs page "Use time-travel"
// (docs.langchain.com/oss/javascript/langgraph/use-time-travel), its
// program on a persistent saver: the joke graph run, a replay from the
// checkpoint before `writeJoke`, a fork of it with `updateState`; then the
// page's interrupts (a replay re-fires an `interrupt`, a resume answers it),
// here a node asking for a name, answered, then answered again differently
// from the checkpoint before it. Every streamed chunk, each `getState`
// and the whole `getStateHistory` are recorded and returned.
//
// The saver import below is the one line use-time-travel.test.mjs changes
// (to `chronograph/langgraph`'s SqliteSaver or PostgresSaver, or
// LangGraph.js's PostgresSaver); the rest runs as written.
import { SqliteSaver as Saver } from "@langchain/langgraph-checkpoint-sqlite";
import { Annotation, Command, START, StateGraph, interrupt } from "@langchain/langgraph";

/** Runs the page's program on the saver at `connString`: what it printed, as data, and the saver (to close). */
export default async function useTimeTravel(connString) {
  const out = [];
  const checkpointer = Saver.fromConnString(connString);
  // PostgresSaver's tables (SqliteSaver makes its own).
  await checkpointer.setup?.();

  const StateAnnotation = Annotation.Root({
    topic: Annotation(),
    joke: Annotation(),
    greetings: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const generateTopic = () => ({ topic: "socks in the dryer" });
  const writeJoke = (state) => ({ joke: `Why do ${state.topic} disappear? They elope!` });
  const graph = new StateGraph(StateAnnotation)
    .addNode("generateTopic", generateTopic)
    .addNode("writeJoke", writeJoke)
    .addEdge(START, "generateTopic")
    .addEdge("generateTopic", "writeJoke")
    .compile({ checkpointer });

  const stream = async (name, input, config) => {
    for await (const chunk of await graph.stream(input, { ...config, streamMode: ["values", "updates"] })) out.push([name, chunk]);
    out.push([`${name}: getState`, await graph.getState(config)]);
  };
  const history = async (config) => {
    const states = [];
    for await (const state of graph.getStateHistory(config)) states.push(state);
    return states;
  };

  // Run the graph.
  const config = { configurable: { thread_id: "joke" } };
  await stream("run", {}, config);
  // Replay: from the checkpoint before writeJoke.
  const beforeJoke = (await history(config)).find((s) => s.next.includes("writeJoke"));
  await stream("replay", null, beforeJoke.config);
  // Fork: the same checkpoint with another topic.
  const forkConfig = await graph.updateState(beforeJoke.config, { topic: "chickens" });
  out.push(["fork: updateState", forkConfig]);
  await stream("fork", null, forkConfig);
  out.push(["history", await history(config)]);

  // Interrupts: a node that asks, answered; then the same question from the checkpoint before it, answered again.
  const askHuman = () => {
    const name = interrupt("What is your name?");
    return { greetings: [`Hello, ${name}!`] };
  };
  const hitl = new StateGraph(StateAnnotation)
    .addNode("askHuman", askHuman)
    .addNode("writeJoke", writeJoke)
    .addEdge(START, "askHuman")
    .addEdge("askHuman", "writeJoke")
    .compile({ checkpointer });
  const hitlConfig = { configurable: { thread_id: "greeting" } };
  const hitlStream = async (name, input, config) => {
    for await (const chunk of await hitl.stream(input, { ...config, streamMode: ["values", "updates"] })) out.push([name, chunk]);
    out.push([`${name}: getState`, await hitl.getState(config)]);
  };
  await hitlStream("ask", { topic: "names" }, hitlConfig);
  await hitlStream("answer", new Command({ resume: "Alice" }), hitlConfig);
  const states = [];
  for await (const state of hitl.getStateHistory(hitlConfig)) states.push(state);
  // The run's input checkpoint: askHuman runs again and asks again.
  const beforeAsk = states.find((s) => s.metadata.source === "input");
  await hitlStream("replay the question", null, beforeAsk.config);
  await hitlStream("answer again", new Command({ resume: "Bob" }), hitlConfig);
  const all = [];
  for await (const state of hitl.getStateHistory(hitlConfig)) all.push(state);
  out.push(["greeting history", all]);
  return { out, checkpointer };
}
