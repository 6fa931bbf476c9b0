//! [`VersionScheme`]: how a saver's channel versions look to its callers,
//! and how the versions of a checkpoint put from outside
//! ([`GivenVersions`]) become the store's own.
//!
//! The engine's versions are `counter.salt` ([`Version`]): the counter is
//! one more than the highest version it succeeds, exactly LangGraph.js's
//! integer (`getNextVersion(n) = n + 1`) and the integer part of
//! LangGraph (Python)'s `InMemorySaver` text; the salt keeps two branches
//! that reach the same counter apart, since a saver stores each channel's
//! value once per version. LangGraph.js callers see the counter alone.

use super::model::{ChannelVersions, Checkpoint, Name, ValueLayout, Version, VersionsSeen};
use super::vec_map::VecMap;
use crate::channels::ChannelValue;
use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use std::fmt;
use std::sync::Arc;

/// How a saver writes channel versions for its callers and reads theirs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum VersionScheme {
    /// LangGraph (Python)'s `InMemorySaver`: each version's text,
    /// `"<counter, 32 digits>.<salt, 16 digits>"`.
    #[default]
    Text,
    /// LangGraph.js's savers: the integer counter alone (1, 2, 3, ...);
    /// the salt stays in the store.
    Integer,
}

/// A channel version as a caller gives it: LangGraph.js's integer, or a
/// version's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GivenVersion {
    /// An integer version: the counter, salt to be chosen by the store.
    Counter(u64),
    /// A version's text, as [`VersionScheme::Text`] writes it.
    Version(Version),
}

impl<'de> Deserialize<'de> for GivenVersion {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Given;
        impl Visitor<'_> for Given {
            type Value = GivenVersion;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a non-negative integer or a version string")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<GivenVersion, E> {
                Ok(GivenVersion::Counter(v))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<GivenVersion, E> {
                // JSON numbers from JavaScript may come as floats: a whole one counts.
                match v.fract() == 0.0 && (0.0..9_007_199_254_740_992.0).contains(&v) {
                    true => Ok(GivenVersion::Counter(v as u64)),
                    false => Err(E::invalid_value(de::Unexpected::Float(v), &self)),
                }
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<GivenVersion, E> {
                v.parse().map(GivenVersion::Version).map_err(E::custom)
            }
        }
        d.deserialize_any(Given)
    }
}

/// The versions of a checkpoint put from outside (LangGraph.js's
/// `put(config, checkpoint, metadata, newVersions)`), before the store
/// makes them its own with [`GivenVersions::resolve`].
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct GivenVersions {
    /// `checkpoint.channel_versions`.
    #[serde(default)]
    pub channel_versions: VecMap<Name, GivenVersion>,
    /// `checkpoint.versions_seen`.
    #[serde(default)]
    pub versions_seen: VecMap<Name, VecMap<Name, GivenVersion>>,
    /// `newVersions`: the channels whose values changed.
    #[serde(default)]
    pub new_versions: VecMap<Name, GivenVersion>,
}

/// [`GivenVersions`] as the store's own.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResolvedVersions {
    /// The checkpoint's `channel_versions`.
    pub channel_versions: ChannelVersions,
    /// Its `versions_seen`.
    pub versions_seen: VersionsSeen,
    /// The channels whose values the store keeps from this checkpoint.
    pub new_versions: ChannelVersions,
}

impl GivenVersions {
    /// The store's versions for these, `parent` being the `channel_versions`
    /// of the checkpoint this one is put under:
    ///
    /// - a version's text is itself;
    /// - an integer of a channel outside `new_versions` is the parent's
    ///   version of that channel when it has that counter and
    ///   `same(channel, version)` says the value stored with it is the
    ///   channel's value here;
    /// - any other integer gets a version of its own, `fresh(counter)`, and
    ///   its channel's value is kept (as LangGraph.js's in-memory saver
    ///   keeps every value of every checkpoint);
    /// - an integer in `versions_seen` is the channel's own version when
    ///   the counters agree (seen is then not older than it, as with
    ///   integers), else that counter with salt 0 (ordered by its counter).
    ///
    /// Keys keep their order.
    pub fn resolve(
        self,
        parent: Option<&ChannelVersions>,
        same: &mut dyn FnMut(&Name, &Version) -> bool,
        fresh: &mut dyn FnMut(u64) -> Version,
    ) -> ResolvedVersions {
        let mut new_versions = ChannelVersions::new();
        let mut channel_versions = ChannelVersions::new();
        for (channel, given) in &self.channel_versions {
            let is_new = self.new_versions.contains_key(channel);
            let version = match *given {
                GivenVersion::Version(v) => {
                    if is_new {
                        new_versions.insert(channel.clone(), v);
                    }
                    v
                }
                GivenVersion::Counter(n) => {
                    let inherited = parent
                        .and_then(|p| p.get(channel))
                        .filter(|v| v.counter == n && !is_new && same(channel, v));
                    match inherited {
                        Some(v) => *v,
                        None => {
                            let v = fresh(n);
                            new_versions.insert(channel.clone(), v);
                            v
                        }
                    }
                }
            };
            channel_versions.insert(channel.clone(), version);
        }
        // New versions of channels the checkpoint does not version: kept as given.
        for (channel, given) in &self.new_versions {
            if !channel_versions.contains_key(channel) {
                let v = match *given {
                    GivenVersion::Version(v) => v,
                    GivenVersion::Counter(n) => fresh(n),
                };
                new_versions.insert(channel.clone(), v);
            }
        }
        let versions_seen = self
            .versions_seen
            .iter()
            .map(|(node, seen)| {
                let seen: ChannelVersions = seen
                    .iter()
                    .map(|(channel, given)| {
                        let v = match *given {
                            GivenVersion::Version(v) => v,
                            GivenVersion::Counter(n) => channel_versions
                                .get(channel)
                                .filter(|v| v.counter == n)
                                .copied()
                                .unwrap_or(Version {
                                    counter: n,
                                    salt: 0,
                                }),
                        };
                        (channel.clone(), v)
                    })
                    .collect();
                (node.clone(), Arc::new(seen))
            })
            .collect();
        ResolvedVersions {
            channel_versions,
            versions_seen,
            new_versions,
        }
    }
}

/// A checkpoint as a caller puts it (LangGraph.js's `put`): its versions
/// as integers or texts ([`GivenVersion`]), its values in the caller's key
/// order, any of them without a version.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct GivenCheckpoint {
    /// Format version.
    pub v: u32,
    /// Its id.
    pub id: String,
    /// Creation time.
    pub ts: String,
    /// Channel values, in the caller's order.
    pub channel_values: VecMap<Name, ChannelValue>,
    /// Channel versions.
    pub channel_versions: VecMap<Name, GivenVersion>,
    /// Per node, the versions it saw.
    pub versions_seen: VecMap<Name, VecMap<Name, GivenVersion>>,
    /// The channels its superstep updated, if the caller says.
    #[serde(default)]
    pub updated_channels: Option<Vec<Name>>,
    /// The channels whose values are lists of messages (see
    /// [`ValueLayout::messages`]); set by the caller, not read.
    #[serde(skip)]
    pub messages: Vec<Name>,
}

impl GivenCheckpoint {
    /// The checkpoint as the store keeps it, and the channels whose values
    /// it stores ([`GivenVersions::resolve`] with `new_versions`, `parent`
    /// and `fresh`; a parent's version is shared where `stored(channel,
    /// version)`, the value kept with it, is this checkpoint's value of
    /// the channel, both absent included). Its [`ValueLayout`] lists the
    /// values in the caller's order, those without a version included, so
    /// that it reads back as it was put.
    pub fn into_checkpoint(
        self,
        new_versions: VecMap<Name, GivenVersion>,
        parent: Option<&ChannelVersions>,
        stored: &dyn Fn(&Name, &Version) -> Option<ChannelValue>,
        fresh: &mut dyn FnMut(u64) -> Version,
    ) -> (Checkpoint, ChannelVersions) {
        let values = &self.channel_values;
        let mut same =
            |channel: &Name, v: &Version| stored(channel, v).as_ref() == values.get(channel);
        let resolved = GivenVersions {
            channel_versions: self.channel_versions.clone(),
            versions_seen: self.versions_seen.clone(),
            new_versions,
        }
        .resolve(parent, &mut same, fresh);
        let unversioned = self
            .channel_values
            .iter()
            .filter(|(channel, _)| !resolved.channel_versions.contains_key(*channel))
            .map(|(channel, value)| (channel.clone(), value.clone()))
            .collect();
        let layout = ValueLayout {
            order: self.channel_values.keys().cloned().collect(),
            unversioned,
            messages: self.messages,
        };
        let checkpoint = Checkpoint {
            v: self.v,
            id: self.id,
            ts: self.ts,
            channel_values: self.channel_values.into_iter().collect(),
            channel_versions: Arc::new(resolved.channel_versions),
            versions_seen: Arc::new(resolved.versions_seen),
            updated_channels: self.updated_channels,
            layout: Some(std::rc::Rc::new(layout)),
        };
        (checkpoint, resolved.new_versions)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(counter: u64, salt: u64) -> Version {
        Version { counter, salt }
    }

    fn given(json: &str) -> GivenVersions {
        serde_json::from_str(json).unwrap()
    }

    /// Fresh versions salted 100, 101, ...
    fn salts() -> impl FnMut(u64) -> Version {
        let mut next = 100;
        move |counter| {
            next += 1;
            v(counter, next - 1)
        }
    }

    #[test]
    fn integers_and_texts_are_read() {
        let g = given(
            r#"{"channel_versions": {"a": 3, "b": "00000000000000000000000000000002.0000000000000007"}}"#,
        );
        assert_eq!(g.channel_versions["a"], GivenVersion::Counter(3));
        assert_eq!(g.channel_versions["b"], GivenVersion::Version(v(2, 7)));
        assert_eq!(
            serde_json::from_str::<GivenVersion>("2.0").unwrap(),
            GivenVersion::Counter(2)
        );
        for bad in ["-1", "1.5", "true", "\"x\"", "null"] {
            assert!(serde_json::from_str::<GivenVersion>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn an_unchanged_integer_shares_the_parents_version_and_others_get_their_own() {
        let parent: ChannelVersions = [("a".into(), v(1, 4)), ("b".into(), v(2, 5))].into();
        let r = given(
            r#"{"channel_versions": {"b": 2, "a": 3, "c": 3},
                "versions_seen": {"n": {"a": 3, "b": 1}},
                "new_versions": {"a": 3}}"#,
        )
        .resolve(Some(&parent), &mut |_, _| true, &mut salts());
        assert_eq!(
            r.channel_versions.iter().collect::<Vec<_>>(),
            [
                (&"b".into(), &v(2, 5)),
                (&"a".into(), &v(3, 100)),
                (&"c".into(), &v(3, 101))
            ]
        );
        assert_eq!(
            r.new_versions,
            [("a".into(), v(3, 100)), ("c".into(), v(3, 101))].into()
        );
        let seen = &r.versions_seen["n"];
        assert_eq!(seen["a"], v(3, 100), "the channel's own version");
        assert_eq!(seen["b"], v(1, 0), "an older counter, salt 0");
        assert!(seen["b"] < r.channel_versions["b"]);
    }

    #[test]
    fn a_channel_in_new_versions_gets_a_version_of_its_own_even_with_the_parents_counter() {
        let parent: ChannelVersions = [("a".into(), v(1, 4))].into();
        let r = given(r#"{"channel_versions": {"a": 1}, "new_versions": {"a": 1, "z": 1}}"#)
            .resolve(Some(&parent), &mut |_, _| true, &mut salts());
        assert_eq!(r.channel_versions["a"], v(1, 100));
        assert_eq!(
            r.new_versions,
            [("a".into(), v(1, 100)), ("z".into(), v(1, 101))].into()
        );
    }

    #[test]
    fn texts_are_kept_as_they_are() {
        let r = given(
            r#"{"channel_versions": {"a": "3.2"}, "versions_seen": {"n": {"a": "1.1"}}, "new_versions": {"a": "3.2"}}"#,
        )
        .resolve(None, &mut |_, _| true, &mut salts());
        assert_eq!(r.channel_versions["a"], v(3, 2));
        assert_eq!(r.new_versions["a"], v(3, 2));
        assert_eq!(r.versions_seen["n"]["a"], v(1, 1));
    }

    #[test]
    fn a_given_checkpoint_keeps_its_values_in_order_those_without_a_version_in_its_layout() {
        let g: GivenCheckpoint = serde_json::from_str(
            r#"{"v": 4, "id": "c", "ts": "t",
                "channel_values": {"z": 1, "a": [2], "__pregel_tasks": []},
                "channel_versions": {"a": 1, "z": 1}, "versions_seen": {"__input__": {}}}"#,
        )
        .unwrap();
        let new: VecMap<Name, GivenVersion> = [("a".into(), GivenVersion::Counter(1))].into();
        let (c, stored) = g.into_checkpoint(new, None, &|_, _| None, &mut salts());
        let layout = c.layout.as_deref().unwrap();
        assert_eq!(
            layout.order,
            ["z".into(), "a".into(), "__pregel_tasks".into()] as [Name; 3]
        );
        assert_eq!(
            layout.unversioned.keys().collect::<Vec<_>>(),
            [&Name::from("__pregel_tasks")]
        );
        assert_eq!(c.channel_versions["a"], v(1, 100));
        assert_eq!(c.channel_versions["z"], v(1, 101));
        assert_eq!(stored.len(), 2, "no parent: every version is new");
        assert_eq!(c.channel_values.len(), 3);
        assert!(c.updated_channels.is_none());
    }

    #[test]
    fn a_parents_version_is_shared_only_for_the_same_value() {
        let parent: ChannelVersions = [("a".into(), v(1, 4)), ("b".into(), v(1, 4))].into();
        let g: GivenCheckpoint = serde_json::from_str(
            r#"{"v": 4, "id": "c", "ts": "t", "channel_values": {"a": "kept", "b": "changed"},
                "channel_versions": {"a": 1, "b": 1, "gone": 1}, "versions_seen": {}}"#,
        )
        .unwrap();
        let parent_with_gone: ChannelVersions = [("gone".into(), v(1, 4))]
            .into_iter()
            .chain(parent.iter().map(|(k, v)| (k.clone(), *v)))
            .collect();
        let stored = |c: &Name, _: &Version| match &**c {
            "gone" => Some(ChannelValue::from_json(serde_json::json!("was here"))),
            _ => Some(ChannelValue::from_json(serde_json::json!("kept"))),
        };
        let (c, new) = g.into_checkpoint(
            VecMap::new(),
            Some(&parent_with_gone),
            &stored,
            &mut salts(),
        );
        assert_eq!(c.channel_versions["a"], v(1, 4), "same value: shared");
        assert_eq!(c.channel_versions["b"], v(1, 100), "another value: its own");
        assert_eq!(
            c.channel_versions["gone"],
            v(1, 101),
            "no value here: its own, empty"
        );
        assert_eq!(
            new.keys().collect::<Vec<_>>(),
            [&Name::from("b"), &Name::from("gone")]
        );
    }
}
