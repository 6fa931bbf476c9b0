//! [`VecMap`]: a small ordered map kept as one sorted vector.

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Borrow;
use std::fmt;
use std::marker::PhantomData;

/// An ordered map kept as a vector of entries sorted by key, allocated to
/// exactly its length.
///
/// Why not a `BTreeMap`: every superstep stores new version maps
/// (`channel_versions`, one node's `versions_seen`) of a handful of entries,
/// and a B-tree leaf always allocates room for 11. A vector sized to its
/// entries keeps a W1 checkpoint's version maps in about a third of the
/// memory. Lookups are binary searches; inserting a new key shifts the
/// entries after it, which is cheap for the tens of channels a graph has.
/// Iteration, `Debug` and serde see it exactly as they see a `BTreeMap`.
#[derive(Clone, PartialEq, Eq)]
pub struct VecMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> VecMap<K, V> {
    /// An empty map (allocates nothing).
    pub const fn new() -> Self {
        VecMap {
            entries: Vec::new(),
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entries in key order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&K, &V)> + DoubleEndedIterator {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// Keys in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &K> + DoubleEndedIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    /// Values in key order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &V> + DoubleEndedIterator {
        self.entries.iter().map(|(_, v)| v)
    }
}

impl<K: Ord, V> VecMap<K, V> {
    fn find<Q>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    /// The value of `key`.
    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).ok().map(|at| &self.entries[at].1)
    }

    /// The stored key and value of `key` (to share the stored key).
    pub fn get_key_value<Q>(&self, key: &Q) -> Option<(&K, &V)>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).ok().map(|at| {
            let (k, v) = &self.entries[at];
            (k, v)
        })
    }

    /// The value of `key`, to change it.
    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).ok().map(|at| &mut self.entries[at].1)
    }

    /// Whether `key` has a value.
    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).is_ok()
    }

    /// Sets `key` to `value`; returns the value it replaces.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(at) => Some(std::mem::replace(&mut self.entries[at].1, value)),
            Err(at) => {
                // Exact growth: these maps are kept per checkpoint, and
                // doubling would leave unused slots in every one of them.
                self.entries.reserve_exact(1);
                self.entries.insert(at, (key, value));
                None
            }
        }
    }

    /// The value of `key`, inserting `V::default()` first when it has none.
    pub fn get_or_insert_default(&mut self, key: K) -> &mut V
    where
        V: Default,
    {
        let at = match self.find(&key) {
            Ok(at) => at,
            Err(at) => {
                self.entries.reserve_exact(1);
                self.entries.insert(at, (key, V::default()));
                at
            }
        };
        &mut self.entries[at].1
    }

    /// Removes `key`; returns its value.
    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).ok().map(|at| self.entries.remove(at).1)
    }
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for VecMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for VecMap<K, V> {
    /// Like `BTreeMap`: a later entry for the same key wins.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut entries: Vec<(K, V)> = iter.into_iter().collect();
        // Stable sort keeps equal keys in input order; keep the last of each.
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(K, V)> = Vec::with_capacity(entries.len());
        for entry in entries {
            match out.last_mut() {
                Some(last) if last.0 == entry.0 => *last = entry,
                _ => out.push(entry),
            }
        }
        out.shrink_to_fit();
        VecMap { entries: out }
    }
}

impl<K: Ord, V, const N: usize> From<[(K, V); N]> for VecMap<K, V> {
    fn from(entries: [(K, V); N]) -> Self {
        entries.into_iter().collect()
    }
}

impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> std::ops::Index<&Q> for VecMap<K, V> {
    type Output = V;

    /// Panics when `key` is missing, like `BTreeMap`'s index.
    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry found for key")
    }
}

impl<'a, K, V> IntoIterator for &'a VecMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

impl<K, V> IntoIterator for VecMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<K: Serialize, V: Serialize> Serialize for VecMap<K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, K: Ord + Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for VecMap<K, V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct MapVisitor<K, V>(PhantomData<(K, V)>);
        impl<'de, K: Ord + Deserialize<'de>, V: Deserialize<'de>> Visitor<'de> for MapVisitor<K, V> {
            type Value = VecMap<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::with_capacity(access.size_hint().unwrap_or(0));
                while let Some(entry) = access.next_entry()? {
                    entries.push(entry);
                }
                Ok(entries.into_iter().collect())
            }
        }
        d.deserialize_map(MapVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_entries_sorted_and_replaces_existing_keys() {
        let mut m = VecMap::new();
        assert_eq!(m.insert("b", 2), None);
        assert_eq!(m.insert("a", 1), None);
        assert_eq!(m.insert("c", 3), None);
        assert_eq!(m.insert("b", 20), Some(2));
        assert_eq!(m.keys().copied().collect::<Vec<_>>(), ["a", "b", "c"]);
        assert_eq!(m["b"], 20);
        assert_eq!(m.remove("a"), Some(1));
        assert!(!m.contains_key("a"));
        assert_eq!(m.len(), 2);
    }

    #[test]
    fn collecting_keeps_the_last_value_of_a_repeated_key_like_a_btreemap() {
        let m: VecMap<&str, i32> = [("x", 1), ("y", 2), ("x", 3)].into();
        let b: std::collections::BTreeMap<&str, i32> = [("x", 1), ("y", 2), ("x", 3)].into();
        assert_eq!(m.iter().collect::<Vec<_>>(), b.iter().collect::<Vec<_>>());
    }

    #[test]
    fn serializes_and_debugs_as_a_map_in_key_order() {
        let m: VecMap<String, u32> = [("b".to_owned(), 2), ("a".to_owned(), 1)].into();
        assert_eq!(serde_json::to_string(&m).unwrap(), r#"{"a":1,"b":2}"#);
        assert_eq!(format!("{m:?}"), r#"{"a": 1, "b": 2}"#);
        let back: VecMap<String, u32> = serde_json::from_str(r#"{"b":2,"a":1}"#).unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn grows_to_exactly_its_length() {
        let mut m = VecMap::new();
        for i in 0..5 {
            m.insert(i, i);
        }
        assert_eq!(m.entries.capacity(), 5);
        m.get_or_insert_default(9);
        assert_eq!(m.entries.capacity(), 6);
    }

    #[test]
    fn random_operations_match_a_btreemap() {
        let mut x: u64 = 7;
        let mut below = |n: u64| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (x >> 33) % n
        };
        let mut m: VecMap<u64, u64> = VecMap::new();
        let mut b = std::collections::BTreeMap::new();
        for step in 0..5_000 {
            let k = below(40);
            match below(3) {
                0 => assert_eq!(m.insert(k, step), b.insert(k, step)),
                1 => assert_eq!(m.remove(&k), b.remove(&k)),
                _ => {
                    *m.get_or_insert_default(k) += 1;
                    *b.entry(k).or_default() += 1;
                }
            }
            assert_eq!(m.get(&k), b.get(&k));
            assert_eq!(m.contains_key(&k), b.contains_key(&k));
            assert_eq!(m.len(), b.len());
        }
        assert!(m.iter().eq(b.iter()));
        assert!(m.clone().into_iter().eq(b.into_iter()));
    }
}
