//! One component per file. Components read [`crate::state::AppState`] from
//! context and keep geometry and data logic in the pure modules.

pub mod dag_edge;
pub mod dag_node;
pub mod dag_view;
pub mod inspector;
pub mod log_panel;
pub mod toolbar;
pub mod topology;

pub use dag_view::DagView;
pub use inspector::Inspector;
pub use log_panel::LogPanel;
pub use toolbar::Toolbar;
pub use topology::TopologyPanel;
