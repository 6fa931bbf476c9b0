//! Chronograph's browser visualizer: a thread's checkpoint tree, drawn the
//! way LangGraph's time-travel documents draw it.
//!
//! The crate is a library plus a 4-line binary (`main.rs`) so that the pure
//! modules ([`layout`], [`session`], [`chat`], [`inspect`], [`import`]) are unit-tested natively with
//! `cargo test -p chronograph-web`, while the binary is what
//! `scripts/build-web.sh` compiles to wasm.
// Long functions are split into named steps and sub-components; a
// component whose markup alone runs past the limit says so where it is.
#![warn(clippy::too_many_lines)]

pub mod app;
mod browser;
pub mod chat;
mod clock;
mod components;
pub mod i18n;
pub mod import;
pub mod inspect;
pub mod layout;
pub mod lesson;
pub mod scenarios;
pub mod server;
pub mod session;
mod sort;
pub mod state;

pub use app::{App, Shell};
pub use state::AppState;
