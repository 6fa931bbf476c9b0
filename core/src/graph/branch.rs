//! Conditional edges: a router picks the next nodes from the state
//! (LangGraph's `BranchSpec`).

use super::node::{NodeFuture, State};
use crate::error::Result;
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

/// Type of a synchronous router.
pub type SyncRouterFn = dyn Fn(&State) -> Result<Vec<String>>;
/// Type of an asynchronous router.
pub type AsyncRouterFn = dyn Fn(State) -> NodeFuture<Vec<String>>;

/// A router: returns destination names (or keys of the path map).
#[derive(Clone)]
pub enum RouterFn {
    /// A plain function.
    Sync(Rc<SyncRouterFn>),
    /// A function returning a future.
    Async(Rc<AsyncRouterFn>),
}

impl fmt::Debug for RouterFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RouterFn")
    }
}

/// A conditional edge leaving one node.
#[derive(Clone, Debug)]
pub struct Branch {
    pub(crate) router: RouterFn,
    /// Router result → node name.
    pub(crate) path_map: Option<BTreeMap<String, String>>,
    /// Every destination the router may pick, when known (for drawing and validation).
    pub(crate) ends: Option<Vec<String>>,
    /// The router's name (LangGraph: the function's name), if it has one.
    pub(crate) name: Option<String>,
}

impl Branch {
    /// A branch over `router`; `path_map` translates its results.
    pub fn new(router: RouterFn, path_map: Option<BTreeMap<String, String>>) -> Self {
        let ends = path_map.as_ref().map(|m| m.values().cloned().collect());
        Branch {
            router,
            path_map,
            ends,
            name: None,
        }
    }

    /// Names the router, as LangGraph names a branch after its function:
    /// the name appears in validation errors, and two branches leaving one
    /// node may not share it.
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// Declares the possible destinations (for drawing and validation).
    pub fn with_ends(mut self, ends: Vec<String>) -> Self {
        self.ends = Some(ends);
        self
    }

    /// Runs the router and maps its result to destination names.
    pub(crate) async fn route(&self, state: State) -> Result<Vec<String>> {
        let picked = match &self.router {
            RouterFn::Sync(f) => f(&state)?,
            RouterFn::Async(f) => f(state).await?,
        };
        let Some(map) = &self.path_map else {
            return Ok(picked);
        };
        picked
            .into_iter()
            .map(|key| {
                map.get(&key).cloned().ok_or_else(|| {
                    crate::error::Error::new(crate::error::ErrorKind::Key, format!("'{key}'"))
                        .with_code("INVALID_BRANCH")
                })
            })
            .collect()
    }
}
