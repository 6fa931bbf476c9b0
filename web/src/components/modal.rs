//! The frame of a modal dialog: a backdrop that closes it on a click, and
//! the dialog box, named by its heading, that closes on Escape.

use leptos::ev::KeyboardEvent;
use leptos::prelude::*;

/// A backdrop and a `role="dialog"` box around `children`.
#[component]
pub fn Modal(
    /// The id of the heading that names the dialog.
    labelled_by: &'static str,
    /// Classes besides `dialog`.
    #[prop(optional)]
    class: Option<&'static str>,
    /// The id of the text that describes the dialog.
    #[prop(optional)]
    described_by: Option<&'static str>,
    /// Closes the dialog (a click on the backdrop, Escape).
    on_close: Callback<()>,
    /// Any other key pressed inside it.
    #[prop(optional)]
    on_key: Option<Callback<KeyboardEvent>>,
    /// The dialog's content.
    children: Children,
) -> impl IntoView {
    let class = class.map_or_else(|| "dialog".to_owned(), |c| format!("dialog {c}"));
    view! {
        <div class="backdrop" on:click=move |_| on_close.run(())></div>
        <div class=class role="dialog" aria-modal="true" aria-labelledby=labelled_by
            aria-describedby=described_by
            on:keydown=move |ev| {
                if ev.key() == "Escape" {
                    ev.prevent_default();
                    on_close.run(());
                } else if let Some(on_key) = on_key {
                    on_key.run(ev);
                }
            }>
            {children()}
        </div>
    }
}
