#!/usr/bin/env python3
"""Run a conformance scenario (shared/conformance/FORMAT.md) on LangGraph Python and
print the normalized trace as JSON. Used to produce the expected traces."""
import json, operator, re, sys
from typing import Annotated, Any, Optional, TypedDict

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage, RemoveMessage, BaseMessage, messages_from_dict
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.channels.untracked_value import UntrackedValue
from langgraph.types import Command, Send, StateSnapshot, interrupt
from langgraph.errors import NodeError

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
REDUCERS = {"append": operator.add, "sum": operator.add, "add_messages": add_messages}
MSG = {"human": HumanMessage, "ai": AIMessage, "system": SystemMessage}

LAST = {}  # set by run(): graph, thread, labels (root cid -> cN), slabels ((ns, cid) -> sN)

class ScenarioError(Exception):
    """A mistake in the scenario itself (not a LangGraph outcome): aborts the run."""

def to_msg(d):
    if isinstance(d, BaseMessage):
        return d
    if d["type"] == "remove": return RemoveMessage(id=d["id"])
    kw = {"content": d["content"]}
    if "id" in d: kw["id"] = d["id"]
    if d["type"] == "tool": return ToolMessage(content=d["content"], tool_call_id=d.get("tool_call_id", "t"), **({"id": d["id"]} if "id" in d else {}))
    return MSG[d["type"]](**kw)

def norm(v):
    if isinstance(v, BaseMessage):
        out = {"type": v.type, "content": v.content}
        if v.id and not UUID.match(v.id): out["id"] = v.id
        return out
    if isinstance(v, dict): return {k: norm(x) for k, x in sorted(v.items())}
    if isinstance(v, (list, tuple)): return [norm(x) for x in v]
    return v

def strip_ns(ns):
    """checkpoint_ns without task ids: 'outer:<id>|inner:<id>' -> 'outer|inner'."""
    return "|".join(part.split(":")[0] for part in ns.split("|"))

def msg_channels(gspec):
    return {c for c, s in gspec["channels"].items() if s.get("reducer") == "add_messages"}

def build_graph(gspec, root, parent_msg=frozenset()):
    chans = gspec["channels"]
    msg_chans = msg_channels(gspec)
    ann = {}
    for c, s in chans.items():
        r = s.get("reducer", "last_value")
        if r == "untracked":  # extensions/FORMAT.md, "UntrackedValue"
            ann[c] = Annotated[Any, UntrackedValue(Any, guard=s.get("guard", True))]
        else:
            ann[c] = Annotated[Any, REDUCERS[r]] if r != "last_value" else Any
    State = TypedDict("State", ann, total=False)

    def make(name, ops, handler=False):
        # `state` is what the node was given: the graph state, or a Send's argument.
        # Extension: an error handler (handler=True) is also given the failure, `error`.
        def fn(state, error=None):
            out, goto, to_parent = {}, None, False
            for op in ops:
                if "goto" in op:
                    goto, to_parent = op["goto"], op.get("graph") == "parent"
            target_msg = parent_msg if to_parent else msg_chans
            for op in ops:
                if "set" in op:
                    for c, v in op["set"].items():
                        out[c] = [to_msg(m) for m in v] if c in target_msg else v
                elif "reply" in op:
                    c = op["reply"]; last = state[c][-1]
                    out[c] = [AIMessage(op.get("prefix", "") + last.text)]
                elif "incr" in op:
                    c = op["incr"]; out[c] = (state.get(c) or 0) + op.get("by", 1)
                elif "collect" in op:
                    out[op["collect"]] = [op.get("prefix", "") + str(state.get(op["from"]))]
                elif "interrupt" in op:
                    ans = interrupt(op["interrupt"])
                    out[op["resume_to"]] = ans
                elif "fail_if" in op:
                    c, v = op["fail_if"]["channel"], op["fail_if"]["equals"]
                    if state.get(c) == v: raise RuntimeError(f"node {name} failed")
                elif "goto" in op:
                    pass
                elif "error_to" in op:
                    # Extension: the failed node and its error, "NODE: MESSAGE".
                    if error is None: raise ScenarioError(f"error_to outside an error handler: {op}")
                    out[op["error_to"]] = f"{error.node}: {error.error}"
                else:
                    raise ScenarioError(f"unknown op {op}")
            if goto is not None:
                return Command(update=out, goto=goto, graph=Command.PARENT if to_parent else None)
            return out
        fn.__name__ = name
        if handler:
            def handle(state, error: NodeError):
                return fn(state, error)
            handle.__name__ = name
            return handle
        def node(state):
            return fn(state)
        node.__name__ = name
        return node

    b = StateGraph(State)
    for n, nd in gspec["nodes"].items():
        # Extension (extensions/FORMAT.md): "defer": true is add_node(..., defer=True);
        # "error_handler": {"writes": [...]} is add_node(..., error_handler=...).
        if set(nd) - {"writes", "subgraph", "defer", "error_handler"}:
            raise ScenarioError(f"unknown node fields: {nd}")
        if "defer" in nd and not isinstance(nd["defer"], bool):
            raise ScenarioError(f"defer must be true or false: {nd}")
        kw = {"defer": True} if nd.get("defer") else {}
        if "error_handler" in nd:
            if set(nd["error_handler"]) - {"writes"}:
                raise ScenarioError(f"an error handler has writes only: {nd}")
            kw["error_handler"] = make(f"__error_handler__{n}", nd["error_handler"].get("writes", []), handler=True)
        if "subgraph" in nd:
            b.add_node(n, build_graph(nd["subgraph"], False, frozenset(msg_chans)), **kw)
        else:
            b.add_node(n, make(n, nd.get("writes", [])), **kw)
    ends = {"__start__": START, "__end__": END}
    for e in gspec.get("edges", []):
        src = [ends.get(x, x) for x in e[0]] if isinstance(e[0], list) else ends.get(e[0], e[0])
        b.add_edge(src, ends.get(e[1], e[1]))
    for ce in gspec.get("conditional_edges", []):
        if "send" in ce:
            s = ce["send"]
            def fan_out(state, to=s["to"], each=s["each"], key=s["key"]):
                return [Send(to, {key: x}) for x in (state.get(each) or [])]
            b.add_conditional_edges(ends.get(ce["from"], ce["from"]), fan_out)
            continue
        rules = ce["when"]; default = ce["else"]
        def route(state, rules=rules, default=default):
            for r in rules:
                c, cond = r["if"]["channel"], r["if"]
                val = state.get(c)
                if isinstance(val, list): val = len(val)
                if "lt" in cond and val is not None and val < cond["lt"]: return r["to"]
                if "eq" in cond and val == cond["eq"]: return r["to"]
            return default
        targets = sorted({r["to"] for r in rules} | {default})
        b.add_conditional_edges(ends.get(ce["from"], ce["from"]), route, {t: ends.get(t, t) for t in targets})
    # Extension: "default_error_handler": {"writes": [...]} is set_node_defaults(error_handler=...).
    if "default_error_handler" in gspec:
        b.set_node_defaults(error_handler=make("__default_error_handler__", gspec["default_error_handler"].get("writes", []), handler=True))
    comp = gspec.get("compile", {})
    if not root:
        # a subgraph has no checkpointer of its own: it inherits the parent's.
        # Extension (FORMAT-extension.md): "checkpointer": true compiles it with
        # checkpointer=True, a persistent subgraph whose state outlives the parent's runs.
        if set(comp) - {"interrupt_before", "interrupt_after", "checkpointer"}:
            raise ScenarioError(f"subgraph compile takes only interrupt_before/interrupt_after/checkpointer: {comp}")
        if "checkpointer" in comp and comp["checkpointer"] is not True:
            raise ScenarioError(f"subgraph compile takes only \"checkpointer\": true: {comp}")
        kw = {"checkpointer": True} if comp.get("checkpointer") is True else {}
        return b.compile(interrupt_before=comp.get("interrupt_before"), interrupt_after=comp.get("interrupt_after"), **kw)
    return b.compile(checkpointer=None if comp.get("checkpointer") is False else InMemorySaver(),
                     interrupt_before=comp.get("interrupt_before"), interrupt_after=comp.get("interrupt_after"))

def build(spec):
    return build_graph(spec["graph"], True)

def run(spec):
    g = build(spec)
    thread = {"configurable": {"thread_id": spec.get("thread_id", "t1")}}
    labels, saved, trace = {}, {}, []
    slabels = {}  # (full checkpoint_ns, checkpoint_id) -> "sN"

    def label(cid):
        return labels[cid]
    def cfg_label(cfg):
        c = cfg["configurable"]; ns = c.get("checkpoint_ns", "")
        if not c.get("checkpoint_id"): return None
        return slabels[(ns, c["checkpoint_id"])] if ns else labels[c["checkpoint_id"]]
    def relabel():
        try: hist = list(g.get_state_history(thread))
        except Exception: return []
        for cid in sorted(s.config["configurable"]["checkpoint_id"] for s in hist):
            if cid not in labels: labels[cid] = f"c{len(labels)}"
        relabel_sub(hist)
        return hist
    def relabel_sub(root_hist):
        # Subgraph checkpoints: s0, s1, ... New ones are ordered by where they sit:
        # the parent checkpoint whose task ran the subgraph, that task's index, then
        # creation order inside the namespace. Sequential runs give creation order;
        # subgraph instances that run in one superstep are ordered by task index.
        saver = g.checkpointer
        if not isinstance(saver, InMemorySaver): return
        new = [(t.config["configurable"]["checkpoint_ns"], t.config["configurable"]["checkpoint_id"])
               for t in saver.list({"configurable": {"thread_id": thread["configurable"]["thread_id"]}})]
        new = [k for k in new if k[0] and k not in slabels]
        if not new: return
        hists = {"": root_hist}
        def hist_of(ns):
            if ns not in hists:
                hists[ns] = list(g.get_state_history({"configurable": {**thread["configurable"], "checkpoint_ns": ns}}))
            return hists[ns]
        paths = {"": ()}
        def path(ns):
            if ns not in paths:
                parent_ns, _, last = ns.rpartition("|")
                tid = last.split(":", 1)[1]
                found = [(s.config["configurable"]["checkpoint_id"], i) for s in hist_of(parent_ns)
                         for i, t in enumerate(s.tasks) if t.id == tid]
                if not found: raise ScenarioError(f"no parent task for namespace {ns}")
                pcid, idx = found[0]
                paths[ns] = key(parent_ns, pcid)[:-1] + (pcid, idx)
            return paths[ns]
        def key(ns, cid):
            # sort key of one subgraph checkpoint: (root cid, task index, ..., its own cid)
            if not ns: return (cid,)
            parent_ns, _, last = ns.rpartition("|")
            if ":" in last:
                return path(ns) + (cid,)
            # Extension: a checkpointer=True subgraph's namespace has no task ids at all
            # ("mem", "outer|mem") and holds the checkpoints of every run of it. Each
            # checkpoint sits after the parent-namespace checkpoint its metadata "parents"
            # names (the parents key whose task-id-free form is this namespace's parent
            # part), at the index of the task named after the node there (0 if none); without
            # one it sits by its own id among the root checkpoints.
            tup = saver.get_tuple({"configurable": {**thread["configurable"], "checkpoint_ns": ns, "checkpoint_id": cid}})
            parents = ((tup.metadata or {}).get("parents") or {}) if tup else {}
            pns = [k for k in parents if strip_ns(k) == strip_ns(parent_ns)] if parent_ns else [""] if "" in parents else []
            if not pns: return (cid,)
            pns, pcid = pns[0], parents[pns[0]]
            try:
                idx = [i for s in hist_of(pns) if s.config["configurable"]["checkpoint_id"] == pcid
                       for i, t in enumerate(s.tasks) if t.name == last]
                return key(pns, pcid)[:-1] + (pcid, idx[0] if idx else 0, cid)
            except ScenarioError:
                return (cid,)
        for k in sorted(new, key=lambda k: key(*k)):
            slabels[k] = f"s{len(slabels)}"
    def entry(s):
        c = s.config["configurable"]; ns = c.get("checkpoint_ns", "")
        e = {"id": cfg_label(s.config)}
        if ns: e["ns"] = strip_ns(ns)
        e.update({"parent": cfg_label(s.parent_config) if s.parent_config else None,
                  "step": s.metadata["step"] if s.metadata is not None else None,
                  "source": s.metadata["source"] if s.metadata is not None else None,
                  "next": list(s.next), "values": norm(s.values), "tasks": []})
        for t in s.tasks:
            te = {"name": t.name, "interrupts": [norm(i.value) for i in t.interrupts]}
            if isinstance(t.state, StateSnapshot): te["state"] = entry(t.state)
            e["tasks"].append(te)
        return e
    def select(sel):
        if sel is None: return thread
        if "saved" in sel: return saved[sel["saved"]]
        if "task_state" in sel:  # get_state(at, subgraphs=True).tasks[name].state.config
            ts = sel["task_state"]
            snap = g.get_state(select(ts.get("at")), subgraphs=True)
            for t in snap.tasks:
                if t.name == ts["task"] and isinstance(t.state, StateSnapshot):
                    if not t.state.config["configurable"].get("checkpoint_id"):
                        raise ScenarioError(f"subgraph task {ts['task']} has no checkpoint yet: {sel}")
                    return t.state.config
            raise ScenarioError(f"no subgraph task {ts['task']} in {sel}")
        if "task_ns" in sel:  # get_state(at).tasks[name].state: the namespace, no checkpoint id
            ts = sel["task_ns"]
            snap = g.get_state(select(ts.get("at")))
            for t in snap.tasks:
                if t.name == ts["task"] and isinstance(t.state, dict):
                    return t.state
            raise ScenarioError(f"no subgraph task {ts['task']} in {sel}")
        hist = relabel()
        if "index" in sel: return hist[sel["index"]].config
        if "label" in sel:
            if sel["label"].startswith("s"):
                inv = {v: k for k, v in slabels.items()}
                ns, cid = inv[sel["label"]]
                # the config LangGraph gives this checkpoint's snapshot (checkpoint_map included)
                cfg = {"configurable": {**thread["configurable"], "checkpoint_ns": ns, "checkpoint_id": cid}}
                parents = g.checkpointer.get_tuple(cfg).metadata.get("parents") or {}
                cfg["configurable"]["checkpoint_map"] = {**parents, ns: cid}
                return cfg
            inv = {v: k for k, v in labels.items()}
            return {"configurable": {**thread["configurable"], "checkpoint_ns": "", "checkpoint_id": inv[sel["label"]]}}
        if "checkpoint_id" in sel:
            return {"configurable": {**thread["configurable"], "checkpoint_ns": "", "checkpoint_id": sel["checkpoint_id"]}}
        raise ValueError(sel)
    def graph_spec(cfg):
        gs = spec["graph"]
        ns = cfg["configurable"].get("checkpoint_ns", "") if cfg else ""
        if ns:
            for name in strip_ns(ns).split("|"):
                nd = gs["nodes"].get(name, {})
                if "subgraph" not in nd: return gs
                gs = nd["subgraph"]
        return gs
    def inp(v, cfg=None):
        if v is None: return None
        mc = msg_channels(graph_spec(cfg))
        return {c: ([to_msg(m) for m in x] if c in mc else x) for c, x in v.items()}

    def result(out):
        # the state values, plus "__interrupt__": [VALUE, ...] when the run paused on interrupt() calls
        res = norm({k: v for k, v in out.items() if k != "__interrupt__"})
        if out.get("__interrupt__"): res["__interrupt__"] = [norm(i.value) for i in out["__interrupt__"]]
        return res

    for op in spec["ops"]:
        rec = {"op": op["op"]}
        # Extension: "durability" on invoke/resume is passed to graph.invoke(..., durability=...)
        dur = {}
        if "durability" in op:
            if op["op"] not in ("invoke", "resume") or op["durability"] not in ("sync", "async", "exit"):
                raise ScenarioError(f"durability is sync|async|exit, on invoke and resume only: {op}")
            dur = {"durability": op["durability"]}
        try:
            if op["op"] == "invoke":
                out = g.invoke(inp(op.get("input")), select(op.get("at")), **dur)
                rec["result"] = result(out)
            elif op["op"] == "resume":
                out = g.invoke(Command(resume=op["value"]), select(op.get("at")), **dur)
                rec["result"] = result(out)
            elif op["op"] == "update_state":
                at = select(op.get("at"))
                cfg = g.update_state(at, inp(op.get("values"), at), as_node=op.get("as_node"))
                if "save" in op: saved[op["save"]] = cfg
                relabel(); rec["checkpoint"] = cfg_label(cfg)
            elif op["op"] == "get_state":
                at = select(op.get("at"))
                snap = g.get_state(at, subgraphs=True) if op.get("subgraphs") else g.get_state(at)
                relabel(); rec["snapshot"] = entry(snap)
            elif op["op"] == "history":
                if "subgraphs" in op: raise ScenarioError("history takes no subgraphs flag")
                relabel()
                kw = {}
                if "limit" in op: kw["limit"] = op["limit"]
                if "before" in op: kw["before"] = select(op["before"])
                if "filter" in op: kw["filter"] = op["filter"]
                rec["history"] = [entry(s) for s in g.get_state_history(select(op.get("at")), **kw)]
            else:
                raise ValueError(op)
            if "expect_error" in op: rec["error"] = None
        except ScenarioError:
            raise
        except Exception as e:
            rec["error"] = f"{type(e).__name__}: {e}"
        relabel()
        trace.append(rec)
    # for probes (probes/saver_dump.py): the graph and the labels of this run
    LAST.clear(); LAST.update(graph=g, thread=thread, labels=dict(labels), slabels=dict(slabels))
    return {"name": spec["name"], "trace": trace}

if __name__ == "__main__":
    spec = json.load(open(sys.argv[1]))
    print(json.dumps(run(spec), ensure_ascii=False, indent=1))
