//! The only place that turns pure data into signals and memos. Components
//! read [`AppState`] from context.

use leptos::prelude::*;

use crate::layout::{Layout, Viewport};
use crate::sample::{self, Checkpoint, LogEntry, Topology};

/// Reactive state shared by every panel.
#[derive(Clone, Copy)]
pub struct AppState {
    /// The thread's checkpoints in creation order.
    pub thread: RwSignal<Vec<Checkpoint>>,
    /// Lanes and geometry of `thread`.
    pub layout: Memo<Layout>,
    /// The graph drawn in the topology panel.
    pub topology: RwSignal<Topology>,
    /// Index of the selected checkpoint.
    pub selected: RwSignal<Option<usize>>,
    /// Pan and zoom of the tree panel.
    pub viewport: RwSignal<Viewport>,
    /// Engine calls, oldest first.
    pub log: RwSignal<Vec<LogEntry>>,
}

impl AppState {
    /// State showing the built-in sample thread, with HEAD selected.
    pub fn sample() -> Self {
        let thread = RwSignal::new(sample::booking_thread());
        let layout = Memo::new(move |_| thread.with(|t| Layout::compute(&sample::layout_input(t))));
        let head = thread.with_untracked(|t| t.len().checked_sub(1));
        Self {
            thread,
            layout,
            topology: RwSignal::new(sample::booking_topology()),
            selected: RwSignal::new(head),
            viewport: RwSignal::new(Viewport::default()),
            log: RwSignal::new(sample::booking_log()),
        }
    }

    /// Index of HEAD: the newest checkpoint, the one a run without a
    /// `checkpoint_id` continues from.
    pub fn head(&self) -> Option<usize> {
        self.thread.with(|t| t.len().checked_sub(1))
    }

    /// The selected checkpoint, cloned.
    pub fn selected_checkpoint(&self) -> Option<Checkpoint> {
        let i = self.selected.get()?;
        self.thread.with(|t| t.get(i).cloned())
    }
}
