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

use super::model::{ChannelVersions, Name, Version, VersionsSeen};
use super::vec_map::VecMap;
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
    ///   version of that channel when it has that counter (the value stored
    ///   with it is the channel's);
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
                        .filter(|v| v.counter == n && !is_new);
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
        .resolve(Some(&parent), &mut salts());
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
            .resolve(Some(&parent), &mut salts());
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
        .resolve(None, &mut salts());
        assert_eq!(r.channel_versions["a"], v(3, 2));
        assert_eq!(r.new_versions["a"], v(3, 2));
        assert_eq!(r.versions_seen["n"]["a"], v(1, 1));
    }
}
