//! JSON as a collapsible tree: objects and lists are `<details>` (open to
//! depth 2), scalars are one monospace line.

use leptos::prelude::*;
use serde_json::Value;

/// A collapsible tree of `value` under `name`.
pub fn json_tree(name: String, value: &Value, depth: usize) -> AnyView {
    let (summary, children): (String, Vec<AnyView>) = match value {
        Value::Object(map) if !map.is_empty() => (
            format!("{{{}}}", map.len()),
            map.iter()
                .map(|(k, v)| json_tree(k.clone(), v, depth + 1))
                .collect(),
        ),
        Value::Array(list) if !list.is_empty() => (
            format!("[{}]", list.len()),
            list.iter()
                .enumerate()
                .map(|(i, v)| json_tree(i.to_string(), v, depth + 1))
                .collect(),
        ),
        scalar => {
            return view! {
                <div class="jt-leaf"><span class="jt-key">{name}</span>": "<span class="jt-val">{scalar.to_string()}</span></div>
            }
            .into_any()
        }
    };
    view! {
        <details class="jt" open=depth < 2>
            <summary><span class="jt-key">{name}</span> <span class="muted">{summary}</span></summary>
            <div class="jt-children">{children.collect_view()}</div>
        </details>
    }
    .into_any()
}
