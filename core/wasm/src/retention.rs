//! `planPrune`: the engine's choice of the checkpoints a prune keeps
//! (`chronograph::plan_prune`), for the package's persistent savers, which
//! then only delete. One choice for every store, so a saver's prune and the
//! app's preview of it agree.

use chronograph::clock::parse_iso_ms;
use chronograph::{PruneCandidate, Retention};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use crate::error::JsResult;
use crate::types::args::{from_js, plain_to_js};

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

/// A candidate as JS hands it over.
#[derive(Deserialize)]
struct CandidateIn {
    id: String,
    #[serde(default)]
    parent: Option<String>,
    ns: String,
    #[serde(default)]
    owner: Option<String>,
    #[serde(default)]
    ts: Option<String>,
}

/// A retention as JS hands it over.
#[derive(Deserialize)]
#[serde(tag = "keep", rename_all = "camelCase")]
enum RetentionIn {
    Latest,
    Last {
        n: usize,
    },
    Lineage,
    #[serde(rename_all = "camelCase")]
    NewerThan {
        since_ms: i64,
    },
}

/// The plan as JS receives it.
#[derive(Serialize)]
struct PlanOut {
    keep: Vec<String>,
    drop: Vec<String>,
}

/// The checkpoints of one thread a prune keeps under `retention`.
#[wasm_bindgen(js_name = planPrune, unchecked_return_type = "PrunePlanOut")]
pub fn plan_prune(
    #[wasm_bindgen(unchecked_param_type = "PruneCandidateIn[]")] candidates: JsValue,
    #[wasm_bindgen(unchecked_param_type = "RetentionIn")] retention: JsValue,
) -> JsResult<JsValue> {
    let candidates: Vec<CandidateIn> = from_js(candidates, "candidates")?;
    let retention = match from_js::<RetentionIn>(retention, "retention")? {
        RetentionIn::Latest => Retention::Latest,
        RetentionIn::Last { n } => Retention::Last(n),
        RetentionIn::Lineage => Retention::Lineage,
        RetentionIn::NewerThan { since_ms } => Retention::NewerThan { since_ms },
    };
    let candidates: Vec<PruneCandidate> = candidates
        .into_iter()
        .map(|c| PruneCandidate {
            created_ms: c.ts.as_deref().and_then(parse_iso_ms),
            id: c.id,
            parent: c.parent,
            ns: c.ns,
            owner: c.owner,
        })
        .collect();
    let plan = chronograph::plan_prune(&candidates, &retention);
    plain_to_js(&PlanOut {
        keep: plan.keep,
        drop: plan.drop,
    })
}
