//! The join barrier (LangGraph's `channels/named_barrier_value.py`): the
//! channel `join:A+B:C` that an edge from several nodes makes. Each source
//! writes its own name; the target runs once every name was written, and
//! the task that runs it resets the barrier.
//!
//! - `NamedBarrierValue` ([`ChannelKind::Barrier`]) stores the names seen
//!   so far, a sorted list;
//! - `NamedBarrierValueAfterFinish` ([`ChannelKind::BarrierAfterFinish`]),
//!   a join into a deferred node (`add_node(defer=True)`), stores
//!   `[[seen names], finished]` and is available only once complete and
//!   finished (the run would otherwise end).
//!
//! What LangGraph (Python) stores of a live seen-set when it saves in the
//! background is replayed by `pregel/thread_pool_saves.rs`.
//!
//! [`ChannelKind::Barrier`]: super::ChannelKind::Barrier
//! [`ChannelKind::BarrierAfterFinish`]: super::ChannelKind::BarrierAfterFinish

use super::kind::{after_finish, finish_parts};
use super::ChannelValue;
use crate::error::{Error, Result};
use serde_json::Value;
use std::sync::Arc;

/// `NamedBarrierValue.update` (and, `deferred`,
/// `NamedBarrierValueAfterFinish.update`, which keeps its finished flag):
/// the names in `values` join the seen set; returns whether one was new.
pub(super) fn update(
    key: &str,
    names: &[String],
    slot: &mut Option<ChannelValue>,
    values: Vec<Value>,
    deferred: bool,
) -> Result<bool> {
    let (mut seen, finished) = match deferred {
        true => finished_names(slot.as_ref()),
        false => (seen_names(slot.as_ref()), false),
    };
    if !add_names(key, names, &mut seen, values)? {
        return Ok(false);
    }
    *slot = Some(match deferred {
        true => after_finish(names_value(seen), finished),
        false => ChannelValue::List(
            seen.into_iter()
                .map(|s| Arc::new(Value::String(s)))
                .collect(),
        ),
    });
    Ok(true)
}

/// `NamedBarrierValue.consume`: a complete barrier resets (an empty list);
/// returns whether it did.
pub(super) fn consume(names: &[String], slot: &mut Option<ChannelValue>) -> bool {
    if seen_names(slot.as_ref()).len() != names.len() {
        return false;
    }
    *slot = Some(ChannelValue::List(Default::default()));
    true
}

/// `NamedBarrierValue.is_available`: every name was written.
#[inline]
pub(super) fn is_available(names: &[String], slot: Option<&ChannelValue>) -> bool {
    slot.and_then(ChannelValue::len).unwrap_or(0) == names.len()
}

/// `NamedBarrierValueAfterFinish.consume`: a complete, finished barrier
/// resets (no names, not finished); returns whether it did.
pub(super) fn consume_after_finish(names: &[String], slot: &mut Option<ChannelValue>) -> bool {
    let (seen, finished) = finished_names(slot.as_ref());
    if !finished || seen.len() != names.len() {
        return false;
    }
    *slot = Some(after_finish(Value::Array(Vec::new()), false));
    true
}

/// `NamedBarrierValueAfterFinish.finish`: the names of a complete barrier
/// not yet finished (to store as finished), or `None`.
pub(super) fn finished(names: &[String], slot: Option<&ChannelValue>) -> Option<Value> {
    match finished_names(slot) {
        (seen, false) if seen.len() == names.len() => Some(names_value(seen)),
        _ => None,
    }
}

/// `NamedBarrierValueAfterFinish.is_available`: complete and finished.
pub(super) fn is_available_after_finish(names: &[String], slot: Option<&ChannelValue>) -> bool {
    let (seen, finished) = finished_names(slot);
    finished && seen.len() == names.len()
}

/// The names a `NamedBarrierValue` holding `slot` has seen.
pub(crate) fn seen_names(slot: Option<&ChannelValue>) -> Vec<String> {
    strings(slot.into_iter().flat_map(ChannelValue::items))
}

/// The names a deferred join has seen, and whether it finished.
fn finished_names(slot: Option<&ChannelValue>) -> (Vec<String>, bool) {
    let (value, finished) = finish_parts(slot);
    let names = value.and_then(Value::as_array).into_iter().flatten();
    (strings(names), finished)
}

/// The strings among `values`.
fn strings<'a>(values: impl Iterator<Item = &'a Value>) -> Vec<String> {
    values
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect()
}

/// Names as a JSON list.
fn names_value(names: Vec<String>) -> Value {
    Value::Array(names.into_iter().map(Value::String).collect())
}

/// Each written name joins `seen` (kept sorted); returns whether one was
/// new. A name the barrier does not wait for is LangGraph's
/// `InvalidUpdateError`.
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

#[cfg(test)]
mod tests {
    use super::super::ChannelKind;
    use super::*;
    use serde_json::json;

    #[test]
    fn barrier_waits_for_every_name_then_resets_on_consume() {
        let k = ChannelKind::Barrier(vec!["a".into(), "b".into()]);
        let mut slot = None;
        assert!(k.write("j", &mut slot, vec![json!("a")]).unwrap());
        assert!(!k.is_available(slot.as_ref()));
        assert!(!k.write("j", &mut slot, vec![json!("a")]).unwrap());
        assert!(k.write("j", &mut slot, vec![json!("b")]).unwrap());
        assert!(k.is_available(slot.as_ref()));
        assert!(k.consume(&mut slot));
        assert!(!k.is_available(slot.as_ref()));
        assert_rejects_unknown_name(&k, &mut slot);
    }

    /// A name barrier `k` (waiting for `a` and `b`) does not wait for is
    /// LangGraph's error.
    fn assert_rejects_unknown_name(k: &ChannelKind, slot: &mut Option<ChannelValue>) {
        let err = k.write("j", slot, vec![json!("z")]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "InvalidUpdateError: At key 'j': Value \"z\" not in {'a', 'b'}"
        );
    }

    #[test]
    fn barrier_after_finish_needs_every_name_and_the_finish() {
        let k = ChannelKind::BarrierAfterFinish(vec!["a".into(), "b".into()]);
        let mut slot = None;
        assert!(k.write("j", &mut slot, vec![json!("b")]).unwrap());
        assert!(!k.finish(&mut slot), "incomplete");
        assert!(k.write("j", &mut slot, vec![json!("a")]).unwrap());
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
