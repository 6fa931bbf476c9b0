//! [`JsGraphSaver`]: the checkpointer a JS graph runs on. It stores what
//! the engine hands it as LangGraph.js's `MemorySaver` does, serialized:
//! a value that holds a value held by reference ([`super::held`]) is
//! stored the way LangGraph.js's serializer writes that value
//! ([`super::held::stored`]), while the run goes on with the value itself,
//! as LangGraph.js's channels do. Everything else passes through
//! untouched (and costs nothing: with no value held, `put` and
//! `put_writes` go straight to the saver).

use super::held;
use chronograph::{
    ChannelValue, ChannelVersions, Checkpoint, CheckpointConfig, CheckpointMetadata,
    CheckpointSaver, CheckpointTuple, ListOptions, ListTarget, Result, Version,
};
use serde_json::Value;
use std::rc::Rc;

/// A saver whose writes are stored as LangGraph.js's serializer stores them.
pub struct JsGraphSaver(pub Rc<dyn CheckpointSaver>);

/// A channel value as stored, when it holds a value held by reference.
fn stored_channel(value: &ChannelValue) -> Result<Option<ChannelValue>> {
    let holds = match value {
        ChannelValue::Json(v) => held::contains_refs(v),
        ChannelValue::List(items) => items.iter().any(|i| held::contains_refs(i)),
    };
    match holds {
        true => Ok(Some(ChannelValue::from_json(held::stored(
            &value.to_json(),
        )?))),
        false => Ok(None),
    }
}

/// `checkpoint` with the values of the channels in `new_versions` only
/// (the values a saver's `put` stores).
fn new_values_only(checkpoint: &Checkpoint, new_versions: &ChannelVersions) -> Checkpoint {
    let mut copy = checkpoint.clone_without_values();
    for (channel, _) in new_versions.iter() {
        if let Some(value) = checkpoint.channel_values.get(channel) {
            copy.channel_values.insert(channel.clone(), value.clone());
        }
    }
    copy
}

impl CheckpointSaver for JsGraphSaver {
    fn get_tuple(&self, config: &CheckpointConfig) -> Result<Option<CheckpointTuple>> {
        self.0.get_tuple(config)
    }

    fn list(&self, target: &ListTarget, options: &ListOptions) -> Result<Vec<CheckpointTuple>> {
        self.0.list(target, options)
    }

    fn put(
        &self,
        config: &CheckpointConfig,
        checkpoint: &Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: &ChannelVersions,
    ) -> Result<CheckpointConfig> {
        if !held::any() {
            return self.0.put(config, checkpoint, metadata, new_versions);
        }
        // Only the channels with new values are stored now (the others
        // already are): a saver takes the values of `new_versions` only, as
        // LangGraph's do. So the copy, made only when one of them holds a
        // held value, has those values alone: no copy of the whole state.
        let mut copy: Option<Checkpoint> = None;
        for (channel, _) in new_versions.iter() {
            let Some(value) = checkpoint.channel_values.get(channel) else {
                continue;
            };
            if let Some(stored) = stored_channel(value)? {
                copy.get_or_insert_with(|| new_values_only(checkpoint, new_versions))
                    .channel_values
                    .insert(channel.clone(), stored);
            }
        }
        self.0.put(
            config,
            copy.as_ref().unwrap_or(checkpoint),
            metadata,
            new_versions,
        )
    }

    fn put_writes(
        &self,
        config: &CheckpointConfig,
        writes: &[(String, Value)],
        task_id: &str,
        task_path: &str,
    ) -> Result<()> {
        if !held::any() || !writes.iter().any(|(_, v)| held::contains_refs(v)) {
            return self.0.put_writes(config, writes, task_id, task_path);
        }
        let stored = writes
            .iter()
            .map(|(c, v)| Ok((c.clone(), held::stored(v)?)))
            .collect::<Result<Vec<_>>>()?;
        self.0.put_writes(config, &stored, task_id, task_path)
    }

    fn delete_thread(&self, thread_id: &str) -> Result<()> {
        self.0.delete_thread(thread_id)
    }

    fn get_next_version(&self, current: Option<Version>) -> Version {
        self.0.get_next_version(current)
    }
}
