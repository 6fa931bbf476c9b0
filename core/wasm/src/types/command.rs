//! What a run is given and what updates carry: the run input (values, or
//! a `Command`), LangGraph.js's `Command` (`resume`, `update`, `goto`,
//! `graph`), `Send`, the destinations of a `goto` or a router, and the
//! updates of `updateState` / `bulkUpdateState`.

use super::args::{absent, get, is_object, json_from_js, optional_name};
use crate::error::JsResult;
use crate::error::{describe, invalid_argument};
use crate::value::array_items;
use chronograph::{Command, Goto, Resume, RunInput, Send, StateUpdate, PARENT};
use js_sys::Reflect;
use serde_json::Value;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_COMMAND: &str = r#"
/** One superstep of `bulkUpdateState` (`supersteps_from_js`). */
export interface SuperstepIn {
  updates: { values: unknown; asNode?: string | null; taskId?: string | null }[];
}
"#;

/// Run input: `null`/`undefined` (continue), a `Command` (an object with
/// `lg_name: "Command"`), or an object of channel values (with
/// `any_value`, a `Pregel`'s input: any JSON value).
pub fn input_from_js(v: JsValue, any_value: bool) -> JsResult<RunInput> {
    if absent(&v) {
        return Ok(RunInput::None);
    }
    if get(&v, "lg_name").as_string().as_deref() == Some("Command") {
        return command_from_js(&v).map(RunInput::Command);
    }
    if !is_object(&v) && !any_value {
        return Err(invalid_argument(format!(
            "input must be an object of channel values, null, or a Command, got {}",
            describe(&v)
        )));
    }
    Ok(RunInput::Values(json_from_js(v, "input")?))
}

/// `new Command({resume, update, goto, graph})` → core `Command`.
pub fn command_from_js(v: &JsValue) -> JsResult<Command> {
    let resume = get(v, "resume");
    let update = get(v, "update");
    let graph = get(v, "graph");
    // LangGraph.js acts on `Command.PARENT` only: any other string (say
    // "PARENT") leaves the command to the node's own graph.
    let graph = match graph.as_string() {
        _ if absent(&graph) => None,
        Some(g) if g == PARENT => Some(g),
        Some(_) => None,
        _ => {
            return Err(invalid_argument(format!(
                "Command.graph must be Command.PARENT (\"{PARENT}\") or undefined, got {}",
                describe(&graph)
            )))
        }
    };
    Ok(Command {
        resume: match resume.is_undefined() {
            true => None,
            false => Some(Resume::from_json(json_from_js(resume, "Command.resume")?)),
        },
        update: match absent(&update) {
            true => None,
            // An object, or LangGraph.js's `[[channel, value], ...]`, which the
            // engine writes pair by pair (a channel may repeat).
            false => Some(json_from_js(update, "Command.update")?),
        },
        goto: gotos_from_js(&get(v, "goto"), "Command.goto")?,
        graph,
    })
}

/// A `Send` (`new Send(node, args)`, or an object `{node, args}` like one),
/// if `v` is one; an error when it looks like one but its node is no string.
pub fn send_from_js(v: &JsValue, what: &str) -> JsResult<Option<Send>> {
    if !is_object(v) {
        return Ok(None);
    }
    let tagged = get(v, "lg_name").as_string().as_deref() == Some("Send");
    let node = get(v, "node");
    if !tagged && (node.as_string().is_none() || !Reflect::has(v, &"args".into()).unwrap_or(false))
    {
        return Ok(None);
    }
    let Some(node) = node.as_string() else {
        return Err(invalid_argument(format!(
            "{what}: a Send's node must be a string, got {}",
            describe(&node)
        )));
    };
    let args = json_from_js(get(v, "args"), &format!("{what}: Send({node:?}).args"))?;
    Ok(Some(Send::new(node, args)))
}

/// Where to go: a node name, a `Send`, or an array of them (absent: nowhere).
pub fn gotos_from_js(v: &JsValue, what: &str) -> JsResult<Vec<Goto>> {
    if absent(v) {
        return Ok(Vec::new());
    }
    let one = |x: &JsValue| -> JsResult<Option<Goto>> {
        if let Some(name) = x.as_string() {
            return Ok(Some(Goto::Node(name)));
        }
        Ok(send_from_js(x, what)?.map(Goto::Send))
    };
    let bad = |x: &JsValue| {
        invalid_argument(format!(
            "{what} must be a node name, a Send, or an array of them, got {}",
            describe(x)
        ))
    };
    if let Some(goto) = one(v)? {
        return Ok(vec![goto]);
    }
    let Some(items) = array_items(v)? else {
        return Err(bad(v));
    };
    items
        .iter()
        .map(|x| one(x)?.ok_or_else(|| bad(x)))
        .collect()
}

/// Update values: `null`/`undefined` is "no values".
pub fn values_from_js(v: JsValue, what: &str) -> JsResult<Option<Value>> {
    match absent(&v) {
        true => Ok(None),
        false => json_from_js(v, what).map(Some),
    }
}

/// An update's values, or a `Command` given as them (LangGraph.js's
/// `updateState(config, new Command({ update, goto }), asNode)`): its
/// update as the values and its goto.
pub fn update_from_js(v: JsValue, as_node: Option<String>, what: &str) -> JsResult<StateUpdate> {
    if get(&v, "lg_name").as_string().as_deref() == Some("Command") {
        let command = command_from_js(&v)?;
        return Ok(StateUpdate {
            values: command.update,
            as_node,
            task_id: None,
            goto: command.goto,
        });
    }
    Ok(StateUpdate {
        values: values_from_js(v, what)?,
        as_node,
        task_id: None,
        goto: Vec::new(),
    })
}

/// `[{updates: [{values, asNode?, taskId?}]}]` → supersteps of updates.
pub fn supersteps_from_js(v: &JsValue) -> JsResult<Vec<Vec<StateUpdate>>> {
    let bad = |what: String, got: &JsValue| {
        invalid_argument(format!(
            "{what} must be an array of {{updates: [{{values, asNode}}]}}, got {}",
            describe(got)
        ))
    };
    let Some(steps) = array_items(v)? else {
        return Err(bad("supersteps".into(), v));
    };
    let mut out = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let updates = get(step, "updates");
        let Some(updates) = array_items(&updates)? else {
            return Err(bad(format!("supersteps[{i}].updates"), &updates));
        };
        let mut list = Vec::new();
        for (j, u) in updates.into_iter().enumerate() {
            let what = format!("supersteps[{i}].updates[{j}]");
            if !is_object(&u) {
                return Err(bad(what, &u));
            }
            let as_node = optional_name(&get(&u, "asNode"), &format!("{what}.asNode"))?;
            let mut update = update_from_js(get(&u, "values"), as_node, &format!("{what}.values"))?;
            update.task_id = optional_name(&get(&u, "taskId"), &format!("{what}.taskId"))?;
            list.push(update);
        }
        out.push(list);
    }
    Ok(out)
}
