//! The app shell: provides [`AppState`] and lays out the panels (toolbar;
//! topology | checkpoint tree | inspector; log).

use leptos::prelude::*;

use crate::components::{DagView, Inspector, LogPanel, Toolbar, TopologyPanel};
use crate::state::AppState;

/// The whole visualizer. Mount it with `leptos::mount::mount_to_body(App)`.
#[component]
pub fn App() -> impl IntoView {
    provide_context(AppState::sample());
    view! {
        <div class="app">
            <Toolbar/>
            <main class="main">
                <TopologyPanel/>
                <DagView/>
                <Inspector/>
            </main>
            <LogPanel/>
        </div>
    }
}
