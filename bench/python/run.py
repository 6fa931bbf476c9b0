"""The Python twin of bench/run.mjs: the issue-5 workloads on LangGraph
(Python) with the same node logic, medians printed as a table.

    python3 -m venv bench/.venv && bench/.venv/bin/pip install -r bench/requirements.txt
    bench/.venv/bin/python bench/python/run.py [--smoke] [--reps N] [--json FILE]

Not part of CI. Prints; never asserts a time. Memory is measured in a fresh
child process per workload (RSS from /proc/self/status, after gc).
"""

from __future__ import annotations

import argparse
import gc
import json
import operator
import statistics
import subprocess
import sys
import time
from typing import Annotated, TypedDict

import langgraph
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages

FANOUT = 8


# ---- node functions and routers (the same logic as bench/workloads.mjs) ----
def agent(state):
    return {"count": state["count"] + 1, "trail": ["agent"]}


def tool(state):
    return {"trail": ["tool"]}


def w1_router(iterations):
    return lambda state: "tool" if state["count"] < iterations else END


def reply(state):
    return {"messages": [{"type": "ai", "content": "echo: " + state["messages"][-1].content}]}


def worker(name):
    return lambda state: {"total": 1, "log": [name]}


def w3_limit(supersteps):
    # A router sees only its own node's writes: after superstep k, total = 8(k-1)+1.
    return FANOUT * (supersteps - 1) + 1


def w3_router(name, supersteps):
    return lambda state: name if state["total"] < w3_limit(supersteps) else END


class W1State(TypedDict):
    count: int
    trail: Annotated[list, operator.add]


class W2State(TypedDict):
    messages: Annotated[list, add_messages]


class W3State(TypedDict):
    total: Annotated[int, operator.add]
    log: Annotated[list, operator.add]


def build_w1(iterations):
    saver = InMemorySaver()
    g = StateGraph(W1State)
    g.add_node("agent", agent)
    g.add_node("tool", tool)
    g.add_edge(START, "agent")
    g.add_edge("tool", "agent")
    g.add_conditional_edges("agent", w1_router(iterations))
    return g.compile(checkpointer=saver), saver


def build_w2():
    saver = InMemorySaver()
    g = StateGraph(W2State)
    g.add_node("reply", reply)
    g.add_edge(START, "reply")
    g.add_edge("reply", END)
    return g.compile(checkpointer=saver), saver


def build_w3(supersteps):
    saver = InMemorySaver()
    g = StateGraph(W3State)
    for i in range(FANOUT):
        name = f"w{i}"
        g.add_node(name, worker(name))
        g.add_edge(START, name)
        g.add_conditional_edges(name, w3_router(name, supersteps))
    return g.compile(checkpointer=saver), saver


def config(thread, checkpoint_id=None):
    c = {"thread_id": thread}
    if checkpoint_id:
        c["checkpoint_id"] = checkpoint_id
    return {"configurable": c, "recursion_limit": 1_000_000}


def w1_input():
    return {"count": 0, "trail": []}


def w2_input(i):
    return {"messages": [{"type": "human", "content": f"hello {i}"}]}


now = lambda: time.perf_counter() * 1e6  # noqa: E731  µs

results: dict[str, list[float]] = {}
warnings: list[str] = []


def record(metric, value):
    results.setdefault(metric, []).append(value)


def check(what, got, want):
    if got != want:
        warnings.append(f"{what}: got {got}, expected {want}")


def history_metadata(graph, thread):
    steps = {}
    n = 0
    for s in graph.get_state_history(config(thread)):
        n += 1
        steps.setdefault(s.metadata["step"], s.config["configurable"]["checkpoint_id"])
    return n, steps


def w1_block(sizes):
    n = sizes["w1_large"]
    graph, saver = build_w1(n)
    t = now()
    graph.invoke(w1_input(), config("w1"))
    record("w1.step.large", (now() - t) / (2 * n))
    t = now()
    count, steps = history_metadata(graph, "w1")
    record("w1.history.meta", now() - t)
    check("W1 checkpoints", count, 2 * n + 1)
    t = now()
    listed = sum(1 for tup in saver.list(config("w1")) if tup.metadata["step"] >= -1)
    record("w1.list.meta", now() - t)
    check("W1 saver.list", listed, 2 * n + 1)
    t = now()
    items = sum(len(s.values.get("trail", [])) for s in graph.get_state_history(config("w1")))
    record("w1.history.values", now() - t)
    check("W1 trail items", items, (2 * n - 1) * (2 * n) // 2)
    last = 2 * n - 1
    t = now()
    graph.invoke(None, config("w1", steps[last - sizes["tail"]]))
    record("w1.replay.tail.large", now() - t)
    t = now()
    graph.invoke(None, config("w1", steps[n]))
    mid = now() - t
    record("w1.replay.mid", mid)
    record("w1.replay.mid.step", mid / (last - n))
    n2 = sizes["w1_small"]
    graph, saver = build_w1(n2)
    t = now()
    graph.invoke(w1_input(), config("w1"))
    record("w1.step.small", (now() - t) / (2 * n2))
    _, steps = history_metadata(graph, "w1")
    t = now()
    graph.invoke(None, config("w1", steps[2 * n2 - 1 - sizes["tail"]]))
    record("w1.replay.tail.small", now() - t)


def w2_block(sizes):
    graph, _ = build_w2()
    times = []
    out = None
    for i in range(sizes["w2_turns"]):
        t = now()
        out = graph.invoke(w2_input(i), config("chat"))
        times.append(now() - t)
    check("W2 messages", len(out["messages"]), 2 * sizes["w2_turns"])
    w = sizes["w2_window"]
    record("w2.first", statistics.median(times[:w]))
    record("w2.last", statistics.median(times[-w:]))


def w3_block(sizes):
    s = sizes["w3"]
    graph, _ = build_w3(s)
    t = now()
    out = graph.invoke({"total": 0, "log": []}, config("fan"))
    record("w3.step", (now() - t) / s)
    check("W3 total", out["total"], FANOUT * s)


def rss():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def memory_child(workload, size):
    gc.collect()
    before = rss()
    points = []
    if workload == "w1":
        keep = build_w1(size)
        keep[0].invoke(w1_input(), config("w1"))
    else:
        keep = build_w2()
        for i in range(size):
            if i == size // 2:
                gc.collect()
                points.append(rss())
            keep[0].invoke(w2_input(i), config("chat"))
    gc.collect()
    points.append(rss())
    print(json.dumps({"before": before, "points": points}))
    del keep


def memory_block(sizes):
    for workload, size, metric in [
        ("w1", sizes["w1_small"], "mem.w1.small"),
        ("w1", sizes["w1_large"], "mem.w1.large"),
        ("w2", sizes["w2_turns"], "mem.w2"),
    ]:
        r = subprocess.run(
            [sys.executable, __file__, "--memory-child", workload, str(size)],
            capture_output=True,
            text=True,
        )
        try:
            data = json.loads(r.stdout.strip().splitlines()[-1])
        except (IndexError, ValueError):
            warnings.append(f"memory child {workload}: {r.stderr.strip()[-300:]}")
            continue
        record(f"{metric}.rss", data["points"][-1] - data["before"])
        if len(data["points"]) > 1:
            record(f"{metric}.half.rss", data["points"][0] - data["before"])


def fmt_us(v):
    if v >= 1e6:
        return f"{v / 1e6:.2f} s"
    if v >= 1e3:
        return f"{v / 1e3:.2f} ms"
    return f"{v:.1f} µs"


def fmt_mb(v):
    return f"{v / 1048576:.1f} MB"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--smoke", action="store_true")
    p.add_argument("--reps", type=int)
    p.add_argument("--json")
    p.add_argument("--only", default="w1,w2,w3,mem")
    p.add_argument("--memory-child", nargs=2)
    a = p.parse_args()
    if a.memory_child:
        memory_child(a.memory_child[0], int(a.memory_child[1]))
        return
    sizes = (
        dict(w1_small=10, w1_large=100, w2_turns=60, w2_window=20, w3=20, reps=1, tail=5)
        if a.smoke
        else dict(w1_small=200, w1_large=2000, w2_turns=1000, w2_window=100, w3=500, reps=5, tail=10)
    )
    if a.reps:
        sizes["reps"] = a.reps
    only = set(a.only.split(","))
    started = time.time()
    version = getattr(langgraph, "__version__", None)
    if version is None:
        from importlib.metadata import version as v

        version = v("langgraph")
    print(f"LangGraph (Python) {version}, Python {sys.version.split()[0]}; {sizes['reps']} rep(s), median")
    # W2 is a whole 1,000-turn thread per rep: at most 2 reps, as in bench/run.mjs.
    reps = {"w1": sizes["reps"], "w2": min(sizes["reps"], 2), "w3": sizes["reps"]}
    for name, block in [("w1", w1_block), ("w2", w2_block), ("w3", w3_block)]:
        if name in only:
            for _ in range(reps[name]):
                gc.collect()
                block(sizes)
    if "mem" in only:
        memory_block(sizes)
    n, n2 = sizes["w1_large"], sizes["w1_small"]
    rows = [
        ("w1.step.large", f"W1 superstep, {2 * n + 1}-checkpoint run", fmt_us),
        ("w1.step.small", f"W1 superstep, {2 * n2 + 1}-checkpoint run", fmt_us),
        ("w1.history.meta", f"W1 history {2 * n + 1}, metadata (get_state_history)", fmt_us),
        ("w1.list.meta", f"W1 history {2 * n + 1}, metadata (saver.list)", fmt_us),
        ("w1.history.values", f"W1 history {2 * n + 1}, every snapshot's values", fmt_us),
        ("w1.replay.mid", f"W1 replay from the middle ({n - 1} supersteps)", fmt_us),
        ("w1.replay.mid.step", "  per re-run superstep", fmt_us),
        ("w1.replay.tail.large", f"W1 replay last {sizes['tail']} supersteps of {2 * n + 1}", fmt_us),
        ("w1.replay.tail.small", f"W1 replay last {sizes['tail']} supersteps of {2 * n2 + 1}", fmt_us),
        ("w2.first", f"W2 invoke, first {sizes['w2_window']} of {sizes['w2_turns']}", fmt_us),
        ("w2.last", f"W2 invoke, last {sizes['w2_window']} of {sizes['w2_turns']}", fmt_us),
        ("w3.step", f"W3 superstep, {FANOUT} parallel nodes × {sizes['w3']}", fmt_us),
        ("mem.w1.large.rss", f"RSS growth after W1 {2 * n + 1}", fmt_mb),
        ("mem.w1.small.rss", f"RSS growth after W1 {2 * n2 + 1}", fmt_mb),
        ("mem.w2.rss", f"RSS growth after W2 {sizes['w2_turns']} turns", fmt_mb),
        ("mem.w2.half.rss", f"RSS growth after W2 {sizes['w2_turns'] // 2} turns", fmt_mb),
    ]
    print()
    print(f"| {'workload':<48} | {'LangGraph (Python)':>18} |")
    print(f"|{'-' * 50}|{'-' * 20}|")
    for metric, label, fmt in rows:
        if metric in results:
            print(f"| {label:<48} | {fmt(statistics.median(results[metric])):>18} |")
    for w in dict.fromkeys(warnings):
        print(f"warning: {w}")
    print(f"\n({time.time() - started:.1f} s)")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"sizes": sizes, "version": version, "results": results, "warnings": warnings}, f, indent=2)


if __name__ == "__main__":
    main()
