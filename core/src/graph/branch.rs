//! Conditional edges: a router picks the next nodes from the state
//! (LangGraph's `BranchSpec`).

use super::node::{NodeContext, NodeFuture, State};
use crate::error::Result;
use crate::types::Goto;
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

/// Type of a synchronous router.
pub type SyncRouterFn = dyn Fn(&State) -> Result<Vec<String>>;
/// Type of an asynchronous router.
pub type AsyncRouterFn = dyn Fn(State) -> NodeFuture<Vec<String>>;
/// Type of a router that may also return `Send` packets.
pub type SendRouterFn = dyn Fn(State) -> NodeFuture<Vec<Goto>>;
/// Type of a [`SendRouterFn`] told the task it routes from (`None` where no
/// task runs it: `update_state` applying a node's writes).
pub type TaskRouterFn = dyn Fn(State, Option<&NodeContext>) -> NodeFuture<Vec<Goto>>;

/// A router: returns destination names (or keys of the path map), or, for
/// map-reduce fan-outs, `Send` packets mixed with names.
#[derive(Clone)]
pub enum RouterFn {
    /// A plain function.
    Sync(Rc<SyncRouterFn>),
    /// A function returning a future.
    Async(Rc<AsyncRouterFn>),
    /// A function returning names and [`Send`](crate::Send)s (a future:
    /// wrap a synchronous body in `Box::pin(async move { ... })`).
    Sends(Rc<SendRouterFn>),
    /// A [`Sends`](Self::Sends) router that is also given the task it routes
    /// from, whose run it is part of (the JS bindings report it as a run
    /// nested in the task's, as LangGraph.js's callbacks see a router).
    InTask(Rc<TaskRouterFn>),
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

    /// Runs the router (for task `task`, when one runs it) and maps its
    /// result to destinations (names through the path map; `Send`s as they are).
    pub(crate) async fn route(
        &self,
        state: State,
        task: Option<&NodeContext>,
    ) -> Result<Vec<Goto>> {
        let picked: Vec<Goto> = match &self.router {
            RouterFn::Sync(f) => f(&state)?.into_iter().map(Goto::Node).collect(),
            RouterFn::Async(f) => f(state).await?.into_iter().map(Goto::Node).collect(),
            RouterFn::Sends(f) => f(state).await?,
            RouterFn::InTask(f) => f(state, task).await?,
        };
        let Some(map) = &self.path_map else {
            return Ok(picked);
        };
        picked
            .into_iter()
            .map(|goto| match goto {
                Goto::Node(key) => map.get(&key).cloned().map(Goto::Node).ok_or_else(|| {
                    crate::error::Error::new(crate::error::ErrorKind::Key, format!("'{key}'"))
                        .with_code("INVALID_BRANCH")
                }),
                send => Ok(send),
            })
            .collect()
    }
}
