//! [`ChannelValue`]: a channel's content, cheap to clone and to keep per version.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use std::sync::Arc;

pub use super::list::ChannelList;

/// The value held by a channel.
///
/// Lists are versions of an append-only log ([`ChannelList`]): the version
/// of an `append` or `add_messages` channel written at step 1,000 is the
/// version at step 999 plus one slot, so keeping every version costs memory
/// in proportion to what was written, not to the square of it. Everything
/// else is an immutable JSON value behind an `Arc`, so clones are pointer
/// copies.
#[derive(Clone, Debug, PartialEq)]
pub enum ChannelValue {
    /// Any JSON value that is not an array.
    Json(Arc<Value>),
    /// An array, as a version of an append-only list of shared items.
    List(ChannelList),
}

impl ChannelValue {
    /// Wraps a JSON value; arrays become [`ChannelList`]s.
    pub fn from_json(value: Value) -> Self {
        match value {
            Value::Array(items) => ChannelValue::List(items.into_iter().map(Arc::new).collect()),
            other => ChannelValue::Json(Arc::new(other)),
        }
    }

    /// The value as plain JSON (a copy: costs the size of the value).
    pub fn to_json(&self) -> Value {
        match self {
            ChannelValue::Json(v) => (**v).clone(),
            ChannelValue::List(items) => {
                Value::Array(items.iter().map(|v| (**v).clone()).collect())
            }
        }
    }

    /// The value, when it is not a list.
    pub fn as_json(&self) -> Option<&Value> {
        match self {
            ChannelValue::Json(v) => Some(v),
            ChannelValue::List(_) => None,
        }
    }

    /// The list, when the value is one.
    pub fn as_list(&self) -> Option<&ChannelList> {
        match self {
            ChannelValue::List(items) => Some(items),
            ChannelValue::Json(_) => None,
        }
    }

    /// Number of items of a list value (`None` for anything else). O(1).
    pub fn len(&self) -> Option<usize> {
        self.as_list().map(ChannelList::len)
    }

    /// Whether this is an empty list.
    pub fn is_empty(&self) -> bool {
        self.len() == Some(0)
    }

    /// The last item of a list value.
    pub fn last(&self) -> Option<&Value> {
        self.as_list().and_then(ChannelList::last).map(|v| &**v)
    }

    /// The items of a list value (nothing for anything else).
    pub fn items(&self) -> impl Iterator<Item = &Value> {
        self.as_list()
            .into_iter()
            .flat_map(|l| l.iter().map(|v| &**v))
    }

    /// Compares with a JSON value without converting a list.
    pub fn equals_json(&self, other: &Value) -> bool {
        match (self, other) {
            (ChannelValue::Json(v), o) => **v == *o,
            (ChannelValue::List(items), Value::Array(o)) => {
                items.len() == o.len() && items.iter().zip(o).all(|(a, b)| **a == *b)
            }
            _ => false,
        }
    }

    /// Python's type name for the value, used in reducer `TypeError` texts.
    pub fn py_type(&self) -> &'static str {
        match self {
            ChannelValue::Json(v) => py_type(v),
            ChannelValue::List(_) => "list",
        }
    }
}

/// Python's type name for a JSON value (`str`, `int`, `float`, `list`, ...).
pub(crate) fn py_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}

/// Python's `repr` of a JSON value, for error texts (`'x'`, `True`, `None`).
pub(crate) fn py_repr(v: &Value) -> String {
    match v {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::String(s) => format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'")),
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(py_repr).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(map) => format!(
            "{{{}}}",
            map.iter()
                .map(|(k, v)| format!("'{k}': {}", py_repr(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Number(n) => n.to_string(),
    }
}

impl Serialize for ChannelValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ChannelValue::Json(v) => v.serialize(s),
            ChannelValue::List(items) => s.collect_seq(items.iter()),
        }
    }
}

impl<'de> Deserialize<'de> for ChannelValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Value::deserialize(d).map(ChannelValue::from_json)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lists_become_channel_lists_and_round_trip() {
        let v = ChannelValue::from_json(json!(["a", "b"]));
        assert_eq!(v.len(), Some(2));
        assert_eq!(v.last(), Some(&json!("b")));
        assert_eq!(v.to_json(), json!(["a", "b"]));
        assert!(v.equals_json(&json!(["a", "b"])));
        assert_eq!(serde_json::to_value(&v).unwrap(), json!(["a", "b"]));
    }

    #[test]
    fn scalars_stay_json() {
        let v = ChannelValue::from_json(json!(3));
        assert_eq!(v.as_json(), Some(&json!(3)));
        assert_eq!(v.len(), None);
        assert_eq!(v.py_type(), "int");
    }
}
