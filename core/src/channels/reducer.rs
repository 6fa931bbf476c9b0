//! Reducers: how a state channel folds the values written to it in one superstep.

use super::messages::{add_messages, messages_delta};
use super::value::{py_type, ChannelValue};
use crate::clock::IdGenerator;
use crate::error::{troubleshooting, Error, Result};
use serde_json::{Number, Value};
use std::fmt;
use std::rc::Rc;
use std::sync::Arc;

/// A user-defined reducer: `(current, written) -> new`. `current` is the
/// channel's value, or the default when the channel is still empty.
pub type ReduceFn = dyn Fn(Option<&ChannelValue>, Value) -> Result<ChannelValue>;

/// A named custom reducer with an optional default for an empty channel.
#[derive(Clone)]
pub struct CustomReducer {
    func: Rc<ReduceFn>,
    default: Option<Rc<dyn Fn() -> Value>>,
}

impl CustomReducer {
    /// A reducer from a function over the current value and one written value.
    pub fn new(
        func: impl Fn(Option<&ChannelValue>, Value) -> Result<ChannelValue> + 'static,
    ) -> Self {
        CustomReducer {
            func: Rc::new(func),
            default: None,
        }
    }

    /// The same reducer, starting from `default()` instead of the first write.
    pub fn with_default(mut self, default: impl Fn() -> Value + 'static) -> Self {
        self.default = Some(Rc::new(default));
        self
    }
}

impl fmt::Debug for CustomReducer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CustomReducer")
    }
}

/// How a state channel combines writes.
#[derive(Clone, Debug, Default)]
pub enum Reducer {
    /// Keeps the single value written in a superstep; two writers in one
    /// superstep is an `InvalidUpdateError`.
    #[default]
    LastValue,
    /// List concatenation (`operator.add` on lists).
    Append,
    /// Number addition (`operator.add` on numbers).
    Sum,
    /// LangGraph's `add_messages`: append, replace by `id`, remove.
    AddMessages,
    /// LangGraph.js's `messagesDeltaReducer` (`MessagesDeltaValue`):
    /// `add_messages` where removing an unknown id is no error.
    MessagesDelta,
    /// A user function.
    Custom(CustomReducer),
    /// LangGraph's `UntrackedValue(guard)`: the last value written, kept
    /// while a run goes on but never checkpointed (a saver gets neither
    /// its value nor its writes). With `guard`, two writes in one superstep
    /// are an `InvalidUpdateError`.
    Untracked {
        /// Refuse more than one write per superstep.
        guard: bool,
    },
}

impl Reducer {
    /// The reducer named in the JSON graph format.
    pub fn from_name(name: &str) -> Option<Reducer> {
        Some(match name {
            "last_value" => Reducer::LastValue,
            "append" => Reducer::Append,
            "sum" => Reducer::Sum,
            "add_messages" => Reducer::AddMessages,
            "messages_delta" => Reducer::MessagesDelta,
            "untracked" => Reducer::Untracked { guard: true },
            _ => return None,
        })
    }

    /// The name used in the JSON graph format (`custom` for user functions).
    pub fn name(&self) -> &'static str {
        match self {
            Reducer::LastValue => "last_value",
            Reducer::Append => "append",
            Reducer::Sum => "sum",
            Reducer::AddMessages => "add_messages",
            Reducer::MessagesDelta => "messages_delta",
            Reducer::Custom(_) => "custom",
            Reducer::Untracked { .. } => "untracked",
        }
    }

    /// Folds one superstep's writes into `current`. Returns `None` when
    /// nothing was written (the channel is unchanged). A `current` equal to
    /// `undefined` (JavaScript's, see [`crate::Semantics::js_undefined`])
    /// is an empty aggregate, as in LangGraph.js: the first write is taken
    /// as is, without the default.
    pub(crate) fn reduce(
        &self,
        key: &str,
        current: Option<&ChannelValue>,
        values: Vec<Value>,
        ids: &IdGenerator,
        undefined: Option<&Value>,
    ) -> Result<Option<ChannelValue>> {
        if values.is_empty() {
            return Ok(None);
        }
        if let Reducer::LastValue = self {
            if values.len() != 1 {
                return Err(Error::invalid_update(format!(
                    "At key '{key}': Can receive only one value per step. Use an Annotated key to handle multiple values.{}",
                    troubleshooting("INVALID_CONCURRENT_GRAPH_UPDATE")
                ))
                .with_values(values));
            }
            let value = values.into_iter().next().unwrap_or(Value::Null);
            return Ok(Some(ChannelValue::from_json(value)));
        }
        if let Reducer::Untracked { guard } = self {
            if *guard && values.len() != 1 {
                return Err(Error::invalid_update(format!(
                    "At key '{key}': UntrackedValue(guard=True) can receive only one value per step. Use guard=False if you want to store any one of multiple values."
                ))
                .with_values(values));
            }
            let value = values.into_iter().last().unwrap_or(Value::Null);
            return Ok(Some(ChannelValue::from_json(value)));
        }
        let emptied = matches!((current, undefined), (Some(c), Some(u)) if c.equals_json(u));
        let mut acc: Option<ChannelValue> = current.filter(|_| !emptied).cloned();
        if acc.is_none() && !emptied {
            if let Reducer::Custom(CustomReducer {
                default: Some(default),
                ..
            }) = self
            {
                acc = Some(ChannelValue::from_json(default()));
            }
        }
        if values.iter().any(|v| overwrite_value(v).is_some()) {
            return self.reduce_with_overwrite(key, acc, values, ids).map(Some);
        }
        for value in values {
            acc = Some(self.step(acc.as_ref(), value, ids)?);
        }
        Ok(acc)
    }

    /// [`reduce`](Self::reduce) of writes among which is an `Overwrite`
    /// (LangGraph's `BinaryOperatorAggregate.update`): the value becomes
    /// the Overwrite's, writes after it are dropped, a second one is an
    /// `InvalidUpdateError`. An empty aggregate takes its first write as
    /// is (an Overwrite unwrapped, and not counted), as LangGraph.js does.
    #[cold]
    fn reduce_with_overwrite(
        &self,
        key: &str,
        mut acc: Option<ChannelValue>,
        written: Vec<Value>,
        ids: &IdGenerator,
    ) -> Result<ChannelValue> {
        let mut values = written.iter();
        if acc.is_none() {
            if let Some(first) = values.next() {
                acc = Some(match overwrite_value(first) {
                    Some(v) => self.overwritten(v, ids)?,
                    None => self.step(None, first.clone(), ids)?,
                });
            }
        }
        let mut seen_overwrite = false;
        for value in values {
            if let Some(v) = overwrite_value(value) {
                if seen_overwrite {
                    return Err(overwrite_twice().with_channel_values(key, written.clone()));
                }
                seen_overwrite = true;
                acc = Some(self.overwritten(v, ids)?);
            } else if !seen_overwrite {
                acc = Some(self.step(acc.as_ref(), value.clone(), ids)?);
            }
        }
        Ok(acc.unwrap_or_else(|| ChannelValue::from_json(Value::Null)))
    }

    /// The value an `Overwrite` of `v` leaves: `v` itself, but messages
    /// for an `add_messages` channel (which LangGraph coerces on its next
    /// reduce, as the left side: its reducer here takes the left side as
    /// messages already).
    fn overwritten(&self, v: &Value, ids: &IdGenerator) -> Result<ChannelValue> {
        match self {
            Reducer::AddMessages => add_messages(None, v.clone(), ids).map(ChannelValue::List),
            Reducer::MessagesDelta => messages_delta(None, v.clone(), ids).map(ChannelValue::List),
            _ => Ok(ChannelValue::from_json(v.clone())),
        }
    }

    fn step(
        &self,
        acc: Option<&ChannelValue>,
        value: Value,
        ids: &IdGenerator,
    ) -> Result<ChannelValue> {
        match self {
            Reducer::LastValue | Reducer::Untracked { .. } => Ok(ChannelValue::from_json(value)),
            Reducer::Append => append(acc, value),
            Reducer::Sum => sum(acc, value),
            Reducer::AddMessages => add_messages(acc.and_then(ChannelValue::as_list), value, ids)
                .map(ChannelValue::List),
            Reducer::MessagesDelta => {
                messages_delta(acc.and_then(ChannelValue::as_list), value, ids)
                    .map(ChannelValue::List)
            }
            Reducer::Custom(c) => (c.func)(acc, value),
        }
    }
}

/// The `__overwrite__` key of LangGraph's `Overwrite` in its wire form.
pub const OVERWRITE: &str = "__overwrite__";

/// The value an update wraps in LangGraph's `Overwrite` (`{"__overwrite__":
/// v}`, or the `{"type": "__overwrite__", "value": v}` a serialized Python
/// `Overwrite` becomes), which replaces a reducer channel's value instead of
/// being reduced; `None` for any other update. An object holding the key
/// among others is one too, as LangGraph.js checks (`"__overwrite__" in v`).
pub fn overwrite_value(update: &Value) -> Option<&Value> {
    let Value::Object(map) = update else {
        return None;
    };
    if let Some(v) = map.get(OVERWRITE) {
        return Some(v);
    }
    match map.get("type") {
        Some(Value::String(t)) if t == OVERWRITE => map.get("value"),
        _ => None,
    }
}

/// LangGraph's error for a second `Overwrite` to one channel in a superstep.
#[cold]
fn overwrite_twice() -> Error {
    Error::invalid_update(format!(
        "Can receive only one Overwrite value per super-step.{}",
        troubleshooting("INVALID_CONCURRENT_GRAPH_UPDATE")
    ))
}

fn append(acc: Option<&ChannelValue>, value: Value) -> Result<ChannelValue> {
    let Value::Array(items) = value else {
        return Err(Error::type_error(format!(
            "can only concatenate list (not \"{}\") to list",
            py_type(&value)
        )));
    };
    match acc {
        None => Ok(ChannelValue::List(
            items.into_iter().map(Arc::new).collect(),
        )),
        Some(ChannelValue::List(list)) => {
            let mut list = list.clone();
            list.extend(items.into_iter().map(Arc::new));
            Ok(ChannelValue::List(list))
        }
        Some(other) => Err(Error::type_error(format!(
            "unsupported operand type(s) for +: '{}' and 'list'",
            other.py_type()
        ))),
    }
}

fn sum(acc: Option<&ChannelValue>, value: Value) -> Result<ChannelValue> {
    let Value::Number(b) = &value else {
        let left = acc.map_or("int", ChannelValue::py_type);
        return Err(Error::type_error(format!(
            "unsupported operand type(s) for +: '{left}' and '{}'",
            py_type(&value)
        )));
    };
    let Some(acc) = acc else {
        return Ok(ChannelValue::from_json(value));
    };
    let Some(Value::Number(a)) = acc.as_json() else {
        return Err(Error::type_error(format!(
            "unsupported operand type(s) for +: '{}' and '{}'",
            acc.py_type(),
            py_type(&value)
        )));
    };
    Ok(ChannelValue::from_json(Value::Number(add_numbers(a, b))))
}

/// `a + b` keeping integers integral, as Python does.
pub(crate) fn add_numbers(a: &Number, b: &Number) -> Number {
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        if let Some(s) = x.checked_add(y) {
            return Number::from(s);
        }
    }
    let s = a.as_f64().unwrap_or(0.0) + b.as_f64().unwrap_or(0.0);
    Number::from_f64(s).unwrap_or_else(|| Number::from(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `reducer`'s fold of `writes` into `current` at channel `key`: the
    /// new value (each call here changes it), or the error.
    fn fold(
        reducer: &Reducer,
        key: &str,
        current: Option<Value>,
        writes: Vec<Value>,
    ) -> Result<Value> {
        let current = current.map(ChannelValue::from_json);
        let ids = crate::clock::test_ids(7);
        let folded = reducer.reduce(key, current.as_ref(), writes, &ids, None)?;
        Ok(folded.expect("the value changes").to_json())
    }

    #[test]
    fn last_value_rejects_two_writes_in_one_step() {
        let err = fold(&Reducer::LastValue, "x", None, vec![json!(1), json!(2)]).unwrap_err();
        assert!(err
            .to_string()
            .starts_with("InvalidUpdateError: At key 'x': Can receive only one value per step."));
    }

    #[test]
    fn append_concatenates_and_rejects_non_lists() {
        let log = |writes| fold(&Reducer::Append, "log", Some(json!(["a"])), writes);
        let out = log(vec![json!(["b"]), json!(["c"])]);
        assert_eq!(out.unwrap(), json!(["a", "b", "c"]));
        assert_eq!(
            log(vec![json!("x")]).unwrap_err().to_string(),
            "TypeError: can only concatenate list (not \"str\") to list"
        );
    }

    #[test]
    fn sum_keeps_integers_and_rejects_strings() {
        let total = |writes| fold(&Reducer::Sum, "t", Some(json!(1)), writes);
        assert_eq!(total(vec![json!(10), json!(100)]).unwrap(), json!(111));
        assert_eq!(
            total(vec![json!("x")]).unwrap_err().to_string(),
            "TypeError: unsupported operand type(s) for +: 'int' and 'str'"
        );
    }

    #[test]
    fn an_overwrite_replaces_the_value_and_drops_the_other_writes() {
        let writes = vec![json!(["b"]), json!({OVERWRITE: ["o"]}), json!(["c"])];
        let out = fold(&Reducer::Append, "log", Some(json!(["a"])), writes);
        assert_eq!(out.unwrap(), json!(["o"]));
        // The form a serialized Python `Overwrite` takes, on a sum channel.
        let writes = vec![json!({"type": OVERWRITE, "value": 9}), json!(1)];
        let out = fold(&Reducer::Sum, "t", Some(json!(3)), writes);
        assert_eq!(out.unwrap(), json!(9));
        // A last-value channel keeps the wrapper as it was written.
        let out = fold(&Reducer::LastValue, "x", None, vec![json!({OVERWRITE: 1})]);
        assert_eq!(out.unwrap(), json!({OVERWRITE: 1}));
    }

    #[test]
    fn two_overwrites_in_one_step_are_an_invalid_update() {
        let writes = vec![json!({OVERWRITE: ["x"]}), json!({OVERWRITE: ["y"]})];
        let err = fold(&Reducer::Append, "log", Some(json!(["a"])), writes).unwrap_err();
        assert!(err.to_string().starts_with(
            "InvalidUpdateError: Can receive only one Overwrite value per super-step.\nFor troubleshooting"
        ));
    }

    /// An empty aggregate (no value, no default) takes its first write as
    /// LangGraph.js does, an Overwrite unwrapped and not counted as one;
    /// LangGraph (Python) never has an empty aggregate of a typed channel
    /// (a `list` starts from `[]`), and one typed `Any` stores the wrapper.
    #[test]
    fn an_empty_channel_takes_an_overwrite_unwrapped() {
        let writes = vec![
            json!({OVERWRITE: ["x"]}),
            json!({OVERWRITE: ["y"]}),
            json!(["z"]),
        ];
        let out = fold(&Reducer::Append, "log", None, writes);
        assert_eq!(out.unwrap(), json!(["y"]));
        assert_eq!(overwrite_value(&json!({"other": 1})), None);
        assert_eq!(overwrite_value(&json!({"type": OVERWRITE})), None);
    }

    #[test]
    fn custom_reducer_starts_from_its_default() {
        let r = Reducer::Custom(
            CustomReducer::new(|cur, v| {
                let base = cur
                    .and_then(|c| c.as_json())
                    .and_then(Value::as_i64)
                    .unwrap_or(0);
                Ok(ChannelValue::from_json(json!(
                    base.max(v.as_i64().unwrap_or(0))
                )))
            })
            .with_default(|| json!(5)),
        );
        assert_eq!(fold(&r, "m", None, vec![json!(3)]).unwrap(), json!(5));
    }
}
