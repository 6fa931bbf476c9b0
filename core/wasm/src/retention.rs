//! `planPrune`: the engine's choice of the checkpoints a prune keeps
//! (`chronograph::plan_prune`), for the package's persistent savers, which
//! then only delete. One choice for every store, so a saver's prune and the
//! app's preview of it agree.

use chronograph::clock::parse_iso_ms;
use chronograph::{PruneCandidate, Retention};
use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::error::JsResult;
use crate::types::args::{json_from_js, plain_to_js};

#[wasm_bindgen(typescript_custom_section)]
const TS_RETENTION: &str = r#"
/** One checkpoint as `planPrune` reads it (`ts`: the checkpoint's ISO-8601 creation time). */
export interface PruneCandidateIn {
  id: string;
  parent?: string | null;
  ns: string;
  owner?: string | null;
  ts?: string | null;
}
/** What a prune keeps in each namespace besides its latest checkpoint. */
export type RetentionIn =
  | { keep: "latest" }
  | { keep: "last"; n: number }
  | { keep: "lineage" }
  | { keep: "newerThan"; sinceMs: number };
/** The ids a prune keeps and drops, in the order the candidates came. */
export interface PrunePlanOut {
  keep: string[];
  drop: string[];
}
"#;

/// An `INVALID_ARGUMENT` error naming what is wrong with an argument.
fn bad(what: &str, why: &str) -> JsValue {
    crate::error::invalid_argument(format!("planPrune: {what} {why}"))
}

/// A string field of `v`, or `None` when absent or null.
fn text(v: &Value, key: &str, what: &str) -> JsResult<Option<String>> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(bad(what, &format!("has a `{key}` that is not a string"))),
    }
}

/// The candidates, read from plain JSON. Read by hand rather than with a
/// serde derive: each derived reader adds its own copy of the generic
/// deserializer to the package's wasm (tens of kilobytes), for two small shapes.
fn candidates_of(v: Value) -> JsResult<Vec<PruneCandidate>> {
    let Value::Array(items) = v else {
        return Err(bad("candidates", "is not an array"));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let what = format!("candidates[{i}]");
            Ok(PruneCandidate {
                id: text(c, "id", &what)?.ok_or_else(|| bad(&what, "has no `id`"))?,
                parent: text(c, "parent", &what)?,
                ns: text(c, "ns", &what)?.unwrap_or_default(),
                owner: text(c, "owner", &what)?,
                created_ms: text(c, "ts", &what)?.as_deref().and_then(parse_iso_ms),
            })
        })
        .collect()
}

/// The retention, read from plain JSON.
fn retention_of(v: &Value) -> JsResult<Retention> {
    let number = |key: &str| v.get(key).and_then(Value::as_f64);
    match v.get("keep").and_then(Value::as_str) {
        Some("latest") => Ok(Retention::Latest),
        Some("lineage") => Ok(Retention::Lineage),
        Some("last") => match number("n") {
            Some(n) if n >= 0.0 && n.fract() == 0.0 => Ok(Retention::Last(n as usize)),
            _ => Err(bad("retention", "`last` needs a whole number `n`")),
        },
        Some("newerThan") => match number("sinceMs") {
            Some(ms) if ms.is_finite() => Ok(Retention::NewerThan {
                since_ms: ms as i64,
            }),
            _ => Err(bad("retention", "`newerThan` needs a number `sinceMs`")),
        },
        _ => Err(bad(
            "retention",
            "must keep \"latest\", \"last\", \"lineage\" or \"newerThan\"",
        )),
    }
}

/// The checkpoints of one thread a prune keeps under `retention`.
#[wasm_bindgen(js_name = planPrune, unchecked_return_type = "PrunePlanOut")]
pub fn plan_prune(
    #[wasm_bindgen(unchecked_param_type = "PruneCandidateIn[]")] candidates: JsValue,
    #[wasm_bindgen(unchecked_param_type = "RetentionIn")] retention: JsValue,
) -> JsResult<JsValue> {
    let candidates = candidates_of(json_from_js(candidates, "candidates")?)?;
    let retention = retention_of(&json_from_js(retention, "retention")?)?;
    let plan = chronograph::plan_prune(&candidates, &retention);
    plain_to_js(&serde_json::json!({ "keep": plan.keep, "drop": plan.drop }))
}
