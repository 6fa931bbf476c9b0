//! LangGraph's `__enter__`: what a loop is given ([`Frame`]) and the
//! checkpoint it starts from ([`Loop::load`]).

use super::durability::join_sets;
use super::thread_pool_saves::VirtualExecutor;
use super::{Loop, Sink};
use crate::channels::ChannelKind;
use crate::checkpoint::{
    Checkpoint, CheckpointConfig, CheckpointSaver, CheckpointTuple, ListOptions, ListTarget,
};
use crate::checkpoint_ns::ROOT_NS;
use crate::clock::IdGenerator;
use crate::error::{Error, Result};
use crate::graph::{GraphInner, NestedEvents, NullResume, ReplayState, Scratchpad};
use crate::pregel::delta::DeltaCounters;
use crate::types::{Command, Durability, Resume, RunInput, RunnableConfig};
use serde_json::Value;
use std::collections::BTreeMap;
use std::rc::Rc;

/// What a loop is given: the root's from the run config; a subgraph's from
/// the task that runs it (LangGraph's task `configurable`).
pub(super) struct Frame {
    pub(super) saver: Option<Rc<dyn CheckpointSaver>>,
    pub(super) thread_id: String,
    /// The loop's namespace (`""` at the root).
    pub(super) ns: String,
    /// The checkpoint to load: a `checkpoint_id`, or this namespace's
    /// `checkpoint_map` entry.
    pub(super) checkpoint_id: Option<String>,
    /// The config's `checkpoint_map`: becomes the `parents` of the
    /// checkpoints this loop saves.
    pub(super) checkpoint_map: BTreeMap<String, String>,
    /// `CONFIG_KEY_RESUMING`, set by the parent for a subgraph.
    pub(super) resuming: Option<bool>,
    pub(super) replay: Option<Rc<ReplayState>>,
    pub(super) resume_map: Rc<BTreeMap<String, Value>>,
    pub(super) parent_null_resume: Option<Rc<NullResume>>,
    /// The task running this loop, for a subgraph.
    pub(super) outer: Option<Rc<Scratchpad>>,
    /// The root graph's id generator: ids increase over the whole thread.
    pub(super) ids: Rc<IdGenerator>,
    pub(super) config: Rc<RunnableConfig>,
    /// When the run streams subgraphs: the queue subgraph loops report
    /// their events to (the root forwards them to its sink).
    pub(super) events: Option<Rc<NestedEvents>>,
}

impl Frame {
    /// The root graph's frame, from the run's config and input.
    pub(super) fn root(
        graph: &GraphInner,
        config: &RunnableConfig,
        input: &RunInput,
    ) -> Result<Frame> {
        let resume_map = match input {
            RunInput::Command(Command {
                resume: Some(Resume::ById(map)),
                ..
            }) => map.clone(),
            _ => BTreeMap::new(),
        };
        let (thread_id, checkpoint_id, checkpoint_map) = match &graph.saver {
            Some(_) => {
                let addr = config.checkpoint_config()?;
                let map = config.checkpoint_map();
                // A root run is always in the root namespace: a subgraph's
                // config resumes the root from its `checkpoint_map` entry.
                let root_entry = map.get(ROOT_NS).cloned();
                let id = match addr.checkpoint_ns.is_empty() {
                    true => addr.checkpoint_id.or(root_entry),
                    false => root_entry,
                };
                (addr.thread_id, id, map)
            }
            None => {
                if let RunInput::Command(Command {
                    resume: Some(_), ..
                }) = input
                {
                    return Err(Error::runtime(
                        "Cannot use Command(resume=...) without checkpointer",
                    ));
                }
                (String::new(), None, BTreeMap::new())
            }
        };
        Ok(Frame {
            saver: graph.saver.clone(),
            thread_id,
            ns: ROOT_NS.to_owned(),
            checkpoint_id,
            checkpoint_map,
            resuming: None,
            replay: None,
            resume_map: Rc::new(resume_map),
            parent_null_resume: None,
            outer: None,
            ids: graph.ids.clone(),
            config: Rc::new(config.clone()),
            events: None,
        })
    }

    /// A subgraph's frame, from the task `pad` that runs it.
    pub(super) fn nested(pad: &Rc<Scratchpad>, graph: &GraphInner) -> Frame {
        let tick = &pad.tick;
        let ns = graph.subgraph_ns(&tick.checkpoint_ns, &pad.node, &pad.task_id);
        Frame {
            saver: tick.saver.clone(),
            thread_id: tick.thread_id.clone(),
            checkpoint_id: tick.checkpoint_map.get(&ns).cloned(),
            ns,
            checkpoint_map: tick.checkpoint_map.clone(),
            resuming: tick.resuming,
            replay: tick.replay.clone(),
            resume_map: tick.resume_map.clone(),
            parent_null_resume: Some(tick.null_resume.clone()),
            outer: Some(pad.clone()),
            ids: tick.ids.clone(),
            config: tick.config.clone(),
            events: tick.events.clone(),
        }
    }

    /// Whether this loop runs a subgraph.
    pub(super) fn is_nested(&self) -> bool {
        self.outer.is_some()
    }
}

impl<'a> Loop<'a> {
    /// LangGraph's `__enter__`: loads the checkpoint the run starts from.
    pub(super) fn load(
        graph: &'a GraphInner,
        mut frame: Frame,
        sink: Option<Sink<'a>>,
    ) -> Result<Self> {
        let thread = CheckpointConfig {
            thread_id: frame.thread_id.clone(),
            checkpoint_ns: frame.ns.clone(),
            checkpoint_id: None,
        };
        let addressed = frame.checkpoint_id.is_some() || frame.replay.is_some();
        let (loaded, superseded) = load_tuple(&mut frame, &thread)?;
        let exit_mode = frame.config.durability == Some(Durability::Exit);
        let loaded_id = loaded.as_ref().map(|t| t.checkpoint.id.clone());
        let meta = loaded.as_ref().map(|t| t.metadata.clone());
        let delta = (!graph.delta.is_empty()).then(|| DeltaCounters::loaded(meta.as_ref()));
        let (mut checkpoint, parent_id, prev_id, step, source, pending) = match loaded {
            Some(t) => (
                t.checkpoint,
                t.config.checkpoint_id,
                t.parent_config.and_then(|p| p.checkpoint_id),
                t.metadata.step + 1,
                Some(t.metadata.source),
                t.pending_writes,
            ),
            None => {
                let (id, ts) = frame.ids.checkpoint_id(-2);
                // An unknown checkpoint id becomes a dangling parent, as in LangGraph.
                (
                    Checkpoint::empty(id, ts),
                    frame.checkpoint_id.clone(),
                    None,
                    -1,
                    None,
                    Vec::new(),
                )
            }
        };
        graph.adopt(&mut checkpoint);
        let exec = thread_pool_replay(graph, &frame, &checkpoint, exit_mode);
        Ok(Loop {
            graph,
            address: thread.at(checkpoint.id.clone()),
            parent: CheckpointConfig {
                checkpoint_id: parent_id,
                ..thread.clone()
            },
            prev_id,
            thread,
            stored_versions: checkpoint.channel_versions.clone(),
            checkpoint,
            source,
            meta,
            parent_in_run: false,
            extras: graph.metadata_extras(&frame.config),
            delta,
            frame,
            pending,
            step,
            stop: 0,
            addressed,
            superseded,
            is_replaying: false,
            knows_updated: false,
            values_reported: false,
            last_output: None,
            exit_mode,
            loaded_id,
            last_saved: None,
            last_step: 0,
            exit_writes: Vec::new(),
            exec,
            deferred: Vec::new(),
            cache_keys: Vec::new(),
            resumed_handlers: Vec::new(),
            sink,
        })
    }
}

/// The stored checkpoint a loop starts from, and whether a newer one
/// supersedes it: the addressed one; for a subgraph of a replaying run,
/// on its first entry the newest before the replayed checkpoint (the
/// subgraph does not resume then); else the thread's latest.
fn load_tuple(
    frame: &mut Frame,
    thread: &CheckpointConfig,
) -> Result<(Option<CheckpointTuple>, bool)> {
    let Some(s) = &frame.saver else {
        return Ok((None, false));
    };
    match (&frame.checkpoint_id, &frame.replay) {
        (Some(id), _) => {
            let loaded = s.get_tuple(&thread.at(id.clone()))?;
            let superseded = match &loaded {
                Some(_) => s.get_tuple(thread)?.map(|t| t.checkpoint.id) != Some(id.clone()),
                None => false,
            };
            Ok((loaded, superseded))
        }
        (None, Some(replay)) => {
            // A subgraph of a replaying run: its first entry starts
            // from the newest checkpoint before the replayed one.
            frame.resuming = None;
            let loaded = match replay.first_visit(&frame.ns) {
                true => s
                    .list(
                        &ListTarget::from(thread),
                        &ListOptions {
                            before: Some(replay.checkpoint_id.clone()),
                            limit: Some(1),
                            ..Default::default()
                        },
                    )?
                    .into_iter()
                    .next(),
                false => s.get_tuple(thread)?,
            };
            Ok((loaded, false))
        }
        (None, None) => Ok((s.get_tuple(thread)?, false)),
    }
}

/// The replay of LangGraph (Python)'s saves on a thread pool
/// ([`thread_pool_saves`](super::super::thread_pool_saves)), for a loop
/// that saves a graph with joins in the background: not under
/// `durability="exit"`, nor LangGraph.js's rule (`copy_on_save`).
fn thread_pool_replay(
    graph: &GraphInner,
    frame: &Frame,
    checkpoint: &Checkpoint,
    exit_mode: bool,
) -> Option<VirtualExecutor> {
    let has_joins = graph
        .channels
        .values()
        .any(|k| matches!(k, ChannelKind::Barrier(_)));
    (has_joins && !exit_mode && !graph.semantics.copy_on_save && frame.saver.is_some())
        .then(|| VirtualExecutor::new(join_sets(graph, checkpoint)))
}
