const lg = await import(process.argv[2]);
const { StateGraph, Annotation, START, END, Command, MemorySaver } = lg;
const S = Annotation.Root({ a: Annotation() });
const show = (e) => ({ name: e?.name, ctor: e?.constructor?.name, msg: String(e?.message).slice(0, 200), code: e?.lc_error_code, bub: lg.isGraphBubbleUp?.(e), inst: lg.GraphBubbleUp ? e instanceof lg.GraphBubbleUp : "-" , cmd: e?.command && JSON.stringify(e.command)});
try { new StateGraph({ foo: "bar" }); console.log("no throw") } catch (e) { console.log("badinput", show(e)) }
try { new StateGraph(42); console.log("no throw 42") } catch (e) { console.log("badinput42", show(e)) }
try { new StateGraph(); console.log("no throw none") } catch (e) { console.log("badinputnone", show(e)) }
const g = new StateGraph(S).addNode("n", () => new Command({ graph: Command.PARENT, update: { a: 1 } })).addEdge(START, "n").compile();
try { await g.invoke({ a: 0 }); console.log("no throw parent") } catch (e) { console.log("parent", show(e)) }
const g2 = new StateGraph(S).addNode("n", () => { lg.interrupt(1) }).addEdge(START, "n").compile({checkpointer: new MemorySaver()});
const g3 = new StateGraph(S).addNode("sub", g2).addEdge(START, "sub").compile({checkpointer: new MemorySaver()});
const r = await g3.invoke({a:0}, {configurable:{thread_id:"t"}}); console.log("res", JSON.stringify(r));
// catch interrupt inside node
const g4 = new StateGraph(S).addNode("n", () => { try { lg.interrupt(1) } catch (e) { console.log("caught in node", show(e)); throw e } }).addEdge(START, "n").compile({checkpointer: new MemorySaver()});
await g4.invoke({a:0}, {configurable:{thread_id:"t"}});
// child parent command caught in node calling subgraph
const child = new StateGraph(S).addNode("c", () => new Command({ graph: Command.PARENT, goto: "other", update: {a: 5} })).addEdge(START, "c").compile();
const parent = new StateGraph(S).addNode("p", async (s, config) => { try { return await child.invoke(s, config) } catch (e) { console.log("caught parentcmd", show(e)); throw e } }, {ends: ["other"]}).addNode("other", (s) => ({a: s.a + 1})).addEdge(START, "p").compile();
try { console.log("parent result", JSON.stringify(await parent.invoke({a:0}))) } catch(e) { console.log("parent threw", show(e)) }
