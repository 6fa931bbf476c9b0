//! The band behind the selected checkpoint's row, from the left edge
//! through the label column.

use leptos::prelude::*;

use crate::layout::{LABEL_COLUMN_WIDTH, PADDING, ROW_HEIGHT};
use crate::state::AppState;

/// The selected row's band (out of sight when nothing is selected).
#[component]
pub fn SelectionBand(
    /// World x of the label column.
    label_x: Signal<f64>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let band_y = move || {
        state.selected.get().map_or_else(
            || "-1000".to_owned(),
            |i| (PADDING + ROW_HEIGHT * i as f64).to_string(),
        )
    };
    let band_width = move || (label_x.get() + LABEL_COLUMN_WIDTH).to_string();
    view! {
        <rect
            class="sel-band"
            x="0"
            y=band_y
            width=band_width
            height=ROW_HEIGHT.to_string()
            rx="6"
        ></rect>
    }
}
