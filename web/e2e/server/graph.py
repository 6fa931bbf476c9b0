"""The Agent Server test graph of Chronograph's end-to-end tests.

One thread of it has every shape the visualizer draws: a loop (`greet`
runs twice), a `Send` fan-out (`research` once per topic), messages
(`add_messages`), a slow node (`summarize`, so a run can be seen streaming)
and a subgraph (`review`) whose `ask` node calls `interrupt()`.
"""

import operator
import time
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.types import Send, interrupt


class State(TypedDict, total=False):
    messages: Annotated[list, add_messages]
    rounds: int
    topics: list[str]
    notes: Annotated[list[str], operator.add]
    verdict: str
    pause: float


class Topic(TypedDict):
    topic: str


def greet(state: State) -> State:
    rounds = state.get("rounds", 0) + 1
    return {"rounds": rounds, "messages": [{"type": "ai", "content": f"round {rounds}"}]}


def again_or_plan(state: State) -> str:
    return "greet" if state["rounds"] < 2 else "plan"


def plan(state: State) -> State:
    return {"topics": ["flights", "hotels", "trains"]}


def fan_out(state: State) -> list[Send]:
    return [Send("research", {"topic": t}) for t in state["topics"]]


def research(state: Topic) -> State:
    return {"notes": [f"note on {state['topic']}"]}


def summarize(state: State) -> State:
    # `pause` in a run's input makes it slower (the streaming tests watch it run).
    time.sleep(state.get("pause", 0.3))
    return {"messages": [{"type": "ai", "content": "; ".join(state["notes"])}]}


def draft(state: State) -> State:
    return {"verdict": "draft"}


def ask(state: State) -> State:
    answer = interrupt({"question": "Send this summary?"})
    return {"verdict": str(answer)}


review = (
    StateGraph(State)
    .add_node("draft", draft)
    .add_node("ask", ask)
    .add_edge(START, "draft")
    .add_edge("draft", "ask")
    .add_edge("ask", END)
    .compile()
)

graph = (
    StateGraph(State)
    .add_node("greet", greet)
    .add_node("plan", plan)
    .add_node("research", research)
    .add_node("summarize", summarize)
    .add_node("review", review)
    .add_edge(START, "greet")
    .add_conditional_edges("greet", again_or_plan, ["greet", "plan"])
    .add_conditional_edges("plan", fan_out, ["research"])
    .add_edge("research", "summarize")
    .add_edge("summarize", "review")
    .add_edge("review", END)
    .compile()
)
