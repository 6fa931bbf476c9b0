//! Lane assignment and geometry for the checkpoint DAG.
//!
//! Pure code: no Leptos, no DOM. Everything here is unit-tested natively with
//! `cargo test -p chronograph-web`.
//!
//! - [`lanes`] turns checkpoints in creation order into lanes (columns) and
//!   rows, plus edges with their drawing geometry ([`Layout`]).
//! - [`geometry`] holds the world-space constants and the projection between
//!   a (lane, row) cell and a point, with its inverse.
//! - [`frames`] draws expanded subgraph namespaces in place, as framed
//!   groups of lanes below the checkpoint whose task ran them.
//! - [`viewport`] is the pan/zoom transform between screen and world space.
//! - [`scrub`] is the branch the history player walks, root to tip.
//! - [`tree_view`] is what the tree panel draws: the window of rows, the
//!   label column, the ancestor path, what a click picks.
//! - [`navigate`] is where an arrow key moves the selection.
//!
//! The one rule the layout keeps: a branch keeps its column from the moment
//! it is created. Adding checkpoints never moves an existing one, so
//! `Layout::compute(&list[..k])` places the first `k` checkpoints exactly as
//! `Layout::compute(&list)` does.

pub mod frames;
pub mod geometry;
pub mod graph;
pub mod lanes;
pub mod navigate;
pub mod scrub;
pub mod topo;
pub mod tree_view;
pub mod viewport;

pub use frames::{layout_groups, Frame, Framed, Group, Rect};
pub use geometry::{
    canvas_height, canvas_width, lane_at, node_center, row_at, Point, HIT_SLOP, LANE_WIDTH,
    NODE_RADIUS, PADDING, ROW_HEIGHT,
};
pub use graph::{draw_graph, spec_graph, SpecGraph, TopoDrawing, OPEN_TITLE_H};
pub use lanes::{Edge, Layout, NodeIn, PlacedNode};
pub use navigate::{arrow_target, TREE_KEYS};
pub use topo::{layout_sized, layout_topology, EdgeKind, TopoLayout, TOPO_BOX_H, TOPO_BOX_W};
pub use tree_view::{
    ancestor_path, branch_count, keep_in_view, pick, visible_rows, LabelColumn, HEAD_DX,
    LABEL_COLUMN_WIDTH, LABEL_GAP, NEXT_DX, RUNS_DX, STEP_DX,
};
pub use viewport::{wheel_zoom_factor, Viewport, MAX_ZOOM, MIN_ZOOM};
