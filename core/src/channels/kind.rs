//! The kinds of channel a compiled graph uses, and their update rules
//! (LangGraph `channels/`: last_value, binop, ephemeral_value, any_value,
//! topic, named_barrier_value, and the `*AfterFinish` channels of deferred
//! nodes). A [`StateGraph`](crate::StateGraph) makes its own; a
//! [`Pregel`](crate::Pregel) graph is given them, built with the
//! constructors named after LangGraph's channel classes.

use super::{named_barrier_value, ChannelValue, Reducer};
use crate::clock::IdGenerator;
use crate::error::{Error, Result};
use serde_json::Value;

/// A channel of a compiled graph.
#[derive(Clone, Debug)]
pub enum ChannelKind {
    /// A state key with its reducer.
    State(Reducer),
    /// Holds a value for one superstep (`__start__`, `branch:to:NODE`;
    /// LangGraph's `EphemeralValue`, and its `AnyValue`, which behaves the
    /// same unguarded): cleared at the end of any superstep that did not
    /// write it. With `guard`, two writes in one superstep are an
    /// `InvalidUpdateError`; without, the last one is kept.
    Ephemeral {
        /// Refuse more than one write per superstep.
        guard: bool,
    },
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
    /// LangGraph's `Topic`: a list of every value written (a written list
    /// adds its items), emptied at the start of each superstep that
    /// updates it unless it `accumulate`s. A `unique` topic (LangGraph.js's
    /// `Topic({ unique: true })`) adds a value only the first time it is
    /// written, and stores `[seen, values]`.
    Topic {
        /// Keep the values of earlier supersteps.
        accumulate: bool,
        /// Drop values written before (compared as JSON values).
        unique: bool,
    },
}

impl ChannelKind {
    /// LangGraph's `LastValue`: the one value written in a superstep (two
    /// writes in one superstep are an `InvalidUpdateError`).
    pub fn last_value() -> Self {
        ChannelKind::State(Reducer::LastValue)
    }

    /// LangGraph's `BinaryOperatorAggregate`: every write folded into the
    /// value by `reducer` (give the channel a default for its initial value).
    pub fn binary_operator_aggregate(reducer: Reducer) -> Self {
        ChannelKind::State(reducer)
    }

    /// LangGraph's `EphemeralValue(guard)`: the value written in the previous
    /// superstep only.
    pub fn ephemeral_value(guard: bool) -> Self {
        ChannelKind::Ephemeral { guard }
    }

    /// LangGraph's `AnyValue`: the last value written in the previous
    /// superstep (several writes are fine: they are assumed equal).
    pub fn any_value() -> Self {
        ChannelKind::Ephemeral { guard: false }
    }

    /// LangGraph's `Topic(accumulate)`.
    pub fn topic(accumulate: bool) -> Self {
        ChannelKind::Topic {
            accumulate,
            unique: false,
        }
    }

    /// LangGraph.js's `Topic({ unique: true, accumulate })`.
    pub fn unique_topic(accumulate: bool) -> Self {
        ChannelKind::Topic {
            accumulate,
            unique: true,
        }
    }

    /// LangGraph's `NamedBarrierValue(names)`: available once each of
    /// `names` was written to it, then reset by the task it triggers.
    pub fn named_barrier_value(names: impl IntoIterator<Item = impl Into<String>>) -> Self {
        ChannelKind::Barrier(names.into_iter().map(Into::into).collect())
    }

    /// What a channel of this kind holds before anything is written, when
    /// LangGraph stores something for it then (a topic's empty list).
    pub(crate) fn initial(&self) -> Option<ChannelValue> {
        match self {
            ChannelKind::Topic { unique: false, .. } => {
                Some(ChannelValue::List(Default::default()))
            }
            ChannelKind::Topic { unique: true, .. } => {
                Some(ChannelValue::from_json(serde_json::json!([[], []])))
            }
            _ => None,
        }
    }

    /// The value a node or a run reads from a channel holding `value`: the
    /// value itself, but a unique topic's values without its seen list.
    pub(crate) fn read(&self, value: &ChannelValue) -> ChannelValue {
        match self {
            ChannelKind::Topic { unique: true, .. } => {
                ChannelValue::from_json(unique_parts(Some(value)).1.into())
            }
            _ => value.clone(),
        }
    }

    /// Applies one superstep's writes. Returns whether the channel changed
    /// (and so gets the superstep's new version). A reducer channel holding
    /// `undefined` (the graph's [`crate::Semantics::js_undefined`]) is
    /// empty: its first write is taken as is.
    pub(crate) fn update(
        &self,
        key: &str,
        slot: &mut Option<ChannelValue>,
        values: Vec<Value>,
        ids: &IdGenerator,
        undefined: Option<&Value>,
    ) -> Result<bool> {
        match self {
            ChannelKind::State(reducer) => {
                match reducer.reduce(key, slot.as_ref(), values, ids, undefined)? {
                    Some(v) => {
                        *slot = Some(v);
                        Ok(true)
                    }
                    None => Ok(false),
                }
            }
            ChannelKind::Ephemeral { guard } => {
                if *guard && values.len() > 1 {
                    return Err(Error::invalid_update(format!(
                        "At key '{key}': EphemeralValue(guard=True) can receive only one value per step. Use guard=False if you want to store any one of multiple values."
                    ))
                    .with_values(values));
                }
                match values.into_iter().last() {
                    Some(v) => {
                        *slot = Some(ChannelValue::from_json(v));
                        Ok(true)
                    }
                    None => Ok(slot.take().is_some()),
                }
            }
            ChannelKind::Topic { accumulate, unique } => {
                Ok(update_topic(slot, values, *accumulate, *unique))
            }
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
                named_barrier_value::update(key, names, slot, values, false)
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
                named_barrier_value::update(key, names, slot, values, true)
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
            ChannelKind::Barrier(names) => named_barrier_value::consume(names, slot),
            ChannelKind::LastValueAfterFinish if finish_parts(slot.as_ref()).1 => {
                *slot = None;
                true
            }
            ChannelKind::BarrierAfterFinish(names) => {
                named_barrier_value::consume_after_finish(names, slot)
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
            ChannelKind::BarrierAfterFinish(names) => {
                match named_barrier_value::finished(names, slot.as_ref()) {
                    Some(seen) => seen,
                    None => return false,
                }
            }
            _ => return false,
        };
        *slot = Some(after_finish(value, true));
        true
    }

    /// Whether the channel has a value that can be read (or trigger a node).
    #[inline]
    pub(crate) fn is_available(&self, slot: Option<&ChannelValue>) -> bool {
        match self {
            ChannelKind::State(_) | ChannelKind::Ephemeral { .. } => slot.is_some(),
            ChannelKind::Barrier(names) => named_barrier_value::is_available(names, slot),
            ChannelKind::Tasks | ChannelKind::Topic { unique: false, .. } => {
                slot.and_then(ChannelValue::len).unwrap_or(0) > 0
            }
            ChannelKind::Topic { unique: true, .. } => unique_topic_has_values(slot),
            ChannelKind::LastValueAfterFinish => finish_parts(slot).1,
            ChannelKind::BarrierAfterFinish(names) => {
                named_barrier_value::is_available_after_finish(names, slot)
            }
        }
    }
}

/// A deferred channel's stored `[value, finished]`.
pub(super) fn after_finish(value: Value, finished: bool) -> ChannelValue {
    ChannelValue::from_json(Value::Array(vec![value, Value::Bool(finished)]))
}

/// A deferred channel's stored value (a join's seen names) and whether
/// it finished; `None` when unset.
pub(super) fn finish_parts(slot: Option<&ChannelValue>) -> (Option<&Value>, bool) {
    let Some(list) = slot.and_then(ChannelValue::as_list) else {
        return (None, false);
    };
    let finished = list.get(1).and_then(|v| v.as_bool()).unwrap_or(false);
    (list.get(0).map(|v| &**v), finished)
}

/// LangGraph's `Topic.update`: a topic that does not accumulate is
/// emptied first (a change when it had values); each written value, a
/// list's items one by one, is added (for a unique topic only if never
/// seen). Returns whether the topic changed.
fn update_topic(
    slot: &mut Option<ChannelValue>,
    values: Vec<Value>,
    accumulate: bool,
    unique: bool,
) -> bool {
    let items = values.into_iter().flat_map(|v| match v {
        Value::Array(items) => items,
        other => vec![other],
    });
    if !unique {
        let had = slot.as_ref().and_then(ChannelValue::len).unwrap_or(0) > 0;
        let mut list = match slot.take() {
            Some(ChannelValue::List(list)) if accumulate => list,
            _ => Default::default(),
        };
        let mut updated = had && !accumulate;
        for item in items {
            list.push_back(std::sync::Arc::new(item));
            updated = true;
        }
        *slot = Some(ChannelValue::List(list));
        return updated;
    }
    let (mut seen, mut current) = unique_parts(slot.as_ref());
    let mut updated = false;
    if !accumulate {
        updated = !current.is_empty();
        current.clear();
    }
    for item in items {
        if !seen.contains(&item) {
            seen.push(item.clone());
            current.push(item);
            updated = true;
        }
    }
    *slot = Some(ChannelValue::from_json(Value::Array(vec![
        Value::Array(seen),
        Value::Array(current),
    ])));
    updated
}

/// Whether a unique topic's stored `[seen, values]` has values.
#[cold]
fn unique_topic_has_values(slot: Option<&ChannelValue>) -> bool {
    slot.and_then(ChannelValue::as_list)
        .and_then(|l| l.get(1))
        .and_then(|v| v.as_array())
        .is_some_and(|values| !values.is_empty())
}

/// A unique topic's stored `[seen, values]`.
fn unique_parts(slot: Option<&ChannelValue>) -> (Vec<Value>, Vec<Value>) {
    let part = |i: usize| {
        slot.and_then(ChannelValue::as_list)
            .and_then(|l| l.get(i))
            .and_then(|v| v.as_array().cloned())
            .unwrap_or_default()
    };
    (part(0), part(1))
}

/// [`ChannelKind::update`] as unit tests call it: the ids of
/// [`test_ids`](crate::clock::test_ids), no `undefined`.
#[cfg(test)]
impl ChannelKind {
    pub(super) fn write(
        &self,
        key: &str,
        slot: &mut Option<ChannelValue>,
        values: Vec<Value>,
    ) -> Result<bool> {
        self.update(key, slot, values, &crate::clock::test_ids(1), None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ephemeral_clears_on_an_empty_update() {
        let mut slot = None;
        let k = ChannelKind::any_value();
        assert!(k.write("e", &mut slot, vec![json!(null)]).unwrap());
        assert!(k.is_available(slot.as_ref()));
        assert!(k.write("e", &mut slot, vec![]).unwrap());
        assert!(!k.is_available(slot.as_ref()));
        assert!(!k.write("e", &mut slot, vec![]).unwrap());
    }

    #[test]
    fn last_value_after_finish_is_available_only_between_finish_and_consume() {
        let k = ChannelKind::LastValueAfterFinish;
        let mut slot = None;
        assert!(!k.finish(&mut slot), "nothing to finish");
        assert!(k.write("b", &mut slot, vec![json!("x")]).unwrap());
        assert!(!k.is_available(slot.as_ref()));
        assert!(!k.write("b", &mut slot, vec![]).unwrap());
        assert!(!k.consume(&mut slot), "an unfinished value stays");
        assert!(k.finish(&mut slot));
        assert!(!k.finish(&mut slot), "finished once");
        assert!(k.is_available(slot.as_ref()));
        assert_eq!(
            slot.as_ref().map(ChannelValue::to_json),
            Some(json!(["x", true]))
        );
        // A write after the finish makes the value pending again.
        assert!(k.write("b", &mut slot, vec![json!(["y"])]).unwrap());
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
}
