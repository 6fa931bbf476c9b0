"""A graph that loops on one node: one run with a high recursion limit
writes a thread of thousands of checkpoints (one per superstep), for the
end-to-end test of a long history."""

from typing import TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict, total=False):
    n: int
    until: int


def tick(state: State) -> State:
    return {"n": state.get("n", 0) + 1}


def again(state: State) -> str:
    return "tick" if state.get("n", 0) < state.get("until", 0) else END


graph = (
    StateGraph(State)
    .add_node("tick", tick)
    .add_edge(START, "tick")
    .add_conditional_edges("tick", again, ["tick", END])
    .compile()
)
