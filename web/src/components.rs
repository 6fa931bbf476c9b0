//! One component per file. Components read [`crate::state::AppState`] from
//! context and keep geometry and data logic in the pure modules.

pub mod actions;
pub mod chat_view;
pub mod dag_frames;
pub mod dag_node;
pub mod dag_view;
pub mod error_line;
pub mod fork_dialog;
pub mod import_dialog;
pub mod inspector;
pub mod json_tree;
pub mod lesson_panel;
pub mod log_panel;
pub mod pan_zoom;
pub mod run_bar;
pub mod scrubber;
pub mod spec_editor;
pub mod toolbar;
pub mod topology;

pub use chat_view::ChatView;
pub use dag_view::DagView;
pub use fork_dialog::ForkDialog;
pub use import_dialog::ImportDialog;
pub use inspector::Inspector;
pub use lesson_panel::LessonPanel;
pub use log_panel::LogPanel;
pub use spec_editor::SpecEditor;
pub use toolbar::Toolbar;
pub use topology::TopologyPanel;
