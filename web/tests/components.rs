//! Component tests in a real browser (`wasm-pack test --headless --chrome web`):
//! the app mounted over a fresh session, driven through the DOM by accessible
//! names, like leptos `examples/counters/tests/web.rs`.
#![cfg(target_arch = "wasm32")]

use chronograph_web::{chat, scenarios, AppState, Shell};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// Mounts the app over `state` in a fresh container.
fn mount(state: AppState) -> web_sys::HtmlElement {
    let root: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&root).unwrap();
    let handle = leptos::mount::mount_to(root.clone(), move || view! { <Shell state/> });
    handle.forget();
    root
}

fn checkpoints(root: &web_sys::HtmlElement) -> Vec<web_sys::Element> {
    let list = root
        .query_selector_all("[role=button][aria-label^='Checkpoint ']")
        .unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .map(|n| n.unchecked_into())
        .collect()
}

fn names(root: &web_sys::HtmlElement) -> Vec<String> {
    checkpoints(root)
        .iter()
        .map(|e| e.get_attribute("aria-label").unwrap_or_default())
        .collect()
}

/// The text of the first element `selector` matches (`""` when none does).
fn text_of(root: &web_sys::HtmlElement, selector: &str) -> String {
    root.query_selector(selector)
        .unwrap()
        .and_then(|e| e.text_content())
        .unwrap_or_default()
}

fn selected_label(root: &web_sys::HtmlElement) -> String {
    text_of(root, ".inspector .snap-label")
}

/// The chat scenario after one message, mounted and drawn.
async fn chat_after_hi() -> web_sys::HtmlElement {
    let state = AppState::new(scenarios::by_id("chat").unwrap());
    state.act(|s| chat::send(s, None, "hi")).unwrap();
    let root = mount(state);
    leptos::task::tick().await;
    root
}

fn dispatch(el: &web_sys::Element, event: &str) {
    el.dispatch_event(&web_sys::Event::new(event).unwrap())
        .unwrap();
}

fn button(root: &web_sys::HtmlElement, text: &str) -> web_sys::HtmlElement {
    let list = root.query_selector_all("button").unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .map(|n| n.unchecked_into::<web_sys::HtmlElement>())
        .find(|b| b.text_content().unwrap_or_default().trim() == text)
        .unwrap_or_else(|| panic!("no button {text}"))
}

#[wasm_bindgen_test]
async fn the_tree_draws_every_checkpoint_as_a_named_button_and_a_click_selects_it() {
    let root = chat_after_hi().await;
    assert_eq!(
        names(&root),
        [
            "Checkpoint c0, step -1, input, next: __start__",
            "Checkpoint c1, step 0, loop, next: booking",
            "Checkpoint c2, step 1, loop, next: reply",
            "Checkpoint c3, step 2, loop, next: done, HEAD",
        ]
    );
    assert_eq!(
        selected_label(&root),
        "c3",
        "the newest checkpoint is selected"
    );

    let c1 = &checkpoints(&root)[1];
    dispatch(c1, "click");
    leptos::task::tick().await;
    assert_eq!(selected_label(&root), "c1");
    assert_eq!(c1.get_attribute("aria-pressed").as_deref(), Some("true"));
    assert_eq!(
        c1.get_attribute("tabindex").as_deref(),
        Some("0"),
        "roving tabindex"
    );
    let lit: Vec<String> = {
        let l = root.query_selector_all(".topo-node.lit").unwrap();
        (0..l.length())
            .filter_map(|i| l.item(i))
            .filter_map(|n| n.text_content())
            .collect()
    };
    assert_eq!(lit, ["booking"], "the topology lights the selection's next");
    root.remove();
}

#[wasm_bindgen_test]
async fn replay_adds_a_fork_child_and_logs_the_engine_call() {
    let root = chat_after_hi().await;
    dispatch(&checkpoints(&root)[2], "click");
    leptos::task::tick().await;
    button(&root, "Replay").click();
    leptos::task::tick().await;
    let n = names(&root);
    assert_eq!(n.len(), 6);
    assert_eq!(n[4], "Checkpoint c4, step 2, fork, next: reply");
    let log = text_of(&root, ".log-list");
    assert!(log.contains("invoke(None, c2) → c4 … c5"), "{log}");
    assert_eq!(selected_label(&root), "c5");
    root.remove();
}

#[wasm_bindgen_test]
async fn bad_json_input_is_an_inline_error_and_changes_nothing() {
    let state = AppState::new(scenarios::by_id("counter").unwrap());
    let root = mount(state);
    leptos::task::tick().await;
    let input: web_sys::HtmlInputElement = root
        .query_selector("input[aria-label='Input (JSON)']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    input.set_value("{oops");
    dispatch(&input, "input");
    button(&root, "Run").click();
    leptos::task::tick().await;
    let alert = text_of(&root, "[role=alert]");
    assert!(alert.starts_with("Invalid JSON"), "{alert}");
    assert!(names(&root).is_empty());
    root.remove();
}
