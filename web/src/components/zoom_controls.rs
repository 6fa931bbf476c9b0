//! The tree panel's zoom buttons: out, the zoom level, in, and 1:1.

use leptos::prelude::*;

use super::pan_zoom::PanZoom;
use crate::layout::Viewport;
use crate::state::AppState;

/// − 100% + 1:1, over the tree's pan and zoom.
#[component]
pub fn ZoomControls(
    /// The tree's pan and zoom.
    pz: PanZoom,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <div class="zoom" role="group" aria-label=move || state.t().zoom>
            <button type="button" title=move || state.t().zoom_out_title aria-label=move || state.t().zoom_out on:click=move |_| pz.zoom_by(0.8)>
                "−"
            </button>
            <span class="zoom-level">
                {move || format!("{:.0}%", state.viewport.get().zoom * 100.0)}
            </span>
            <button type="button" title=move || state.t().zoom_in_title aria-label=move || state.t().zoom_in on:click=move |_| pz.zoom_by(1.25)>
                "+"
            </button>
            <button
                type="button"
                title=move || state.t().zoom_reset_title
                on:click=move |_| state.viewport.set(Viewport::default())
            >
                "1:1"
            </button>
        </div>
    }
}
