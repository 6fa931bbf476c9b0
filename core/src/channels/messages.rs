//! LangGraph's `add_messages` reducer over JSON messages
//! (`{"type", "content", "id"?, ...}`).

use super::value::{py_repr, ChannelList};
use crate::clock::IdGenerator;
use crate::error::{troubleshooting, Error, ErrorKind, Result};
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

const REMOVE_ALL: &str = "__remove_all__";

/// Merges `right` into `left` the way LangGraph's `add_messages` does:
/// coerce to messages, give every message without an id a fresh UUIDv4,
/// replace messages whose id already exists (in place), delete on
/// `{"type": "remove", "id": ...}`, append the rest. `__remove_all__`
/// keeps only what follows the last such marker.
///
/// Cost: O(1) per appended message, with a fresh id or a given one (a
/// given id may replace an existing message: `left` is searched through its
/// id index, [`ChannelList::rposition_id`]); O(n) once per merge that
/// replaces or removes any.
pub fn add_messages(
    left: Option<&ChannelList>,
    right: Value,
    ids: &IdGenerator,
) -> Result<ChannelList> {
    merge_messages(left, right, ids, true)
}

/// LangGraph.js's `messagesDeltaReducer` (the reducer of
/// `MessagesDeltaValue`, a `DeltaChannel`): [`add_messages`], but removing
/// an id the list does not hold is no error (the remove is dropped). It is
/// batching-invariant, so folding a superstep's writes one at a time gives
/// the value its one call on the whole batch gives.
pub fn messages_delta(
    left: Option<&ChannelList>,
    right: Value,
    ids: &IdGenerator,
) -> Result<ChannelList> {
    merge_messages(left, right, ids, false)
}

/// [`add_messages`] (`strict`: an unknown id to remove is an error) and
/// [`messages_delta`] (it is ignored).
fn merge_messages(
    left: Option<&ChannelList>,
    right: Value,
    ids: &IdGenerator,
    strict: bool,
) -> Result<ChannelList> {
    let items = match right {
        Value::Array(items) => items,
        single => vec![single],
    };
    let mut incoming = Vec::with_capacity(items.len());
    for item in items {
        let (message, generated) = coerce(item, ids)?;
        incoming.push((message, generated));
    }
    if let Some(pos) = incoming
        .iter()
        .rposition(|(m, _)| is_remove(m) && id_of(m) == Some(REMOVE_ALL))
    {
        return Ok(incoming
            .into_iter()
            .skip(pos + 1)
            .map(|(m, _)| Arc::new(m))
            .collect());
    }
    let left_len = left.map_or(0, ChannelList::len);
    // New messages, and replacements of messages already in `left`: the
    // list is rebuilt (O(length)) only if something was replaced or
    // removed, and then once for the whole merge.
    let mut appended: Vec<Arc<Value>> = Vec::new();
    let mut replaced: Vec<(usize, Arc<Value>)> = Vec::new();
    // Positions of ids added by this merge, so duplicates inside `right`
    // replace the first occurrence ("the later one wins at the first one's position").
    let mut added: HashMap<String, usize> = HashMap::new();
    let mut to_remove: HashSet<String> = HashSet::new();
    for (message, generated) in incoming {
        let id = id_of(&message).unwrap_or_default().to_owned();
        let existing = added.get(&id).copied().or_else(|| {
            if generated {
                None // a fresh UUID cannot be in `left`
            } else {
                left.and_then(|l| l.rposition_id(&id, id_of))
            }
        });
        match existing {
            Some(_) if is_remove(&message) => {
                to_remove.insert(id);
            }
            Some(idx) if idx >= left_len => {
                to_remove.remove(&id);
                appended[idx - left_len] = Arc::new(message);
            }
            Some(idx) => {
                to_remove.remove(&id);
                replaced.push((idx, Arc::new(message)));
            }
            None if is_remove(&message) && !strict => {}
            None if is_remove(&message) => {
                // LangGraph.js's reducer throws a plain Error here (the code names it for the bindings).
                return Err(Error::value(format!(
                    "Attempting to delete a message with an ID that doesn't exist ('{id}')"
                ))
                .with_code("MESSAGE_NOT_FOUND"));
            }
            None => {
                added.insert(id, left_len + appended.len());
                appended.push(Arc::new(message));
            }
        }
    }
    let mut merged = left.cloned().unwrap_or_default();
    if replaced.is_empty() && to_remove.is_empty() {
        merged.extend(appended);
        return Ok(merged);
    }
    let mut items: Vec<Arc<Value>> = merged.iter().cloned().collect();
    for (idx, message) in replaced {
        items[idx] = message;
    }
    items.extend(appended);
    items.retain(|m| id_of(m).is_none_or(|id| !to_remove.contains(id)));
    Ok(items.into_iter().collect())
}

fn id_of(m: &Value) -> Option<&str> {
    m.get("id").and_then(Value::as_str)
}

fn is_remove(m: &Value) -> bool {
    m.get("type").and_then(Value::as_str) == Some("remove")
}

/// Coerces one item to a message object and gives it an id if it has none.
/// Returns whether the id was generated here.
fn coerce(item: Value, ids: &IdGenerator) -> Result<(Value, bool)> {
    let mut message = match item {
        Value::String(content) => message("human", Value::String(content), Map::new()),
        Value::Array(pair) if pair.len() == 2 => {
            let role = pair[0].as_str().unwrap_or_default().to_owned();
            message(&normalize_type(&role)?, pair[1].clone(), Map::new())
        }
        Value::Object(fields) => {
            // Checked before anything is taken out, so the error shows the
            // dict as it was given (LangGraph prints the original message).
            let role_key = if fields.contains_key("role") {
                "role"
            } else {
                "type"
            };
            let role = fields.get(role_key).and_then(Value::as_str);
            let has_content = fields.contains_key("content") || role == Some("remove");
            let Some(role) = role.filter(|_| has_content).map(str::to_owned) else {
                return Err(missing_keys(&Value::Object(fields)));
            };
            let kind = normalize_type(&role)?;
            in_order(&kind, fields, role_key)
        }
        other => {
            let class = match &other {
                Value::Number(n) if n.is_f64() => "float",
                Value::Number(_) => "int",
                Value::Bool(_) => "bool",
                Value::Array(_) => "list",
                _ => "NoneType",
            };
            return Err(Error::new(
                ErrorKind::NotImplemented,
                format!(
                    "Unsupported message type: <class '{class}'>{}",
                    troubleshooting("MESSAGE_COERCION_FAILURE")
                ),
            ));
        }
    };
    let generated = !matches!(message.get("id"), Some(Value::String(s)) if !s.is_empty());
    if generated {
        message["id"] = Value::String(ids.uuid4());
    }
    Ok((message, generated))
}

/// A message dict with its fields in the order they came: the role (or
/// type) key becomes `type` where it was, `content` stays where it was
/// (`null` as `""`, and `""` at the end when there was none). LangChain
/// builds a message's kwargs in its fields' order, so the npm package
/// turns a message back into its class only if the order is kept.
fn in_order(kind: &str, fields: Map<String, Value>, role_key: &str) -> Value {
    let mut out = Map::with_capacity(fields.len() + 1);
    for (key, value) in fields {
        if key == role_key {
            out.insert("type".into(), Value::String(kind.to_owned()));
        } else if key == "type" {
            // A `type` beside `role`: the role decides.
        } else if key == "content" && value.is_null() {
            out.insert(key, Value::String(String::new()));
        } else {
            out.insert(key, value);
        }
    }
    if !out.contains_key("content") {
        out.insert("content".into(), Value::String(String::new()));
    }
    Value::Object(out)
}

fn message(kind: &str, content: Value, mut rest: Map<String, Value>) -> Value {
    rest.insert("type".into(), Value::String(kind.to_owned()));
    rest.insert("content".into(), content);
    Value::Object(rest)
}

fn normalize_type(role: &str) -> Result<String> {
    Ok(match role {
        "human" | "user" => "human",
        "ai" | "assistant" => "ai",
        "system" | "developer" => "system",
        "function" => "function",
        "tool" => "tool",
        "remove" => "remove",
        other => {
            return Err(Error::value(format!(
                "Unexpected message type: '{other}'. Use one of 'human', 'user', 'ai', 'assistant', 'function', 'tool', 'system', or 'developer'."
            )))
        }
    }
    .to_owned())
}

fn missing_keys(got: &Value) -> Error {
    Error::value(format!(
        "Message dict must contain 'role' and 'content' keys, got {}",
        py_repr(got)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ids() -> IdGenerator {
        crate::clock::test_ids(3)
    }

    fn contents(v: &ChannelList) -> Vec<String> {
        v.iter()
            .map(|m| {
                format!(
                    "{}:{}",
                    m["type"].as_str().unwrap(),
                    m["content"].as_str().unwrap()
                )
            })
            .collect()
    }

    #[test]
    fn appends_and_assigns_ids() {
        let g = ids();
        let out = add_messages(
            None,
            json!(["hi", {"role": "assistant", "content": "yo"}]),
            &g,
        )
        .unwrap();
        assert_eq!(contents(&out), ["human:hi", "ai:yo"]);
        assert!(out.iter().all(|m| m["id"].as_str().unwrap().len() == 36));
    }

    #[test]
    fn same_id_replaces_in_place_and_remove_deletes() {
        let g = ids();
        let left = add_messages(None, json!([{"type": "human", "content": "a", "id": "1"}, {"type": "ai", "content": "b", "id": "2"}]), &g).unwrap();
        let out = add_messages(
            Some(&left),
            json!([{"type": "ai", "content": "A", "id": "1"}]),
            &g,
        )
        .unwrap();
        assert_eq!(contents(&out), ["ai:A", "ai:b"]);
        let out = add_messages(Some(&out), json!({"type": "remove", "id": "2"}), &g).unwrap();
        assert_eq!(contents(&out), ["ai:A"]);
    }

    #[test]
    fn remove_then_readd_in_one_write_replaces() {
        let g = ids();
        let left = add_messages(
            None,
            json!([{"type": "human", "content": "a", "id": "1"}]),
            &g,
        )
        .unwrap();
        let out = add_messages(
            Some(&left),
            json!([{"type": "remove", "id": "1"}, {"type": "human", "content": "b", "id": "1"}]),
            &g,
        )
        .unwrap();
        assert_eq!(contents(&out), ["human:b"]);
        let out = add_messages(
            Some(&left),
            json!([{"type": "human", "content": "b", "id": "1"}, {"type": "remove", "id": "1"}]),
            &g,
        )
        .unwrap();
        assert!(out.is_empty());
    }

    #[test]
    fn remove_all_keeps_what_follows() {
        let g = ids();
        let left = add_messages(None, json!(["a", "b"]), &g).unwrap();
        let out = add_messages(
            Some(&left),
            json!([{"type": "remove", "id": "__remove_all__"}, "c"]),
            &g,
        )
        .unwrap();
        assert_eq!(contents(&out), ["human:c"]);
    }

    #[test]
    fn errors_use_langgraph_wording() {
        let g = ids();
        let e = add_messages(None, json!({"type": "remove", "id": "nope"}), &g).unwrap_err();
        assert_eq!(
            e.to_string(),
            "ValueError: Attempting to delete a message with an ID that doesn't exist ('nope')"
        );
        let e = add_messages(None, json!({"role": "bogus", "content": "x"}), &g).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("ValueError: Unexpected message type: 'bogus'."));
        let e = add_messages(None, json!([5]), &g).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("NotImplementedError: Unsupported message type: <class 'int'>"));
        let e = add_messages(None, json!({"content": "x"}), &g).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("ValueError: Message dict must contain 'role' and 'content' keys"));
    }
}
