//! Spec §1.2 and §15.22: checkpoint metadata is `source`, `step`, `parents`
//! plus primitive extra keys from the run config (`metadata` winning over
//! `configurable`); there is no `writes` key.

mod common;

use chronograph::{CheckpointSaver, ListOptions, RunnableConfig, Semantics};
use common::*;
use serde_json::{json, Value};

fn config(v: Value) -> RunnableConfig {
    serde_json::from_value(v).unwrap()
}

#[test]
fn metadata_is_source_step_and_parents_with_no_writes_key() {
    let saver = saver();
    let (app, _) = booking(&saver);
    app.invoke(say("hi"), &thread("t")).unwrap();
    for t in stored(&*saver, "t") {
        let m = serde_json::to_value(&t.metadata).unwrap();
        let mut keys: Vec<&String> = m.as_object().unwrap().keys().collect();
        keys.sort();
        assert_eq!(keys, ["parents", "source", "step"]);
        assert_eq!(m["parents"], json!({}), "the root graph has no parents");
    }
    let first = stored(&*saver, "t").pop().unwrap();
    assert_eq!(
        serde_json::to_value(&first.metadata).unwrap(),
        json!({"source": "input", "step": -1, "parents": {}})
    );
}

#[test]
fn primitive_config_keys_are_copied_into_metadata_with_metadata_winning() {
    // The observation of §1.2, key for key.
    let saver = saver();
    let (app, _) = booking(&saver);
    let cfg = config(json!({
        "configurable": {"thread_id": 7, "user_id": "u1", "n": 3, "obj": {"a": 1}, "__hidden": "x"},
        "metadata": {"foo": "bar", "user_id": "meta-wins?"}
    }));
    app.invoke(say("hi"), &cfg).unwrap();
    let all = stored(&*saver, "7");
    assert_eq!(all.len(), 4, "a numeric thread id is stored as a string");
    for t in all {
        let m = serde_json::to_value(&t.metadata).unwrap();
        let mut m = m.as_object().unwrap().clone();
        m.remove("source");
        m.remove("step");
        assert_eq!(
            Value::Object(m),
            json!({"parents": {}, "foo": "bar", "user_id": "meta-wins?", "n": 3})
        );
    }
}

#[test]
fn reserved_and_dunder_keys_are_never_copied_and_nul_characters_are_removed() {
    let saver = saver();
    let (app, _) = booking(&saver);
    let cfg = config(json!({
        "configurable": {
            "thread_id": "t", "checkpoint_ns": "", "langgraph_step": 9, "langgraph_node": "x",
            "langgraph_triggers": "x", "langgraph_path": "x", "langgraph_checkpoint_ns": "x",
            "checkpoint_map": "x", "__secret": "x", "flag": true, "ratio": 0.5, "name": "a\u{0}b",
            "list": [1]
        },
        "metadata": {"source": "mine", "step": 100, "parents": "no", "__also": 1}
    }));
    app.invoke(say("hi"), &cfg).unwrap();
    let t = latest(&*saver, "t");
    assert_eq!(t.metadata.source.as_str(), "loop", "the engine's keys win");
    assert_eq!(t.metadata.step, 2);
    assert_eq!(
        serde_json::to_value(&t.metadata.extra).unwrap(),
        json!({"flag": true, "ratio": 0.5, "name": "ab"})
    );
}

#[test]
fn update_state_checkpoints_carry_the_configs_extra_keys_too() {
    let saver = saver();
    let (app, _) = booking(&saver);
    app.invoke(say("hi"), &thread("t")).unwrap();
    let cfg = config(json!({"configurable": {"thread_id": "t", "editor": "ann"}}));
    app.update_state(&cfg, Some(json!({"messages": [ai("edit")]})), None)
        .unwrap();
    let t = latest(&*saver, "t");
    assert_eq!(t.metadata.source.as_str(), "update");
    assert_eq!(t.metadata.extra.get("editor"), Some(&json!("ann")));
}

#[test]
fn a_history_filter_matches_stored_metadata_so_an_overridden_key_is_not_found() {
    let saver = saver();
    let (app, _) = booking(&saver);
    let cfg = config(json!({
        "configurable": {"thread_id": "t", "user_id": "u1"},
        "metadata": {"user_id": "meta-wins?"}
    }));
    app.invoke(say("hi"), &cfg).unwrap();
    let filter = |k: &str, v: Value| ListOptions {
        filter: [(k.to_owned(), v)].into(),
        ..Default::default()
    };
    let t = thread("t");
    assert!(app
        .get_state_history(&t, &filter("user_id", json!("u1")))
        .unwrap()
        .is_empty());
    assert_eq!(
        app.get_state_history(&t, &filter("user_id", json!("meta-wins?")))
            .unwrap()
            .len(),
        4
    );
    assert_eq!(
        saver
            .list(
                &chronograph::ListTarget::thread("t"),
                &filter("source", json!("loop"))
            )
            .unwrap()
            .len(),
        3
    );
}

#[test]
fn under_langgraph_js_semantics_metadata_keeps_no_config_extras() {
    // LangGraph.js's savers store `source`, `step` and `parents` only, for
    // runs and for `update_state` alike (Semantics::metadata_without_config).
    let saver = saver();
    let options = chronograph::CompileOptions {
        semantics: Semantics {
            metadata_without_config: true,
            ..Semantics::langgraph()
        },
        ..opts(&saver)
    };
    let (app, _) = booking_graph(&saver, options);
    let cfg = config(json!({
        "configurable": {"thread_id": "t", "user_id": "u1"},
        "metadata": {"run": "r1"}
    }));
    app.invoke(say("hi"), &cfg).unwrap();
    app.update_state(&cfg, Some(json!({"messages": [ai("edit")]})), None)
        .unwrap();
    let stored = stored(&*saver, "t");
    assert_eq!(stored.len(), 5);
    for t in stored {
        assert!(t.metadata.extra.is_empty(), "{:?}", t.metadata.extra);
    }
}
