const which = process.argv[2] ?? "chronograph";
const lg = which === "lg" ? await import("@langchain/langgraph") : await import("chronograph");
const { Pregel, Channel } = which === "lg" ? await import("@langchain/langgraph/pregel") : await import("chronograph/pregel");
const { LastValue, Topic, EphemeralValue, BinaryOperatorAggregate } = which === "lg" ? await import("@langchain/langgraph/channels") : await import("chronograph/channels");
const show = async (label, f) => { try { console.log(label, JSON.stringify(await f())); } catch (e) { console.log(label, "ERR", e.name, JSON.stringify(e.message), e.lc_error_code ?? ""); } };
{
  const chain = Channel.subscribeTo("input").pipe(Channel.writeTo(["output"]));
  const graph = new Pregel({ nodes: { chain }, debug: false, inputChannels: "input", outputChannels: "output", interruptBefore: ["chain"], streamMode: "values", channels: { input: new LastValue(), output: new LastValue() } });
  await show("int", () => graph.invoke("a"));
  await show("resume", () => graph.invoke(new lg.Command({ resume: "hello" })));
}
{
  const one = Channel.subscribeTo("a").pipe((x) => x + x).pipe(Channel.writeTo(["b", "c"]));
  const two = Channel.subscribeTo("b").pipe((x) => x + x).pipe(Channel.writeTo(["c"]));
  const app = new Pregel({ nodes: { one, two }, channels: { a: new EphemeralValue(), b: new EphemeralValue(), c: new Topic({ accumulate: true }) }, inputChannels: ["a"], outputChannels: ["c"] });
  await show("topic", () => app.invoke({ a: "foo" }));
  const chunks = []; for await (const c of await app.stream({ a: "foo" }, { streamMode: ["values", "updates", "debug"] })) chunks.push(c);
  await show("topic-stream", () => chunks.map(([m, c]) => m === "debug" ? [m, c.type, c.payload.name ?? null, c.payload.input ?? null, c.payload.result ?? null] : [m, c]));
}
{
  const a = Channel.subscribeTo("x").pipe(Channel.writeTo(["y"]));
  const b = Channel.subscribeTo("x").pipe(Channel.writeTo(["y"]));
  const app = new Pregel({ nodes: { a, b }, channels: { x: new LastValue(), y: new LastValue() }, inputChannels: "x", outputChannels: "y" });
  await show("double", () => app.invoke(1));
}
{
  const checkpointer = new lg.MemorySaver();
  const one = Channel.subscribeTo(["input"]).join(["total"]).pipe((i) => i.total + i.input).pipe(Channel.writeTo([], { output: (x) => x, total: (x) => x }));
  const app = new Pregel({ nodes: { one }, channels: { total: new BinaryOperatorAggregate((a, b) => a + b, () => 0), input: new LastValue(), output: new LastValue() }, inputChannels: "input", outputChannels: "output", checkpointer });
  const t = { configurable: { thread_id: "1" } };
  await show("ck1", () => app.invoke(2, t));
  await show("ck2", () => app.invoke(3, t));
  await show("state", async () => { const s = await app.getState(t); return [s.values, s.next, s.metadata, s.tasks]; });
  const hist = []; for await (const s of app.getStateHistory(t)) hist.push([s.values, s.next, s.metadata]);
  await show("hist", () => hist);
  await show("cp", async () => { const c = await checkpointer.get(t); return [c.channel_values, c.versions_seen]; });
  await show("upd", async () => { await app.updateState(t, 10, "one"); return (await app.getState(t)).values; });
}
