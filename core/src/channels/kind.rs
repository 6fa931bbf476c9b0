//! The kinds of channel a compiled graph uses, and their update rules
//! (LangGraph `channels/`: last_value, binop, ephemeral_value, named_barrier_value,
//! and the `*AfterFinish` channels of deferred nodes).

use super::{ChannelValue, Reducer};
use crate::clock::IdGenerator;
use crate::error::{Error, Result};
use serde_json::Value;

/// A channel of a compiled graph.
#[derive(Clone, Debug)]
pub enum ChannelKind {
    /// A state key with its reducer.
    State(Reducer),
    /// Holds a value for one superstep (`__start__`, `branch:to:NODE`):
    /// cleared at the end of any superstep that did not write it.
    Ephemeral,
    /// A join (`join:A+B:C`): available once every named node has written.
    Barrier(Vec<String>),
    /// `__pregel_tasks` (LangGraph's non-accumulating `Topic`): the `Send`
    /// packets written in one superstep, each a PUSH task of the next;
    /// emptied at the end of a superstep that wrote none.
    Tasks,
    /// `branch:to:NODE` of a deferred node (LangGraph's
    /// `LastValueAfterFinish`): the last value written, available only
    /// once the run would otherwise finish (LangGraph's `finish()`), then
    /// cleared by the task it triggers. Stored as `[value, finished]`, as
    /// LangGraph (both) checkpoints it.
    LastValueAfterFinish,
    /// A join into a deferred node (LangGraph's
    /// `NamedBarrierValueAfterFinish`): complete once every named node has
    /// written, available only once finished too. Stored as
    /// `[[seen names], finished]`.
    BarrierAfterFinish(Vec<String>),
}

impl ChannelKind {
    /// Applies one superstep's writes. Returns whether the channel changed
    /// (and so gets the superstep's new version).
    pub(crate) fn update(
        &self,
        key: &str,
        slot: &mut Option<ChannelValue>,
        values: Vec<Value>,
        ids: &IdGenerator,
    ) -> Result<bool> {
        match self {
            ChannelKind::State(reducer) => match reducer.reduce(key, slot.as_ref(), values, ids)? {
                Some(v) => {
                    *slot = Some(v);
                    Ok(true)
                }
                None => Ok(false),
            },
            ChannelKind::Ephemeral => match values.into_iter().last() {
                Some(v) => {
                    *slot = Some(ChannelValue::from_json(v));
                    Ok(true)
                }
                None => Ok(slot.take().is_some()),
            },
            ChannelKind::Tasks => {
                if values.is_empty() {
                    // Cleared (kept as an empty list, as LangGraph stores it).
                    let had = slot.as_ref().and_then(ChannelValue::len).unwrap_or(0) > 0;
                    if had {
                        *slot = Some(ChannelValue::List(Default::default()));
                    }
                    return Ok(had);
                }
                *slot = Some(ChannelValue::List(
                    values.into_iter().map(std::sync::Arc::new).collect(),
                ));
                Ok(true)
            }
            ChannelKind::Barrier(names) => {
                let mut seen = seen_names(slot);
                let updated = add_names(key, names, &mut seen, values)?;
                if updated {
                    *slot = Some(ChannelValue::List(
                        seen.into_iter()
                            .map(|s| std::sync::Arc::new(Value::String(s)))
                            .collect(),
                    ));
                }
                Ok(updated)
            }
            // A write makes the value pending again, until the next finish.
            ChannelKind::LastValueAfterFinish => match values.into_iter().last() {
                Some(v) => {
                    *slot = Some(after_finish(v, false));
                    Ok(true)
                }
                None => Ok(false),
            },
            ChannelKind::BarrierAfterFinish(names) => {
                let (mut seen, finished) = finished_names(slot.as_ref());
                let updated = add_names(key, names, &mut seen, values)?;
                if updated {
                    *slot = Some(after_finish(
                        Value::Array(seen.into_iter().map(Value::String).collect()),
                        finished,
                    ));
                }
                Ok(updated)
            }
        }
    }

    /// Whether consuming this kind can change it (only then does
    /// `apply_writes` look at it after its task ran).
    pub(crate) fn is_consumable(&self) -> bool {
        matches!(
            self,
            ChannelKind::Barrier(_)
                | ChannelKind::LastValueAfterFinish
                | ChannelKind::BarrierAfterFinish(_)
        )
    }

    /// Called on a trigger channel after its task ran: a complete barrier
    /// resets, a finished deferred channel clears. Returns whether the
    /// channel changed.
    pub(crate) fn consume(&self, slot: &mut Option<ChannelValue>) -> bool {
        match self {
            ChannelKind::Barrier(names) if seen_names(slot).len() == names.len() => {
                *slot = Some(ChannelValue::List(Default::default()));
                true
            }
            ChannelKind::LastValueAfterFinish if finish_parts(slot.as_ref()).1 => {
                *slot = None;
                true
            }
            ChannelKind::BarrierAfterFinish(names) => {
                let (seen, finished) = finished_names(slot.as_ref());
                if !finished || seen.len() != names.len() {
                    return false;
                }
                *slot = Some(after_finish(Value::Array(Vec::new()), false));
                true
            }
            _ => false,
        }
    }

    /// Whether this kind waits for the run to finish (see [`finish`](Self::finish)).
    pub(crate) fn waits_for_finish(&self) -> bool {
        matches!(
            self,
            ChannelKind::LastValueAfterFinish | ChannelKind::BarrierAfterFinish(_)
        )
    }

    /// LangGraph's `finish()`, called on every channel when a superstep
    /// triggers no node (the run would end): a deferred node's pending
    /// value (or complete join) becomes available. Returns whether the
    /// channel changed.
    pub(crate) fn finish(&self, slot: &mut Option<ChannelValue>) -> bool {
        let value = match self {
            ChannelKind::LastValueAfterFinish => match finish_parts(slot.as_ref()) {
                (Some(value), false) => value.clone(),
                _ => return false,
            },
            ChannelKind::BarrierAfterFinish(names) => match finished_names(slot.as_ref()) {
                (seen, false) if seen.len() == names.len() => {
                    Value::Array(seen.into_iter().map(Value::String).collect())
                }
                _ => return false,
            },
            _ => return false,
        };
        *slot = Some(after_finish(value, true));
        true
    }

    /// Whether the channel has a value that can be read (or trigger a node).
    pub(crate) fn is_available(&self, slot: Option<&ChannelValue>) -> bool {
        match self {
            ChannelKind::Barrier(names) => {
                slot.and_then(ChannelValue::len).unwrap_or(0) == names.len()
            }
            ChannelKind::Tasks => slot.and_then(ChannelValue::len).unwrap_or(0) > 0,
            ChannelKind::LastValueAfterFinish => finish_parts(slot).1,
            ChannelKind::BarrierAfterFinish(names) => {
                let (seen, finished) = finished_names(slot);
                finished && seen.len() == names.len()
            }
            _ => slot.is_some(),
        }
    }
}

/// A barrier's update: each written name joins `seen` (kept sorted);
/// returns whether one was new. A name the barrier does not wait for is
/// LangGraph's `InvalidUpdateError`.
fn add_names(
    key: &str,
    names: &[String],
    seen: &mut Vec<String>,
    values: Vec<Value>,
) -> Result<bool> {
    let mut updated = false;
    for v in values {
        let name = v.as_str().unwrap_or_default();
        if !names.iter().any(|n| n == name) {
            return Err(barrier_error(key, &v, names));
        }
        if !seen.iter().any(|s| s == name) {
            seen.push(name.to_owned());
            updated = true;
        }
    }
    if updated {
        seen.sort();
    }
    Ok(updated)
}

/// LangGraph's error for a barrier written a name it does not wait for.
fn barrier_error(key: &str, value: &Value, names: &[String]) -> Error {
    Error::invalid_update(format!(
        "At key '{key}': Value {value} not in {{{}}}",
        names
            .iter()
            .map(|n| format!("'{n}'"))
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// A deferred channel's stored `[value, finished]`.
fn after_finish(value: Value, finished: bool) -> ChannelValue {
    ChannelValue::from_json(Value::Array(vec![value, Value::Bool(finished)]))
}

/// A deferred channel's stored value (a join's seen names) and whether
/// it finished; `None` when unset.
fn finish_parts(slot: Option<&ChannelValue>) -> (Option<&Value>, bool) {
    let Some(list) = slot.and_then(ChannelValue::as_list) else {
        return (None, false);
    };
    let finished = list.get(1).and_then(|v| v.as_bool()).unwrap_or(false);
    (list.get(0).map(|v| &**v), finished)
}

/// The names a deferred join has seen.
fn finished_names(slot: Option<&ChannelValue>) -> (Vec<String>, bool) {
    let (value, finished) = finish_parts(slot);
    let names = value
        .and_then(Value::as_array)
        .map(|l| {
            l.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    (names, finished)
}

fn seen_names(slot: &Option<ChannelValue>) -> Vec<String> {
    slot.as_ref()
        .and_then(ChannelValue::as_list)
        .map(|l| {
            l.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ManualClock;
    use serde_json::json;
    use std::rc::Rc;

    fn ids() -> IdGenerator {
        IdGenerator::with_seed(Rc::new(ManualClock::new()), 1)
    }

    #[test]
    fn ephemeral_clears_on_an_empty_update() {
        let mut slot = None;
        let k = ChannelKind::Ephemeral;
        assert!(k.update("e", &mut slot, vec![json!(null)], &ids()).unwrap());
        assert!(k.is_available(slot.as_ref()));
        assert!(k.update("e", &mut slot, vec![], &ids()).unwrap());
        assert!(!k.is_available(slot.as_ref()));
        assert!(!k.update("e", &mut slot, vec![], &ids()).unwrap());
    }

    #[test]
    fn barrier_waits_for_every_name_then_resets_on_consume() {
        let k = ChannelKind::Barrier(vec!["a".into(), "b".into()]);
        let mut slot = None;
        assert!(k.update("j", &mut slot, vec![json!("a")], &ids()).unwrap());
        assert!(!k.is_available(slot.as_ref()));
        assert!(!k.update("j", &mut slot, vec![json!("a")], &ids()).unwrap());
        assert!(k.update("j", &mut slot, vec![json!("b")], &ids()).unwrap());
        assert!(k.is_available(slot.as_ref()));
        assert!(k.consume(&mut slot));
        assert!(!k.is_available(slot.as_ref()));
        assert_rejects_unknown_name(&k, &mut slot);
    }

    /// A name barrier `k` (waiting for `a` and `b`) does not wait for is
    /// LangGraph's error.
    fn assert_rejects_unknown_name(k: &ChannelKind, slot: &mut Option<ChannelValue>) {
        let err = k.update("j", slot, vec![json!("z")], &ids()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "InvalidUpdateError: At key 'j': Value \"z\" not in {'a', 'b'}"
        );
    }

    #[test]
    fn last_value_after_finish_is_available_only_between_finish_and_consume() {
        let k = ChannelKind::LastValueAfterFinish;
        let mut slot = None;
        assert!(!k.finish(&mut slot), "nothing to finish");
        assert!(k.update("b", &mut slot, vec![json!("x")], &ids()).unwrap());
        assert!(!k.is_available(slot.as_ref()));
        assert!(!k.update("b", &mut slot, vec![], &ids()).unwrap());
        assert!(!k.consume(&mut slot), "an unfinished value stays");
        assert!(k.finish(&mut slot));
        assert!(!k.finish(&mut slot), "finished once");
        assert!(k.is_available(slot.as_ref()));
        assert_eq!(
            slot.as_ref().map(ChannelValue::to_json),
            Some(json!(["x", true]))
        );
        // A write after the finish makes the value pending again.
        assert!(k
            .update("b", &mut slot, vec![json!(["y"])], &ids())
            .unwrap());
        assert_eq!(
            slot.as_ref().map(ChannelValue::to_json),
            Some(json!([["y"], false]))
        );
        assert!(k.finish(&mut slot));
        assert_eq!(
            slot.as_ref().map(ChannelValue::to_json),
            Some(json!([["y"], true]))
        );
        assert!(k.consume(&mut slot));
        assert_eq!(slot, None);
    }

    #[test]
    fn barrier_after_finish_needs_every_name_and_the_finish() {
        let k = ChannelKind::BarrierAfterFinish(vec!["a".into(), "b".into()]);
        let mut slot = None;
        assert!(k.update("j", &mut slot, vec![json!("b")], &ids()).unwrap());
        assert!(!k.finish(&mut slot), "incomplete");
        assert!(k.update("j", &mut slot, vec![json!("a")], &ids()).unwrap());
        assert!(!k.is_available(slot.as_ref()));
        assert!(!k.consume(&mut slot));
        assert!(k.finish(&mut slot));
        assert!(k.is_available(slot.as_ref()));
        assert_eq!(
            slot.as_ref().map(ChannelValue::to_json),
            Some(json!([["a", "b"], true]))
        );
        assert!(k.consume(&mut slot));
        assert_eq!(
            slot.as_ref().map(ChannelValue::to_json),
            Some(json!([[], false]))
        );
        assert_rejects_unknown_name(&k, &mut slot);
    }
}
