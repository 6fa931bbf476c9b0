import { StateGraph, Annotation, START, MemorySaver } from "@langchain/langgraph";
import { Pregel, Channel } from "@langchain/langgraph/pregel";
import { LastValue, EphemeralValue } from "@langchain/langgraph/channels";
const g = new StateGraph(Annotation.Root({ a: Annotation() })).addNode("n", () => ({})).addEdge(START, "n").compile({ checkpointer: new MemorySaver() });
try { await g.invoke(null, { configurable: { thread_id: "x" } }); } catch (e) { console.log(e.name, JSON.stringify(e.message)); }
const p = new Pregel({ nodes: { n: Channel.subscribeTo("a").pipe(Channel.writeTo(["b"])) }, channels: { a: new LastValue(), b: new LastValue() }, inputChannels: ["a"], outputChannels: "b" });
try { await p.invoke(null); } catch (e) { console.log(e.name, JSON.stringify(e.message)); }
try { await p.invoke(3); } catch (e) { console.log(e.name, JSON.stringify(e.message)); }
const p2 = new Pregel({ nodes: { n: Channel.subscribeTo("a").pipe(Channel.writeTo(["b"])), m: Channel.subscribeTo("a").pipe(Channel.writeTo(["b"])) }, channels: { a: new LastValue(), b: new EphemeralValue() }, inputChannels: "a", outputChannels: "b" });
try { await p2.invoke(3); } catch (e) { console.log(e.name, JSON.stringify(e.message), e.lc_error_code); }
try { new Pregel({ nodes: { n: Channel.subscribeTo("zz") }, channels: { a: new LastValue() }, inputChannels: "a", outputChannels: "a" }); } catch (e) { console.log(e.name, JSON.stringify(e.message)); }
try { new Pregel({ nodes: { n: Channel.subscribeTo("a") }, channels: { a: new LastValue(), b: new LastValue() }, inputChannels: "b", outputChannels: "a" }); } catch (e) { console.log(e.name, JSON.stringify(e.message)); }
console.log(await p.invoke({a: 5, zz: 1}));
