//! Where LangGraph.js's shapes differ from LangGraph (Python)'s, the one
//! place the bindings convert: the engine keeps Python's forms (its
//! conformance traces compare them), the JS surface shows LangGraph.js's.
//!
//! - timestamps: Python's `2026-01-01T00:00:00.123456+00:00` →
//!   JavaScript's `Date.toISOString()`, `2026-01-01T00:00:00.123Z`;
//! - task paths: Python's `task_path_str` text (`~__pregel_pull, a`) →
//!   LangGraph.js's array (`["__pregel_pull", "a"]`, `["__pregel_push", 0, false]`);
//! - interrupts: `{id, value}` (LangGraph.js's key order).

use chronograph::Interrupt;
use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};
use serde_json::Value;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_SHAPES: &str = r#"
/** An interrupt as LangGraph.js lists it (`Interrupts`): no `id` for one raised without (`NodeInterrupt`). */
export interface InterruptOut {
  id?: string;
  value: unknown;
}
"#;

/// A timestamp as JavaScript's `Date.toISOString()` writes it: milliseconds
/// and `Z`. A text that is not Python's UTC form is left as it is.
pub fn js_timestamp(ts: &str) -> String {
    let Some(base) = ts.strip_suffix("+00:00") else {
        return ts.to_owned();
    };
    match base.split_once('.') {
        Some((seconds, fraction)) if fraction.bytes().all(|b| b.is_ascii_digit()) => {
            let millis: String = fraction.chars().chain("000".chars()).take(3).collect();
            format!("{seconds}.{millis}Z")
        }
        None if base.len() == 19 => format!("{base}.000Z"),
        _ => ts.to_owned(),
    }
}

/// A task path as LangGraph.js shows it: the `task_path_str` text split
/// into its parts, numbers and booleans as such.
pub fn task_path(path: &str) -> Vec<Value> {
    let text = path.strip_prefix('~').unwrap_or(path);
    if let Some(node) = text.strip_prefix("__pregel_pull, ") {
        return vec![Value::from("__pregel_pull"), Value::from(node)];
    }
    text.split(", ")
        .map(|part| match part {
            "False" => Value::Bool(false),
            "True" => Value::Bool(true),
            _ => match part.parse::<u64>() {
                Ok(n) if part.bytes().all(|b| b.is_ascii_digit()) => Value::from(n),
                _ => Value::from(part.trim_start_matches('~')),
            },
        })
        .collect()
}

/// A task's stored error as LangGraph.js shows it: `{message, name}` (its
/// saver keeps the thrown Error's fields), from the engine's Python `repr`
/// text (`Error('it\'s broken')`, see `chronograph::Error::from_repr`).
pub fn js_error(repr: &str) -> Value {
    let e = chronograph::Error::from_repr(repr);
    serde_json::json!({ "message": e.message(), "name": e.name() })
}

/// Interrupts as LangGraph.js lists them: `{id, value}` each (`{value}`
/// for one raised without an id: LangGraph.js's `NodeInterrupt`).
pub struct Interrupts<'a>(pub &'a [Interrupt]);

impl Serialize for Interrupts<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for i in self.0 {
            seq.serialize_element(&JsInterrupt(i))?;
        }
        seq.end()
    }
}

struct JsInterrupt<'a>(&'a Interrupt);

impl Serialize for JsInterrupt<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let with_id = !self.0.id.is_empty();
        let mut st = s.serialize_struct("Interrupt", 1 + usize::from(with_id))?;
        if with_id {
            st.serialize_field("id", &self.0.id)?;
        }
        st.serialize_field("value", &self.0.value)?;
        st.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn timestamps_are_written_as_javascript_writes_them() {
        assert_eq!(
            js_timestamp("2026-12-01T02:06:31.840999+00:00"),
            "2026-12-01T02:06:31.840Z"
        );
        assert_eq!(
            js_timestamp("2026-12-01T02:06:31.5+00:00"),
            "2026-12-01T02:06:31.500Z"
        );
        assert_eq!(
            js_timestamp("2026-12-01T02:06:31+00:00"),
            "2026-12-01T02:06:31.000Z"
        );
        assert_eq!(
            js_timestamp("2026-12-01T02:06:31.840Z"),
            "2026-12-01T02:06:31.840Z"
        );
    }

    #[test]
    fn stored_errors_are_message_and_name() {
        assert_eq!(
            js_error("Error('transient failure 2')"),
            json!({ "message": "transient failure 2", "name": "Error" })
        );
        assert_eq!(
            js_error("ValueError('it\\'s\\nbroken')"),
            json!({ "message": "it's\nbroken", "name": "ValueError" })
        );
        assert_eq!(
            js_error("odd text"),
            json!({ "message": "odd text", "name": "Error" })
        );
    }

    #[test]
    fn task_paths_are_arrays() {
        assert_eq!(
            json!(task_path("~__pregel_pull, a, b")),
            json!(["__pregel_pull", "a, b"])
        );
        assert_eq!(
            json!(task_path("~__pregel_push, 0000000002, False")),
            json!(["__pregel_push", 2, false])
        );
    }
}
