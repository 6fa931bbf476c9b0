#!/usr/bin/env python3
"""A variant of the oracle's gen_random2.py (subgraphs, Send, Command goto, interrupt/resume,
the subgraph selectors) that draws more often the combinations LangGraph's traces once differed
on (issue 27):
- collisions: a superstep in which two parallel tasks write one last_value channel while a
  third task (or one of them) calls interrupt();
- messages inside subgraphs: an add_messages channel that subgraphs share and whose inner
  nodes reply to or add messages;
- joins over list channels: waiting edges ([a, b] -> c) whose sources append to an
  operator.add channel.
A development tool only: the build and the tests never run Python. It needs the oracle tools
(lg_golden.py) of the shared conformance folder: set LG_ORACLE_TOOLS to that folder, and run it
with a virtual environment that has langgraph==1.2.22 (see tests/conformance/regressions/README.md).

usage: gen_random3.py SEED COUNT OUTDIR  -> OUTDIR/scenarios/rand_SEED.json + OUTDIR/expected/rand_SEED.json
       gen_random3.py --coverage OUTDIR  -> feature counts over OUTDIR's scenarios and traces

Each op is chosen knowing the thread as it stands after the ops before it (root labels cN,
subgraph labels sN with their namespaces, pending interrupts, which tasks run subgraphs); an op
whose selector does not resolve (lg_golden raises ScenarioError), or that fails with an error
kind not worth keeping, or that pauses on interrupts of parallel tasks (LangGraph lists those in
the order its threads finish), is replaced by another. Each kept scenario's trace is produced in
this process and again in two fresh interpreters with other hash seeds; the scenario is dropped
when any two differ. Seeds whose scenario is dropped are skipped (the next seed is tried); the
counts of drops and re-chosen ops, by reason, are printed at the end.
Needs langgraph==1.2.22 (see FORMAT.md); run it with that venv's python."""
import copy, json, logging, os, random, subprocess, sys, tempfile
from collections import Counter

HERE = os.environ.get("LG_ORACLE_TOOLS") or os.path.dirname(os.path.abspath(__file__))
if not os.path.exists(os.path.join(HERE, "lg_golden.py")):
    sys.exit("gen_random3.py: set LG_ORACLE_TOOLS to the folder that holds lg_golden.py")
sys.path.insert(0, HERE)
import lg_golden

# Capture the compiled graph of each lg_golden.run, to count checkpoints in its saver.
_last_graph = []
_orig_build = lg_golden.build
def _capturing_build(spec):
    g = _orig_build(spec)
    _last_graph[:] = [g]
    return g
lg_golden.build = _capturing_build

REDS = ["last_value", "append", "sum"]
KEEP_ERRORS = ("InvalidUpdateError", "EmptyInputError", "ValueError", "RuntimeError")
NOT_SHARED = ("loops", "iloops")  # loop counters stay private to their graph
logging.getLogger("langgraph").setLevel(logging.ERROR)  # "wrote to unknown channel branch:to:nowhere"

# last_value channels hold either numbers (set to ints, incr) or strings (set to node names, resume
# values, "x" for fail_if), so that no op adds an int to a string. Decided per channel name, per scenario.
FLAV = {}
def is_num(r, c):
    if c in ("loops", "iloops", "wp"): return True
    if c not in FLAV: FLAV[c] = r.random() < 0.5
    return FLAV[c]

def str_chans(r, chans):
    return [c for c, s in chans.items() if s["reducer"] == "last_value" and c not in NOT_SHARED + ("items", "item")
            and not is_num(r, c)]

# ---------------------------------------------------------------- graphs

def usual_op(r, node, chans):
    """set / incr / reply on one of this graph's channels (the ops gen_random.py uses)."""
    cs = [c for c in chans if c not in NOT_SHARED and c not in ("items",)]
    c = r.choice(cs)
    red = chans[c]["reducer"]
    if red == "add_messages":
        return r.choice([{"reply": c, "prefix": node + ": "}, {"set": {c: [{"type": "ai", "content": node}]}}])
    if red == "append":
        return {"set": {c: [node]}}
    if red == "sum":
        return {"set": {c: r.randint(1, 9)}}
    if is_num(r, c):
        return r.choice([{"set": {c: r.randint(0, 5)}}, {"incr": c, "by": r.randint(1, 3)}])
    return {"set": {c: node}}


def rand_graph(r, level, chans, feats):
    """A graph at nesting level `level` (0 = root) over the channels `chans` (mutated:
    channels may be added). Returns the graph spec."""
    pre = ["n", "i", "d"][level]
    k = r.randint(2, 6) if level == 0 else r.randint(2, 4) if level == 1 else r.randint(2, 3)
    # Send worker
    worker = None
    if r.random() < (0.45 if level == 0 else 0.12 if level == 1 else 0.0):
        worker = ["work", "iwork"][level]
        k = max(k - 1, 1)
    names = [f"{pre}{i}" for i in range(k)]
    # which nodes are subgraphs
    sub_names = []
    if level < 2:
        p_sub = feats["p_sub"] if level == 0 else 0.3
        if r.random() < p_sub:
            n_sub = 2 if (level == 0 and k >= 3 and r.random() < 0.2) else 1
            idx = r.sample(range(k), n_sub)
            for j, ix in enumerate(sorted(idx)):
                names[ix] = ["sub", "deep"][level] + (str(j) if n_sub > 1 else "")
                sub_names.append(names[ix])
    order = names[:]
    r.shuffle(order)
    # DAG over `order` (as gen_random.py)
    edges = [["__start__", order[0]]]
    for i, n in enumerate(order[1:], 1):
        preds = r.sample(order[:i], k=min(i, r.choice([1, 1, 1, 2])))
        if len(preds) == 1 and i >= 2 and r.random() < feats["p_join"]:
            preds = r.sample(order[:i], 2)
        if len(preds) == 2 and r.random() < max(0.5, feats["p_join"]):
            edges.append([preds, n])
        else:
            for p in preds:
                edges.append([p, n])
        if r.random() < 0.15:
            edges.append(["__start__", n])
    cond = []
    # optional Send fan-out
    if worker:
        if "items" not in chans:
            chans["items"] = {"reducer": "last_value"}
        if "results" not in chans:
            chans["results"] = {"reducer": "append"}
        src = r.choice(order)
        si = order.index(src)
        cond.append({"from": src, "send": {"to": worker, "each": "items", "key": "item"}})
        after = order[si + 1:]
        edges.append([worker, r.choice(after) if after and r.random() < 0.6 else "__end__"])
    has_out = {x for e in edges for x in (e[0] if isinstance(e[0], list) else [e[0]])}
    for n in order:
        if n not in has_out:
            edges.append([n, "__end__"])
    # optional bounded loop
    loop_node = None
    if r.random() < (0.3 if level == 0 else 0.1) and order[-1] not in sub_names:
        # the node that loops back increments the counter, so it must be a plain node
        lc = "loops" if level == 0 else "iloops"
        chans[lc] = {"reducer": "last_value"}
        loop_node = order[-1]
        edges = [e for e in edges if not (e[0] == loop_node and e[1] == "__end__")]
        cond.append({"from": loop_node, "when": [{"if": {"channel": lc, "lt": r.randint(2, 3)}, "to": order[0]}],
                     "else": "__end__"})
    # nodes
    nodes = {}
    for pos, n in enumerate(order):
        if n in sub_names:
            nodes[n] = {"subgraph": None}  # filled below, once this graph's channels are final
            continue
        ws = [usual_op(r, n, chans) for _ in range(r.randint(0, 2))]
        if n == loop_node:
            ws.append({"incr": "loops" if level == 0 else "iloops", "by": 1})
        # Send source writes the list it fans out over
        if worker and any(c.get("from") == n and "send" in c for c in cond) and r.random() < 0.75:
            ws.append({"set": {"items": [r.choice("abcxyz") + str(r.randint(0, 9)) for _ in range(r.randint(1, 3))]}})
        if r.random() < feats["p_intr"] / (1 + level * 0.5):
            lv = str_chans(r, chans)
            if not lv or r.random() < 0.5:  # its own channel, so parallel interrupts do not collide
                lv = [f"a_{n}"]
                chans[lv[0]] = {"reducer": "last_value"}; FLAV[lv[0]] = False
            ws.insert(r.randint(0, len(ws)), {"interrupt": f"ask {n}?", "resume_to": r.choice(lv)})
        if r.random() < feats["p_goto"]:
            fwd = [x for x in order[pos + 1:]]
            wnext = [e[1] for e in edges if e[0] == worker]
            if worker and r.random() < 0.15 and all(x == "__end__" or x in fwd for x in wnext):
                fwd.append(worker)  # a goto to the Send worker gives it the whole state (no cycle back)
            x = r.random()
            if x < 0.12 or not fwd:
                t = "__end__"
            elif x < 0.17:
                t = "nowhere"
            elif x < 0.35 and len(fwd) >= 2:
                t = r.sample(fwd, 2)
            else:
                t = r.choice(fwd)
            ws.append({"goto": t})
        if r.random() < 0.04:
            lv = str_chans(r, chans)
            if lv:
                ws.append({"fail_if": {"channel": r.choice(lv), "equals": "x"}})
        nodes[n] = {"writes": ws}
    add_collision(r, order, sub_names, edges, nodes, chans, feats)
    add_join_appends(r, edges, nodes, chans, feats)
    if worker:
        if level < 2 and r.random() < 0.5:
            wch = {"item": {"reducer": "last_value"}, "results": {"reducer": "append"}}
            if r.random() < 0.5:
                wch["wp"] = {"reducer": r.choice(["last_value", "sum"])}
            inner = ["w0"] + (["w1"] if r.random() < 0.5 else [])
            wn = {"w0": {"writes": [{"collect": "results", "from": "item", "prefix": "sub:"}]}}
            if "wp" in wch:
                wn["w0"]["writes"].append({"incr": "wp", "by": 1})
            wedges = [["__start__", "w0"]]
            if len(inner) > 1:
                wn["w1"] = {"writes": [{"collect": "results", "from": "item", "prefix": "again:"}]}
                wedges += [["w0", "w1"], ["w1", "__end__"]]
            else:
                wedges.append(["w0", "__end__"])
            nodes[worker] = {"subgraph": {"channels": wch, "nodes": wn, "edges": wedges}}
        else:
            ws = [{"collect": "results", "from": "item", "prefix": worker + ":"}]
            sums = [c for c, s in chans.items() if s["reducer"] == "sum"]
            if sums and r.random() < 0.5:
                ws.append({"incr": r.choice(sums), "by": 1})
            nodes[worker] = {"writes": ws}
    # subgraph nodes: share some of this graph's channels, keep some private
    for n in sub_names:
        shareable = [c for c in chans if c not in NOT_SHARED]
        shared = r.sample(shareable, r.randint(1, min(len(shareable), 3)))
        msgs = [c for c in shareable if chans[c]["reducer"] == "add_messages"]
        if msgs and msgs[0] not in shared and r.random() < feats["p_sub_msgs"]:
            shared.append(msgs[0])
        sch = {c: dict(chans[c]) for c in shared}
        for j in range(r.choice([0, 1, 1, 2]) if set(shared) - {"items"} else r.choice([1, 2])):
            sch[["p", "q"][level] + str(j)] = {"reducer": r.choice(REDS)}
        sub = rand_graph(r, level + 1, sch, feats)
        add_sub_messages(r, sub, feats)
        # goto the parent graph from one inner node (only meaningful with a parent node after n)
        if r.random() < feats["p_goto_parent"]:
            inner = [x for x, nd in sub["nodes"].items() if "writes" in nd and not x.endswith("work")
                     and not any("goto" in op for op in nd["writes"])]
            if inner:
                pos = order.index(n)
                fwd = order[pos + 1:]
                t = r.choice(fwd) if fwd and r.random() < 0.85 else "__end__"
                sub["nodes"][r.choice(inner)]["writes"].append({"goto": t, "graph": "parent"})
        nodes[n] = {"subgraph": sub}
    spec = {"channels": chans, "nodes": {n: nodes[n] for n in names + ([worker] if worker else [])}, "edges": edges}
    if cond:
        spec["conditional_edges"] = cond
    # compile-level interrupts
    if r.random() < (0.12 if level == 0 else 0.15):
        node = r.choice(names)
        spec["compile"] = {r.choice(["interrupt_before", "interrupt_after"]): [node]}
    return spec


def add_collision(r, order, sub_names, edges, nodes, chans, feats):
    """Make one superstep where two parallel plain nodes write one last_value channel and a
    third (or one of the two) calls interrupt(): all are direct successors of one source."""
    if r.random() >= feats["p_collide"]:
        return
    plain = [n for n in order if n not in sub_names]
    srcs = ["__start__"] + [n for n in order[:-2] if n not in sub_names]
    src = r.choice(srcs)
    after = [n for n in plain if src == "__start__" or order.index(n) > order.index(src)]
    if len(after) < 2:
        return
    group = r.sample(after, min(len(after), r.choice([2, 3, 3])))
    for n in group:
        if [src, n] not in edges:
            edges.append([src, n])
    lv = [c for c, s in chans.items() if s["reducer"] == "last_value" and c not in NOT_SHARED + ("items", "item")]
    if not lv or r.random() < 0.3:
        c = f"hit{len(chans)}"
        chans[c] = {"reducer": "last_value"}
        lv = [c]
    c = r.choice(lv)
    for n in group[:2]:
        val = r.randint(0, 5) if is_num(r, c) else n
        nodes[n]["writes"].insert(r.randint(0, len(nodes[n]["writes"])), {"set": {c: val}})
    asker = group[2] if len(group) > 2 else r.choice(group)
    if not any("interrupt" in op for op in nodes[asker]["writes"]):
        to = f"a_{asker}"
        chans[to] = {"reducer": "last_value"}; FLAV[to] = False
        nodes[asker]["writes"].insert(r.randint(0, len(nodes[asker]["writes"])),
                                      {"interrupt": f"ask {asker}?", "resume_to": to})


def add_join_appends(r, edges, nodes, chans, feats):
    """The sources of a waiting edge append to a list channel (operator.add), so the list's
    length after the join depends on how many times each source ran."""
    joins = [e for e in edges if isinstance(e[0], list)]
    if not joins or r.random() >= feats["p_join_list"]:
        return
    lists = [c for c, s in chans.items() if s["reducer"] == "append" and c != "results"]
    if not lists:
        lists = [f"log{len(chans)}"]
        chans[lists[0]] = {"reducer": "append"}
    c = r.choice(lists)
    for e in r.sample(joins, r.randint(1, len(joins))):
        for n in e[0] + ([e[1]] if r.random() < 0.5 else []):
            if n in nodes and "writes" in nodes[n]:
                nodes[n]["writes"].append({"set": {c: [n]}})


def add_sub_messages(r, sub, feats):
    """Inner nodes of a subgraph that shares a messages channel reply to it or add messages."""
    msgs = [c for c, s in sub["channels"].items() if s["reducer"] == "add_messages"]
    if not msgs:
        return
    plain = [n for n, nd in sub["nodes"].items() if "writes" in nd and not n.endswith("work")]
    for n in plain:
        if r.random() < feats["p_sub_msgs"] and not any(msgs[0] in str(op) for op in sub["nodes"][n]["writes"]):
            op = r.choice([{"reply": msgs[0], "prefix": n + ": "},
                           {"set": {msgs[0]: [{"type": "ai", "content": n}]}}])
            sub["nodes"][n]["writes"].insert(r.randint(0, len(sub["nodes"][n]["writes"])), op)


def rand_root(r):
    chans = {f"ch{i}": {"reducer": r.choice(REDS)} for i in range(r.randint(1, 3))}
    if r.random() < 0.7:
        chans["messages"] = {"reducer": "add_messages"}
    if r.random() < 0.5 and not any(s["reducer"] == "append" for s in chans.values()):
        chans["log"] = {"reducer": "append"}
    feats = {"p_sub": 0.75, "p_intr": r.choice([0.2, 0.35, 0.5]), "p_goto": r.choice([0.0, 0.2, 0.35]),
             "p_goto_parent": r.choice([0.0, 0.5, 0.7]), "p_collide": r.choice([0.5, 0.8]),
             "p_sub_msgs": r.choice([0.6, 0.9]), "p_join": r.choice([0.3, 0.6]), "p_join_list": 0.8}
    return rand_graph(r, 0, chans, feats)

# ---------------------------------------------------------------- values

def rand_input(r, chans, first=False):
    out = {}
    for c, s in chans.items():
        red = s["reducer"]
        if c == "messages" and first:
            out[c] = [{"type": "human", "content": f"hi{r.randint(0, 9)}"}]
        elif c == "items":
            if r.random() < 0.35:
                out[c] = [f"t{r.randint(0, 9)}" for _ in range(r.randint(1, 2))]
        elif c in ("loops", "iloops"):
            if r.random() < 0.7:
                out[c] = 0
        elif r.random() < 0.7:
            out[c] = ([{"type": "human", "content": f"hi{r.randint(0, 9)}"}] if red == "add_messages" else
                      [f"in{r.randint(0, 9)}"] if red == "append" else r.randint(0, 5) if red == "sum" else
                      r.randint(0, 5) if is_num(r, c) else r.choice(["x", "y"] if not first else ["y", "z"]))
    if not out:
        c = list(chans)[0]
        out[c] = [] if chans[c]["reducer"] in ("append", "add_messages") else 0
    return out


def rand_values(r, chans):
    cs = [c for c in chans if c not in ("loops", "iloops")] or list(chans)
    out = {}
    for c in r.sample(cs, 1 if r.random() < 0.8 else min(2, len(cs))):
        red = chans[c]["reducer"]
        out[c] = ([{"type": "human", "content": "edited"}] if red == "add_messages" else ["edit"] if red == "append"
                  else [f"e{r.randint(0, 9)}"] if c == "items" else 7 if red == "sum" or is_num(r, c)
                  else "x" if r.random() < 0.1 else "edited")
    return out

# ---------------------------------------------------------------- thread knowledge

def graph_at(spec, ns):
    g = spec["graph"]
    if ns:
        for name in ns.split("|"):
            nd = g["nodes"].get(name, {})
            if "subgraph" not in nd:
                return None
            g = nd["subgraph"]
    return g


def run_spec(spec):
    """Run on LangGraph; returns (trace, n_root_checkpoints, n_sub_checkpoints)."""
    trace = lg_golden.run(copy.deepcopy(spec))
    g = _last_graph[0]
    st = g.checkpointer.storage.get(spec["thread_id"], {})
    nc = len(st.get("", {}))
    ns_ = sum(len(v) for k, v in st.items() if k)
    return trace, nc, ns_


def probe(spec, ns_):
    """What the thread looks like after spec's ops (ns_: how many subgraph checkpoints it has)."""
    ops = spec["ops"] + [{"op": "history"}, {"op": "get_state", "subgraphs": True}] + \
          [{"op": "get_state", "at": {"label": f"s{k}"}} for k in range(ns_)]
    t = lg_golden.run(copy.deepcopy({**spec, "ops": ops}))["trace"]
    n = len(spec["ops"])
    roots = {s["id"]: s for s in t[n].get("history", [])}
    head = t[n + 1].get("snapshot")
    subs = {}
    for k in range(ns_):
        s = t[n + 2 + k].get("snapshot")
        if s:
            subs[f"s{k}"] = s
    return {"roots": roots, "head": head, "subs": subs}

# ---------------------------------------------------------------- ops

def interrupts_of(snap):
    return [v for t in (snap or {}).get("tasks", []) for v in t.get("interrupts", [])]


def sub_tasks(snap, g):
    """Names in snap.next that are subgraph nodes of graph g."""
    if not snap or not g:
        return []
    return [n for n in snap.get("next", []) if "subgraph" in g["nodes"].get(n, {})]


def choose_op(r, spec, info, vcount):
    """One candidate op (a list of one or two ops)."""
    G = spec["graph"]
    roots, head, subs = info["roots"], info["head"], info["subs"]
    croot = sorted(roots, key=lambda x: int(x[1:]))
    clab = lambda: {"label": r.choice(croot)} if croot else None
    pending = interrupts_of(head)
    has_sub = any("subgraph" in nd for nd in G["nodes"].values())

    # selectors that name a subgraph namespace: (selector, ns-text)
    def sub_selectors():
        sels = []
        for lab in croot + [None]:
            snap = head if lab is None else roots[lab]
            for t in sub_tasks(snap, G):
                at = {} if lab is None else {"at": {"label": lab}}
                sels.append(("task_state", {**at, "task": t}, t))
                sels.append(("task_ns", {**at, "task": t}, t))
        for lab, s in subs.items():
            g = graph_at(spec, s["ns"])
            for t in sub_tasks(s, g):
                sels.append(("task_state", {"at": {"label": lab}, "task": t}, s["ns"] + "|" + t))
                sels.append(("task_ns", {"at": {"label": lab}, "task": t}, s["ns"] + "|" + t))
        # nested: task_state at task_state (thread head)
        for t in sub_tasks(head, G):
            g = G["nodes"][t]["subgraph"]
            for t2 in [n for n, nd in g["nodes"].items() if "subgraph" in nd]:
                sels.append(("task_state", {"at": {"task_state": {"task": t}}, "task": t2}, t + "|" + t2))
                sels.append(("task_ns", {"at": {"task_state": {"task": t}}, "task": t2}, t + "|" + t2))
        return [({kind: body}, ns) for kind, body, ns in sels]

    def any_sub_at(kinds=("label", "task_state", "task_ns")):
        """A selector of a subgraph checkpoint/namespace and its ns text, or None."""
        cands = []
        if "label" in kinds:
            cands += [({"label": lab}, s["ns"]) for lab, s in subs.items()]
        cands += [(s, ns) for s, ns in sub_selectors() if next(iter(s)) in kinds]
        return r.choice(cands) if cands else None

    rv = lambda: r.choice([f"r{vcount}", vcount, f"ok{vcount}"])
    w = {"replay": 3, "update": 3, "copy": 0.5, "input_at": 0.6, "invoke_head": 0.7, "get": 1.5, "hist": 1.1}
    if has_sub:
        w.update({"replay_s": 1.5, "update_sub": 2.8, "get_sel": 2.5, "hist_sub": 1.8, "resume_sel": 1.2})
    w["resume_head"] = 7 if len(pending) == 1 else 0.3
    w["continue"] = 5 if (head and head.get("next") and not pending) else 0.3
    old_intr = [lab for lab in croot if len(interrupts_of(roots[lab])) == 1]
    if old_intr:
        w["resume_at"] = 2
    kind = r.choices(list(w), list(w.values()))[0]
    root_nodes = list(G["nodes"])

    if kind == "resume_head":
        return [{"op": "resume", "value": rv()}]
    if kind == "continue":
        return [{"op": "invoke", "input": None}]
    if kind == "resume_at":
        return [{"op": "resume", "value": rv(), "at": {"label": r.choice(old_intr)}}]
    if kind == "resume_sel":
        # resume at a subgraph checkpoint that has a pending interrupt, or at a task_state selector
        intr = [lab for lab, s in subs.items() if interrupts_of(s)]
        if intr and r.random() < 0.5:
            return [{"op": "resume", "value": rv(), "at": {"label": r.choice(intr)}}]
        x = any_sub_at(kinds=("task_state", "task_ns") if r.random() < 0.85 else ("task_ns",))
        return [{"op": "resume", "value": rv(), "at": x[0]}] if x else None
    if kind == "replay":
        return [{"op": "invoke", "input": None, "at": clab()}]
    if kind == "replay_s":
        x = any_sub_at(kinds=("label", "task_state") if r.random() < 0.85 else ("task_ns",))
        return [{"op": "invoke", "input": None, "at": x[0]}] if x else None
    if kind == "update":
        op = {"op": "update_state", "values": rand_values(r, G["channels"])}
        if r.random() < 0.85:
            op["at"] = clab()
        if r.random() < 0.8:
            op["as_node"] = r.choice(root_nodes + ["__start__"])
        op["save"] = f"u{len(spec['ops'])}"
        out = [op]
        if r.random() < 0.65:
            out.append({"op": "invoke", "input": None, "at": {"saved": op["save"]}})
        return out
    if kind == "update_sub":
        x = any_sub_at(kinds=("label", "task_state") if r.random() < 0.85 else ("task_ns",))
        if not x:
            return None
        g = graph_at(spec, x[1])
        if not g:
            return None
        op = {"op": "update_state", "at": x[0], "values": rand_values(r, g["channels"])}
        if r.random() < 0.75:
            op["as_node"] = r.choice(list(g["nodes"]) + ["__start__"])
        op["save"] = f"u{len(spec['ops'])}"
        out = [op]
        y = r.random()
        if y < 0.35:
            out.append({"op": "invoke", "input": None, "at": {"saved": op["save"]}})
        elif y < 0.5:
            out.append({"op": "resume", "value": rv(), "at": {"saved": op["save"]}})
        elif y < 0.7:
            out.append({"op": "get_state", "subgraphs": True})
        return out
    if kind == "copy":
        return [{"op": "update_state", "at": clab(), "values": None, "as_node": "__copy__"}]
    if kind == "input_at":
        return [{"op": "invoke", "input": rand_input(r, G["channels"]), "at": clab()}]
    if kind == "invoke_head":
        return [{"op": "invoke", "input": r.choice([None, rand_input(r, G["channels"])])}]
    if kind == "get":
        op = {"op": "get_state"}
        y = r.random()
        if y < 0.6:
            op["at"] = clab()
        elif y < 0.8 and subs:
            op["at"] = {"label": r.choice(list(subs))}
        if has_sub and r.random() < 0.6:
            op["subgraphs"] = True
        return [op]
    if kind == "get_sel":
        x = any_sub_at(kinds=("task_state", "task_ns"))
        if not x:
            return None
        op = {"op": "get_state", "at": x[0]}
        if r.random() < 0.3:
            op["subgraphs"] = True
        return [op]
    if kind == "hist":
        h = {"op": "history"}
        if r.random() < 0.3: h["limit"] = r.randint(1, 4)
        if r.random() < 0.3: h["filter"] = {"source": r.choice(["loop", "fork", "update", "input"])}
        if r.random() < 0.2: h["before"] = clab()
        return [h]
    if kind == "hist_sub":
        x = any_sub_at(kinds=("task_ns", "label", "task_state") if r.random() < 0.4 else ("task_ns",))
        if not x:
            return None
        h = {"op": "history", "at": x[0]}
        if r.random() < 0.25: h["limit"] = r.randint(1, 3)
        if r.random() < 0.15:
            same = [lab for lab, s in subs.items() if s["ns"] == x[1]]
            if same: h["before"] = {"label": r.choice(same)}
        return [h]
    raise AssertionError(kind)


def parallel_interrupts(trace):
    """True when one run paused on interrupts of several parallel tasks: LangGraph lists them in
    the order the tasks finished (threads), so such a trace is not reproducible."""
    for rec in trace["trace"]:
        for x in walk(rec):
            if isinstance(x, dict) and (len(x.get("__interrupt__") or []) > 1 or len(x.get("interrupts") or []) > 1):
                return True
    return False


def err_kinds(trace):
    return [rec["error"].split(":")[0] for rec in trace["trace"] if rec.get("error")]


def gen(seed, stats):
    r = random.Random(seed)
    FLAV.clear()
    graph = rand_root(r)
    spec = {"name": f"rand_{seed}", "about": "random graph (gen_random3: subgraphs, Send, goto, interrupts, colliding writes beside an interrupt, subgraph messages, joins over lists) and operations; LangGraph is the oracle",
            "graph": graph, "thread_id": f"r{seed}", "ops": [{"op": "invoke", "input": rand_input(r, graph["channels"], first=True)}]}
    trace, nc, ns_ = run_spec(spec)
    first = trace["trace"][0].get("error")
    if parallel_interrupts(trace):
        stats["drop: first invoke paused on parallel interrupts (their order is racy)"] += 1
        return None
    # a colliding superstep may fail the first run: keep most of those, they are what this variant is for
    if first and not (first.startswith("InvalidUpdateError") and r.random() < 0.7):
        stats["drop: first invoke failed (" + first.split(":")[0] + ")"] += 1
        return None
    n_ops = r.randint(6, 14)
    vcount = 0
    while len(spec["ops"]) < n_ops - 1:
        info = probe(spec, ns_)
        for attempt in range(25):
            cand = choose_op(r, spec, info, vcount)
            if not cand or len(spec["ops"]) + len(cand) > n_ops - 1 + (1 if len(cand) > 1 else 0):
                continue
            if cand[0] == spec["ops"][-1] and cand[0]["op"] in ("get_state", "history"):
                continue  # the same read twice in a row tells nothing new
            trial = {**spec, "ops": spec["ops"] + cand}
            try:
                t2, nc2, ns2 = run_spec(trial)
            except lg_golden.ScenarioError:
                stats["op re-chosen: selector did not resolve"] += 1
                continue
            if parallel_interrupts(t2):
                stats["op re-chosen: paused on parallel interrupts (racy order)"] += 1
                continue
            new_errs = [rec.get("error") for rec in t2["trace"][len(spec["ops"]):] if rec.get("error")]
            bad = [e for e in new_errs if e.split(":")[0] not in KEEP_ERRORS]
            if bad:
                stats["op re-chosen: error kind not kept (" + bad[0].split(":")[0] + ")"] += 1
                if os.environ.get("GEN_DEBUG"): print("DEBUG", spec["name"], json.dumps(cand), bad[0][:200], file=sys.stderr)
                continue
            if new_errs and (len(err_kinds(t2)) > max(1, len(t2["trace"]) // 4) or r.random() < 0.25):
                stats["op re-chosen: too many errors"] += 1
                continue
            spec, trace, nc, ns_ = trial, t2, nc2, ns2
            vcount += 1
            break
        else:
            stats["drop: no valid op found"] += 1
            return None
    has_sub = any("subgraph" in nd for nd in graph["nodes"].values())
    final = r.choice([{"op": "history"}] * 2 + [{"op": "get_state", "subgraphs": True}] * (2 if has_sub else 0))
    spec["ops"].append(final)
    trace = lg_golden.run(copy.deepcopy(spec))
    if parallel_interrupts(trace):
        stats["drop: final trace shows parallel interrupts"] += 1
        return None
    errs = err_kinds(trace)
    if len(errs) * 3 > len(spec["ops"]):
        stats["drop: more than a third of the ops failed"] += 1
        return None
    return spec, trace


def run_fresh(spec):
    """The trace from a fresh interpreter with another hash seed."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(spec, f)
    try:
        env = {**os.environ, "PYTHONHASHSEED": str(random.randrange(1, 2**31))}
        try:
            p = subprocess.run([sys.executable, os.path.join(HERE, "lg_golden.py"), f.name], capture_output=True,
                               text=True, env=env, timeout=300)
        except subprocess.TimeoutExpired:
            return {"crash": "timeout"}
        if p.returncode:
            return {"crash": p.stderr[-500:]}
        return json.loads(p.stdout)
    finally:
        os.unlink(f.name)


def first_diff(a, b, path="$"):
    if type(a) != type(b):
        return path
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}"
            d = first_diff(a[k], b[k], f"{path}.{k}")
            if d: return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path} (length)"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_diff(x, y, f"{path}[{i}]")
            if d: return d
        return None
    return None if a == b else path


def walk(x):
    yield x
    if isinstance(x, dict):
        for v in x.values(): yield from walk(v)
    elif isinstance(x, list):
        for v in x: yield from walk(v)


def features(spec, trace):
    """Which of the new features a scenario uses (graph and ops) and exercises (trace)."""
    f = set()
    def graph(g, depth):
        for nd in g["nodes"].values():
            if "subgraph" in nd:
                f.add("subgraph"); f.add("subgraph depth 2") if depth >= 1 else None
                graph(nd["subgraph"], depth + 1)
            for op in nd.get("writes", []):
                if "goto" in op: f.add("goto parent" if op.get("graph") == "parent" else "goto")
                if "interrupt" in op: f.add("interrupt op")
                if "fail_if" in op: f.add("fail_if")
        for ce in g.get("conditional_edges", []):
            if "send" in ce:
                f.add("Send")
                if "subgraph" in g["nodes"][ce["send"]["to"]]: f.add("Send to subgraph")
            elif ce["from"] != "__start__": f.add("loop")
        if g.get("compile", {}).get("interrupt_before") or g.get("compile", {}).get("interrupt_after"):
            f.add("compile interrupt" + (" in subgraph" if depth else ""))
    graph(spec["graph"], 0)
    for op in spec["ops"]:
        if op["op"] == "resume": f.add("resume op")
        if op.get("subgraphs"): f.add("get_state subgraphs")
        for x in walk(op):
            if isinstance(x, dict):
                if "task_state" in x: f.add("task_state")
                if "task_ns" in x: f.add("task_ns")
                if isinstance(x.get("label"), str) and x["label"].startswith("s"): f.add("sN label")
    for rec in trace["trace"]:
        if rec.get("error"): f.add("error")
        for x in walk(rec):
            if isinstance(x, dict):
                if x.get("__interrupt__"): f.add("interrupt fired")
                if "ns" in x: f.add("subgraph snapshot in trace")
            if isinstance(x, str) and x.startswith(("work:", "iwork:", "sub:", "again:")): f.add("Send fired")
    return f


def coverage(out):
    c, n, errs, nops = Counter(), 0, 0, 0
    for fn in sorted(os.listdir(f"{out}/scenarios")):
        spec = json.load(open(f"{out}/scenarios/{fn}")); trace = json.load(open(f"{out}/expected/{fn}"))
        n += 1; c.update(features(spec, trace))
        nops += len(spec["ops"]); errs += sum(1 for rec in trace["trace"] if rec.get("error"))
    print(f"{n} scenarios, {nops} ops, {errs} failing ops")
    for k, v in sorted(c.items(), key=lambda kv: -kv[1]):
        print(f"  {k}: {v}")


if __name__ == "__main__" and sys.argv[1:2] == ["--coverage"]:
    coverage(sys.argv[2]); sys.exit(0)

if __name__ == "__main__":
    import resource  # a runaway graph must fail (MemoryError), not take the machine down
    resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))
    seed0, count, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    os.makedirs(f"{out}/scenarios", exist_ok=True); os.makedirs(f"{out}/expected", exist_ok=True)
    stats = Counter()
    made, i = 0, 0
    while made < count:
        seed = seed0 + i; i += 1
        try:
            got = gen(seed, stats)
        except KeyboardInterrupt:
            raise
        except BaseException as e:  # a generator bug or a LangGraph crash (PanicException is no Exception): skip the seed
            stats[f"drop: generator exception ({type(e).__name__})"] += 1
            print("seed", seed, "exception", type(e).__name__, str(e)[:120], file=sys.stderr)
            continue
        if not got:
            continue
        spec, trace = got
        again = [run_fresh(spec) for _ in range(2)]  # this process + two fresh interpreters
        bad = [t for t in again if t != trace]
        if bad:
            where = first_diff(trace, bad[0])
            stats["drop: nondeterministic (two traces differ)"] += 1
            print("nondeterministic, dropped", spec["name"], "first difference at", where)
            continue
        made += 1
        json.dump(spec, open(f"{out}/scenarios/{spec['name']}.json", "w"), ensure_ascii=False, indent=1)
        json.dump(trace, open(f"{out}/expected/{spec['name']}.json", "w"), ensure_ascii=False, indent=1)
        errs = [rec.get("error") for rec in trace["trace"] if rec.get("error")]
        print(spec["name"], "ops", len(spec["ops"]), "errors", len(errs), (errs[0][:70] if errs else ""), flush=True)
    print("seeds tried", i, "kept", made)
    for k, v in sorted(stats.items()):
        print(f"  {k}: {v}")
