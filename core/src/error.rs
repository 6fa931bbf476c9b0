//! One error type for the whole engine: a LangGraph error class name, a stable
//! machine-readable code, and LangGraph's message text where LangGraph has one.

use std::borrow::Cow;
use std::fmt;

mod repr;

/// The link LangGraph appends to some messages; kept so texts match to the letter.
pub(crate) fn troubleshooting(code: &str) -> String {
    format!(
        "\nFor troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/errors/{code}"
    )
}

/// What went wrong, as a family. `name()` is the LangGraph (Python) class name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A write or update that the graph cannot accept (`InvalidUpdateError`).
    InvalidUpdate,
    /// The run used up its `recursion_limit` (`GraphRecursionError`).
    GraphRecursion,
    /// A run was started with nothing to do (`EmptyInputError`).
    EmptyInput,
    /// A bad argument or configuration (`ValueError`).
    Value,
    /// A required configuration key is missing (`KeyError`).
    Key,
    /// A value of the wrong type for a reducer (`TypeError`).
    Type,
    /// A call that is not allowed in the current state (`RuntimeError`).
    Runtime,
    /// A feature LangGraph itself does not support (`NotImplementedError`).
    NotImplemented,
    /// A node function failed; the error keeps the node's own error name.
    Node,
    /// A graph or scenario document that does not parse or does not validate.
    Spec,
    /// `interrupt(value)` paused a node (`GraphInterrupt`); the run stops
    /// and reports the interrupt instead of failing.
    GraphInterrupt,
    /// A node returned `Command(graph=PARENT)`: the command goes to the
    /// graph that runs this one (`ParentCommand`); from the root graph,
    /// which has no parent, it ends the run as this error.
    ParentCommand,
    /// The run was cancelled while the node ran (asyncio's
    /// `CancelledError`; a LangGraph.js run's abort signal): the task's
    /// outcome is not saved, and the run ends with this error.
    Cancelled,
}

impl ErrorKind {
    /// LangGraph's class name for this kind (a node error carries its own name).
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::InvalidUpdate => "InvalidUpdateError",
            ErrorKind::GraphRecursion => "GraphRecursionError",
            ErrorKind::EmptyInput => "EmptyInputError",
            ErrorKind::Value => "ValueError",
            ErrorKind::Key => "KeyError",
            ErrorKind::Type => "TypeError",
            ErrorKind::Runtime => "RuntimeError",
            ErrorKind::NotImplemented => "NotImplementedError",
            ErrorKind::Node => "NodeError",
            ErrorKind::Spec => "GraphSpecError",
            ErrorKind::GraphInterrupt => "GraphInterrupt",
            ErrorKind::ParentCommand => "ParentCommand",
            ErrorKind::Cancelled => "CancelledError",
        }
    }

    fn default_code(self) -> &'static str {
        match self {
            ErrorKind::InvalidUpdate => "INVALID_UPDATE",
            ErrorKind::GraphRecursion => "GRAPH_RECURSION_LIMIT",
            ErrorKind::EmptyInput => "EMPTY_INPUT",
            ErrorKind::Value => "INVALID_VALUE",
            ErrorKind::Key => "MISSING_KEY",
            ErrorKind::Type => "INVALID_VALUE_TYPE",
            ErrorKind::Runtime => "INVALID_OPERATION",
            ErrorKind::NotImplemented => "NOT_IMPLEMENTED",
            ErrorKind::Node => "NODE_ERROR",
            ErrorKind::Spec => "INVALID_SPEC",
            ErrorKind::GraphInterrupt => "GRAPH_INTERRUPT",
            ErrorKind::ParentCommand => "PARENT_COMMAND",
            ErrorKind::Cancelled => "RUN_CANCELLED",
        }
    }
}

/// An engine error. `Display` gives `"Name: message"`, the form LangGraph's
/// traces use, so the first line can be compared with them directly.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    kind: ErrorKind,
    name: Cow<'static, str>,
    code: &'static str,
    message: String,
    node: Option<String>,
    /// The values involved, for callers that word the error otherwise
    /// (boxed: errors stay small, as `Result`s carry them everywhere).
    values: Option<Box<ErrorValues>>,
}

/// The values an [`Error`] is about, and the channel they were written to.
#[derive(Debug, Clone, PartialEq)]
struct ErrorValues {
    channel: Option<String>,
    values: Vec<serde_json::Value>,
}

/// The engine's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error of `kind` with LangGraph's class name and the kind's default code.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            name: Cow::Borrowed(kind.name()),
            code: kind.default_code(),
            message: message.into(),
            node: None,
            values: None,
        }
    }

    /// The same error with a more specific machine-readable code.
    pub fn with_code(mut self, code: &'static str) -> Self {
        self.code = code;
        self
    }

    /// The same error, with the values it is about (say, the writes a
    /// single-value channel refused), which LangGraph's text leaves out and
    /// LangGraph.js's shows.
    pub fn with_values(mut self, values: Vec<serde_json::Value>) -> Self {
        self.values = Some(Box::new(ErrorValues {
            channel: None,
            values,
        }));
        self
    }

    /// The same error, about the writes `values` to `channel` (LangGraph's
    /// text names neither; LangGraph.js's `apply_writes` shows both).
    pub fn with_channel_values(mut self, channel: &str, values: Vec<serde_json::Value>) -> Self {
        self.values = Some(Box::new(ErrorValues {
            channel: Some(channel.to_owned()),
            values,
        }));
        self
    }

    /// The channel the error's values were written to (see [`Error::with_channel_values`]).
    pub fn channel(&self) -> Option<&str> {
        self.values.as_ref()?.channel.as_deref()
    }

    /// The values the error is about, when it names some (see [`Error::with_values`]).
    pub fn values(&self) -> Option<&[serde_json::Value]> {
        self.values.as_ref().map(|v| v.values.as_slice())
    }

    /// The same error, attributed to the node that raised it.
    pub fn in_node(mut self, node: impl Into<String>) -> Self {
        self.node = Some(node.into());
        self
    }

    /// An error raised by a node function, keeping the node's own error name
    /// (for example `ValueError`) so it reads the way the node wrote it.
    pub fn node_failure(name: impl Into<String>, message: impl Into<String>) -> Self {
        let name = name.into();
        Error {
            kind: ErrorKind::Node,
            name: if name.is_empty() {
                Cow::Borrowed("Error")
            } else {
                Cow::Owned(name)
            },
            code: ErrorKind::Node.default_code(),
            message: message.into(),
            node: None,
            values: None,
        }
    }

    /// `InvalidUpdateError`.
    pub fn invalid_update(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidUpdate, message)
    }

    /// `ValueError`.
    pub fn value(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Value, message)
    }

    /// `TypeError`.
    pub fn type_error(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Type, message)
    }

    /// `RuntimeError`.
    pub fn runtime(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Runtime, message)
    }

    /// A malformed or invalid graph/scenario document.
    pub fn spec(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Spec, message)
    }

    /// `ValueError("No checkpointer set")`, LangGraph.js code `MISSING_CHECKPOINTER`.
    pub fn no_checkpointer() -> Self {
        Self::value("No checkpointer set").with_code("MISSING_CHECKPOINTER")
    }

    /// The family of this error.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The class name, e.g. `InvalidUpdateError`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// A stable machine-readable code, e.g. `INVALID_UPDATE`.
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// The message, without the class name.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The node the error came from, when a node raised it.
    pub fn node(&self) -> Option<&str> {
        self.node.as_deref()
    }

    /// Python's `repr(exc)`, the form InMemorySaver stores for `__error__` writes.
    pub fn repr(&self) -> String {
        let escaped = self.message.replace('\\', "\\\\").replace('\'', "\\'");
        format!("{}('{}')", self.name, escaped)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.message)
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_name_colon_message() {
        let e = Error::invalid_update("Ambiguous update, specify as_node");
        assert_eq!(
            e.to_string(),
            "InvalidUpdateError: Ambiguous update, specify as_node"
        );
        assert_eq!(e.code(), "INVALID_UPDATE");
    }

    #[test]
    fn node_failure_keeps_its_name_and_reprs_like_python() {
        let e = Error::node_failure("ValueError", "it's broken").in_node("c");
        assert_eq!(e.to_string(), "ValueError: it's broken");
        assert_eq!(e.repr(), "ValueError('it\\'s broken')");
        assert_eq!(e.node(), Some("c"));
    }
}
