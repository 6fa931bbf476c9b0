//! JSON as a collapsible tree: objects and lists are `<details>` (open to
//! depth 2), scalars are one monospace line.

use leptos::prelude::*;
use serde_json::Value;

/// A collapsible tree of `value` under `name`.
pub fn json_tree(name: String, value: &Value, depth: usize) -> AnyView {
    match value {
        Value::Object(map) if !map.is_empty() => {
            let summary = format!("{{{}}}", map.len());
            let children = map
                .iter()
                .map(|(k, v)| json_tree(k.clone(), v, depth + 1))
                .collect_view();
            view! {
                <details class="jt" open=depth < 2>
                    <summary><span class="jt-key">{name}</span> <span class="muted">{summary}</span></summary>
                    <div class="jt-children">{children}</div>
                </details>
            }
            .into_any()
        }
        Value::Array(list) if !list.is_empty() => {
            let summary = format!("[{}]", list.len());
            let children = list
                .iter()
                .enumerate()
                .map(|(i, v)| json_tree(i.to_string(), v, depth + 1))
                .collect_view();
            view! {
                <details class="jt" open=depth < 2>
                    <summary><span class="jt-key">{name}</span> <span class="muted">{summary}</span></summary>
                    <div class="jt-children">{children}</div>
                </details>
            }
            .into_any()
        }
        scalar => view! {
            <div class="jt-leaf"><span class="jt-key">{name}</span>": "<span class="jt-val">{scalar.to_string()}</span></div>
        }
        .into_any(),
    }
}
