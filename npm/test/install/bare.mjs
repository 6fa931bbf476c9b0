// An application that installed the package and none of its optional peers
// (install.test.mjs): each use of a peer fails, and the error says which
// package to install. Prints one error message a line.
import { END, MessagesAnnotation, START, StateGraph } from "chronograph";

/** What a LangChain message instance carries (@langchain/core's brand and fields), here without @langchain/core. */
class HumanMessage {
  constructor(content) {
    this[Symbol.for("langchain.message")] = true;
    this.lc_serializable = true;
    this.lc_kwargs = { content };
    this.lc_namespace = ["langchain_core", "messages"];
    this.type = "human";
    this.content = content;
  }
  _getType() {
    return "human";
  }
}

async function error(fn) {
  try {
    await fn();
    return "no error";
  } catch (e) {
    return `${e.name}: ${e.message}`.replaceAll("\n", " ");
  }
}

const graph = new StateGraph(MessagesAnnotation).addNode("agent", () => ({})).addEdge(START, "agent").addEdge("agent", END).compile();
console.log(await error(() => graph.invoke({ messages: [new HumanMessage("hi")] })));
const { MemorySaver, SqliteSaver } = await import("chronograph/langgraph");
console.log(await error(() => SqliteSaver.fromConnString(":memory:")));
console.log(await error(() => new MemorySaver()));
