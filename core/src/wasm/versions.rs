//! Channel versions written for JS without `fmt`.
//!
//! A checkpoint tuple carries a version per channel in `channel_versions`
//! and again per node in `versions_seen`; listing a long history writes
//! tens of thousands of them. `Version` serializes through `Display`
//! (`write!("{:032}.{:016}")`), which goes through the formatting
//! machinery character by character and was most of the time of
//! `MemorySaver.list`. These wrappers write the very same text with plain
//! digit arithmetic.

use crate::checkpoint::Version;
use crate::ChannelVersions;
use serde::{Serialize, Serializer};

/// A version's text on the stack: at most 32 + 1 + 20 bytes.
struct VersionText {
    bytes: [u8; 56],
    len: usize,
}

impl VersionText {
    /// The same text as `Version`'s `Display`:
    /// `"<counter, 32 digits>.<salt, 16 digits>"`.
    fn new(v: &Version) -> Self {
        let mut t = VersionText {
            bytes: [b'0'; 56],
            len: 0,
        };
        t.push_padded(v.counter, 32);
        t.bytes[t.len] = b'.';
        t.len += 1;
        t.push_padded(v.salt, 16);
        t
    }

    /// The decimal digits of `n`, left-padded with zeros to `width` (as
    /// `format!("{n:0width$}")`).
    fn push_padded(&mut self, mut n: u64, width: usize) {
        let mut digits = [0u8; 20];
        let mut len = 0;
        loop {
            digits[len] = b'0' + (n % 10) as u8;
            len += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        let start = self.len + width.saturating_sub(len);
        self.bytes[self.len..start].fill(b'0');
        for (i, d) in digits[..len].iter().rev().enumerate() {
            self.bytes[start + i] = *d;
        }
        self.len = start + len;
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).expect("ASCII digits")
    }
}

/// A version, serialized as its `Display` text.
struct VersionOut<'a>(&'a Version);

impl Serialize for VersionOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(VersionText::new(self.0).as_str())
    }
}

/// `channel_versions`: channel → version text.
pub struct VersionsOut<'a>(pub &'a ChannelVersions);

impl Serialize for VersionsOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, VersionOut(v))))
    }
}

/// `versions_seen`: node → channel → version text.
pub struct VersionsSeenOut<'a>(pub &'a crate::VersionsSeen);

impl Serialize for VersionsSeenOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, VersionsOut(v))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn the_same_text_as_display() {
        let values = [
            0,
            1,
            9,
            10,
            99,
            1234,
            10u64.pow(15),
            10u64.pow(16),
            10u64.pow(19),
            u64::MAX - 1,
            u64::MAX,
        ];
        for counter in values {
            for salt in values {
                let v = Version { counter, salt };
                assert_eq!(VersionText::new(&v).as_str(), v.to_string());
            }
        }
    }

    #[test]
    fn maps_serialize_as_the_core_maps_do() {
        let mut versions = ChannelVersions::new();
        versions.insert(
            "a".into(),
            Version {
                counter: 3,
                salt: 7,
            },
        );
        versions.insert(
            "b\"q".into(),
            Version {
                counter: u64::MAX,
                salt: 123456789012345678,
            },
        );
        let mut seen = crate::VersionsSeen::new();
        seen.insert("n".into(), Arc::new(versions.clone()));
        seen.insert("empty".into(), Arc::new(ChannelVersions::new()));
        assert_eq!(
            serde_json::to_string(&VersionsOut(&versions)).unwrap(),
            serde_json::to_string(&versions).unwrap()
        );
        assert_eq!(
            serde_json::to_string(&VersionsSeenOut(&seen)).unwrap(),
            serde_json::to_string(&seen).unwrap()
        );
    }
}
