//! One component per file. Components read [`crate::state::AppState`] from
//! context and keep geometry and data logic in the pure modules.

pub mod action_row;
pub mod actions;
pub mod chat_view;
pub mod connect_dialog;
pub mod dag_edges;
pub mod dag_frames;
pub mod dag_node;
pub mod dag_view;
pub mod error_line;
pub mod fork_dialog;
pub mod fork_explanation;
pub mod fork_heading;
pub mod import_dialog;
pub mod inspector;
pub mod json_tree;
pub mod lesson_panel;
pub mod lesson_question;
pub mod log_panel;
pub mod modal;
pub mod node_shape;
pub mod node_text;
pub mod pan_zoom;
pub mod resume_form;
pub mod run_bar;
pub mod run_toggle;
pub mod scrubber;
pub mod selection_band;
pub mod sentence;
pub mod spec_editor;
pub mod step_button;
pub mod toolbar;
pub mod topology;
pub mod zoom_controls;

pub use chat_view::ChatView;
pub use connect_dialog::ConnectDialog;
pub use dag_view::DagView;
pub use fork_dialog::ForkDialog;
pub use import_dialog::ImportDialog;
pub use inspector::Inspector;
pub use lesson_panel::LessonPanel;
pub use log_panel::LogPanel;
pub use spec_editor::SpecEditor;
pub use toolbar::Toolbar;
pub use topology::TopologyPanel;
