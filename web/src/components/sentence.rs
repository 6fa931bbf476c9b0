//! A catalogue sentence whose `{slots}` hold markup (a mono label, a
//! `<code>` call), so the words stay in the catalogue and the markup in
//! the component.

use leptos::prelude::*;

use crate::i18n::{pieces, Piece};

/// `template`'s text as it is, and each `{name}` slot as `slot(name)`
/// draws it.
pub fn sentence(template: &'static str, slot: impl Fn(&str) -> AnyView) -> AnyView {
    pieces(template)
        .into_iter()
        .map(|p| match p {
            Piece::Text(s) => s.into_any(),
            Piece::Slot(name) => slot(name),
        })
        .collect_view()
        .into_any()
}

/// `template` with every slot showing `value` in a mono span.
pub fn mono_sentence(template: &'static str, value: &str) -> AnyView {
    sentence(template, |_| {
        view! { <span class="mono">{value.to_owned()}</span> }.into_any()
    })
}
