#!/usr/bin/env python3
"""saver_dump.py SCENARIO.json: run the scenario with tools/lg_golden.py, then print every
checkpoint the InMemorySaver holds for the thread, oldest first per namespace, with labels:
label, namespace (task ids replaced by <task>), step, source, parent label, metadata["parents"]
(as labels; "unsaved:<id tail>" for a checkpoint id the saver does not hold, as with
durability "exit"), channel_values (internal channels branch:* / __start__ shown as keys only) and the
pending writes stored against it as TASK:CHANNEL (task name where known, NULL for the
null task id that carries resume values and update/input writes, else the task id's first 8 characters)."""
import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lg_golden
from langgraph.checkpoint.memory import InMemorySaver

spec = json.load(open(sys.argv[1]))
trace = lg_golden.run(spec)
L = lg_golden.LAST
g, thread, labels, slabels = L["graph"], L["thread"], L["labels"], L["slabels"]
saver = g.checkpointer
def lab(ns, cid):
    if cid is None: return None
    return labels.get(cid, "unsaved:" + cid[-6:]) if not ns else slabels.get((ns, cid), "unsaved:" + cid[-6:])
def short_ns(ns):
    return "|".join(p.split(":")[0] + (":<task>" if ":" in p else "") for p in ns.split("|")) if ns else ""
tups = list(saver.list({"configurable": {"thread_id": thread["configurable"]["thread_id"]}}))
# task id -> task name, from the tasks of every snapshot of every namespace
task_names = {"00000000-0000-0000-0000-000000000000": "NULL"}
for ns in {t.config["configurable"]["checkpoint_ns"] for t in tups}:
    try:
        for snap in g.get_state_history({"configurable": {**thread["configurable"], "checkpoint_ns": ns}}):
            for tk in snap.tasks: task_names[tk.id] = tk.name
    except Exception:
        pass
tups.sort(key=lambda t: (t.config["configurable"]["checkpoint_ns"] != "", t.config["configurable"]["checkpoint_ns"], t.config["configurable"]["checkpoint_id"]))
print(f"# {spec['name']}: {len(tups)} checkpoints in the saver")
for t in tups:
    c = t.config["configurable"]; ns = c["checkpoint_ns"]
    par = t.parent_config["configurable"]["checkpoint_id"] if t.parent_config else None
    md = t.metadata or {}
    parents = {short_ns(k) or "''": lab(k, v) for k, v in (md.get("parents") or {}).items()}
    vals = {k: lg_golden.norm(v) for k, v in t.checkpoint["channel_values"].items() if not (":" in k or k.startswith("__"))}
    internal = sorted(k for k in t.checkpoint["channel_values"] if ":" in k or k.startswith("__"))
    writes = [f"{task_names.get(w[0], w[0][:8])}:{w[1]}" for w in t.pending_writes or []]
    print(json.dumps({"label": lab(ns, c["checkpoint_id"]), "ns": short_ns(ns), "step": md.get("step"), "source": md.get("source"),
                      "parent": lab(ns, par), "parents": parents, "values": vals, "internal": internal, "pending_writes": writes}, ensure_ascii=False))
