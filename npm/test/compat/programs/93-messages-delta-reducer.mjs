// messagesDeltaReducer, the reducer of LangGraph.js's (beta) delta message channels, called
// directly: a batch of writes folded into a message list (replace by id, remove, remove all,
// messages without an id appended as they are). Mirrors the reference docs of
// `messagesDeltaReducer`.
export const title = "messagesDeltaReducer called directly (replace, remove, remove all, no id)";

export default async function (lg, t) {
  const { messagesDeltaReducer, REMOVE_ALL_MESSAGES } = lg;
  const state = [
    { role: "user", content: "hi", id: "1" },
    { role: "assistant", content: "hello", id: "2" },
  ];
  const shown = (messages) => messages.map((m) => ({ type: m.getType?.() ?? m.type ?? m.role, content: m.content, id: m.id ?? null }));
  t.record("append and replace", shown(messagesDeltaReducer(state, [[{ role: "assistant", content: "hello again", id: "2" }], { role: "user", content: "new", id: "3" }])));
  t.record("no id: appended without one", shown(messagesDeltaReducer(state, [{ role: "user", content: "anonymous" }])));
  t.record("remove, and an unknown id", shown(messagesDeltaReducer(state, [{ type: "remove", id: "1" }, { type: "remove", id: "nope" }])));
  t.record("remove all", shown(messagesDeltaReducer(state, [[{ role: "user", content: "before" }, { type: "remove", id: REMOVE_ALL_MESSAGES }, { role: "user", content: "after", id: "9" }]])));
  t.record("empty state", shown(messagesDeltaReducer([], [])));
}
