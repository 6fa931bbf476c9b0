//! Where a thread's actions run. The buttons build one [`Action`]
//! whatever the thread; the session's [`ThreadSource`] decides whether
//! this page's engine runs it ([`Session::perform`]) or the LangGraph
//! server the thread was read from ([`Session::server_action`] says which
//! calls). A server thread's nodes never run in the page: every in-page
//! engine call on one is refused ([`ON_SERVER`]).

use chronograph::COPY;
use serde_json::Value;

use super::{LogLine, Outcome, Session};
use crate::server::{At, ServerAction, ServerThread, Step};

/// Why the in-page engine refuses to act on a server thread.
pub const ON_SERVER: &str =
    "This thread lives on a LangGraph server: its actions run there, with the real graph";

/// Why an in-page thread cannot be forked into a new thread.
pub const NEW_THREAD_ON_SERVER: &str =
    "Fork into a new thread copies a thread on its LangGraph server: this thread lives in the page";

/// Where a thread's actions run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ThreadSource {
    /// In this page's engine (a scenario, an edited spec, an imported file).
    #[default]
    InPage,
    /// On the LangGraph server the thread was read from.
    Server(ServerThread),
}

/// One of the buttons' actions, on a checkpoint of the thread.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Replay: `invoke(None, id)`.
    Replay(String),
    /// Copy: `update_state(id, None, as_node="__copy__")`.
    Copy(String),
    /// Fork: `update_state(id, values, as_node)`, then (`and_run`) a replay
    /// from the checkpoint it created.
    Update {
        /// The checkpoint forked.
        id: String,
        /// The state update.
        values: Value,
        /// The node it is written as (`None`: inferred).
        as_node: Option<String>,
        /// "Apply and run".
        and_run: bool,
    },
    /// Resume an interrupt: `invoke(Command(resume=value), id)`.
    Resume {
        /// The selected checkpoint (inside a subgraph, its root parent resumes).
        id: String,
        /// The resume value.
        value: Value,
    },
    /// Fork into a new thread: a copy of the thread on its server whose
    /// latest checkpoint is this one's copy (server threads only: an
    /// in-page thread has no second thread to open).
    NewThread(String),
}

impl Session {
    /// Where this thread's actions run.
    pub fn source(&self) -> &ThreadSource {
        &self.source
    }

    /// Runs this thread's actions on `source` from now on.
    pub fn set_source(&mut self, source: ThreadSource) {
        self.source = source;
    }

    /// Whether the thread lives on a LangGraph server.
    pub fn on_server(&self) -> bool {
        matches!(self.source, ThreadSource::Server(_))
    }

    /// Runs `action` in this page's engine (refused for a server thread).
    pub fn perform(&mut self, action: Action) -> chronograph::Result<Outcome> {
        match action {
            Action::Replay(id) => self.replay(&id),
            Action::Copy(id) => self.copy(&id),
            Action::Update {
                id,
                values,
                as_node,
                and_run: true,
            } => self.fork_and_run(&id, values, as_node.as_deref()),
            Action::Update {
                id,
                values,
                as_node,
                and_run: false,
            } => self.update(&id, Some(values), as_node.as_deref()),
            Action::Resume { id, value } => self.resume(value, Some(&id)),
            Action::NewThread(_) => Err(chronograph::Error::value(NEW_THREAD_ON_SERVER)),
        }
    }

    /// The server calls that run `action`, for a server thread (`None` for
    /// an in-page one). A resume runs from the root checkpoint whose task
    /// ran the selected subgraph checkpoint, as in the page.
    pub fn server_action(&self, action: &Action) -> Option<ServerAction> {
        let ThreadSource::Server(thread) = &self.source else {
            return None;
        };
        let (id, step) = match action {
            Action::Replay(id) => (id.clone(), Step::Run { resume: None }),
            Action::Copy(id) => (
                id.clone(),
                Step::Update {
                    values: None,
                    as_node: Some(COPY.to_owned()),
                    and_run: false,
                },
            ),
            Action::Update {
                id,
                values,
                as_node,
                and_run,
            } => (
                id.clone(),
                Step::Update {
                    values: Some(values.clone()),
                    as_node: as_node.clone(),
                    and_run: *and_run,
                },
            ),
            Action::Resume { id, value } => (
                self.resume_target(id),
                Step::Run {
                    resume: Some(value.clone()),
                },
            ),
            Action::NewThread(id) => (id.clone(), Step::NewThread),
        };
        let ns = self.ns_of(&id);
        Some(ServerAction {
            thread: thread.clone(),
            at: At { id, ns },
            step,
        })
    }

    /// Gives this session, read again from the server, the log of the
    /// thread before (`earlier`) and then `line` (the calls that changed it
    /// on the server), instead of its own `import_thread(server)` line: a
    /// reload is not a new import.
    pub fn carry_log(&mut self, earlier: Vec<LogLine>, line: Option<LogLine>) {
        self.log = earlier;
        self.log.extend(line);
    }
}
