//! The kinds of channel a compiled graph uses, and their update rules
//! (LangGraph `channels/`: last_value, binop, ephemeral_value, named_barrier_value).

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
}

impl ChannelKind {
    /// Applies one superstep's writes. Returns whether the channel changed
    /// (and so gets the superstep's new version). A reducer channel holding
    /// `undefined` (the graph's [`crate::CompileOptions::js_undefined`]) is
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
                let mut updated = false;
                for v in values {
                    let name = v.as_str().unwrap_or_default();
                    if !names.iter().any(|n| n == name) {
                        return Err(Error::invalid_update(format!(
                            "At key '{key}': Value {v} not in {{{}}}",
                            names
                                .iter()
                                .map(|n| format!("'{n}'"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )));
                    }
                    if !seen.iter().any(|s| s == name) {
                        seen.push(name.to_owned());
                        updated = true;
                    }
                }
                if updated {
                    seen.sort();
                    *slot = Some(ChannelValue::List(
                        seen.into_iter()
                            .map(|s| std::sync::Arc::new(Value::String(s)))
                            .collect(),
                    ));
                }
                Ok(updated)
            }
        }
    }

    /// Called on a trigger channel after its task ran: a complete barrier
    /// resets. Returns whether the channel changed.
    pub(crate) fn consume(&self, slot: &mut Option<ChannelValue>) -> bool {
        if let ChannelKind::Barrier(names) = self {
            if seen_names(slot).len() == names.len() {
                *slot = Some(ChannelValue::List(Default::default()));
                return true;
            }
        }
        false
    }

    /// Whether the channel has a value that can be read (or trigger a node).
    pub(crate) fn is_available(&self, slot: Option<&ChannelValue>) -> bool {
        match self {
            ChannelKind::Barrier(names) => {
                slot.and_then(ChannelValue::len).unwrap_or(0) == names.len()
            }
            ChannelKind::Tasks => slot.and_then(ChannelValue::len).unwrap_or(0) > 0,
            _ => slot.is_some(),
        }
    }
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
        assert!(k
            .update("e", &mut slot, vec![json!(null)], &ids(), None)
            .unwrap());
        assert!(k.is_available(slot.as_ref()));
        assert!(k.update("e", &mut slot, vec![], &ids(), None).unwrap());
        assert!(!k.is_available(slot.as_ref()));
        assert!(!k.update("e", &mut slot, vec![], &ids(), None).unwrap());
    }

    #[test]
    fn barrier_waits_for_every_name_then_resets_on_consume() {
        let k = ChannelKind::Barrier(vec!["a".into(), "b".into()]);
        let mut slot = None;
        assert!(k
            .update("j", &mut slot, vec![json!("a")], &ids(), None)
            .unwrap());
        assert!(!k.is_available(slot.as_ref()));
        assert!(!k
            .update("j", &mut slot, vec![json!("a")], &ids(), None)
            .unwrap());
        assert!(k
            .update("j", &mut slot, vec![json!("b")], &ids(), None)
            .unwrap());
        assert!(k.is_available(slot.as_ref()));
        assert!(k.consume(&mut slot));
        assert!(!k.is_available(slot.as_ref()));
        let err = k
            .update("j", &mut slot, vec![json!("z")], &ids(), None)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "InvalidUpdateError: At key 'j': Value \"z\" not in {'a', 'b'}"
        );
    }
}
