//! The app shell: provides [`AppState`] and lays out the panels (toolbar;
//! topology + chat + spec | checkpoint tree | inspector + actions; log).

use leptos::prelude::*;

use crate::components::{
    ChatView, ConnectDialog, DagView, ForkDialog, ImportDialog, Inspector, LessonPanel, LogPanel,
    SpecEditor, StoragePanel, Toolbar, TopologyPanel,
};
use crate::state::AppState;

/// The whole visualizer, restored from the URL and localStorage. Mount it
/// with `leptos::mount::mount_to_body(App)`.
#[component]
pub fn App() -> impl IntoView {
    // A deep link to a server thread, read before the page rewrites its URL.
    let link = (
        crate::browser::query("server"),
        crate::browser::query("thread"),
    );
    let state = AppState::restore();
    state.open_deep_link(link.0, link.1);
    view! { <Shell state/> }
}

/// The panels over a given state (tests mount it with a fresh state).
#[component]
pub fn Shell(
    /// The state to show.
    state: AppState,
) -> impl IntoView {
    provide_context(state);
    view! {
        <div class="app">
            <Toolbar/>
            <main class="main">
                <aside class="panel left" aria-label="Graph">
                    <Show when=move || state.lesson_open.get()>
                        <LessonPanel/>
                    </Show>
                    <Show when=move || state.storage_open.get()>
                        <StoragePanel/>
                    </Show>
                    <TopologyPanel/>
                    <Show when=move || state.is_chat.get()>
                        <ChatView/>
                    </Show>
                    <SpecEditor/>
                </aside>
                <DagView/>
                <Inspector/>
            </main>
            <LogPanel/>
            <Show when=move || state.fork_open.get()>
                <ForkDialog/>
            </Show>
            <Show when=move || state.import_open.get()>
                <ImportDialog/>
            </Show>
            <Show when=move || state.server.open.get()>
                <ConnectDialog/>
            </Show>
        </div>
    }
}
