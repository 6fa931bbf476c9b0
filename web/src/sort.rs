//! One stable sort for the whole app.
//!
//! The standard library's stable sort is generic over the element and the
//! comparison, so every `sort_by` call site compiles its own copy of the whole
//! driftsort (about 4 KB of wasm each; 30 copies in the app before this). Here
//! the elements are ordered through a permutation of their indices, sorted by
//! one non-generic function that takes the comparison as `&dyn Fn`: each call
//! site adds only the small code that applies the permutation. The order is
//! the standard library's exactly: a stable sort of the indices by the
//! elements' order keeps equal elements in their original order, as
//! [`slice::sort_by`] does. The lists sorted here are a thread's checkpoints
//! at most, where a dynamic call per comparison costs nothing a user sees.

use std::cmp::Ordering;

/// Sorts `items` stably by `compare`, as [`slice::sort_by`] would.
pub fn sort_by<T>(items: &mut Vec<T>, compare: impl Fn(&T, &T) -> Ordering) {
    let mut order: Vec<usize> = (0..items.len()).collect();
    sort_indices(&mut order, &|a, b| compare(&items[a], &items[b]));
    let mut slots: Vec<Option<T>> = std::mem::take(items).into_iter().map(Some).collect();
    items.extend(order.into_iter().filter_map(|i| slots[i].take()));
}

/// Sorts `items` stably by `key`, as [`slice::sort_by_key`] would (the key is
/// computed twice per comparison there too).
pub fn sort_by_key<T, K: Ord>(items: &mut Vec<T>, key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` stably in their own order, as [`slice::sort`] would.
pub fn sort<T: Ord>(items: &mut Vec<T>) {
    sort_by(items, T::cmp);
}

/// The one instantiation of the standard library's sort: indices, compared
/// through a trait object.
#[inline(never)]
fn sort_indices(order: &mut [usize], compare: &dyn Fn(usize, usize) -> Ordering) {
    order.sort_by(|&a, &b| compare(a, b));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairs whose first field repeats, so stability shows: a sort that broke
    /// ties differently would order the second fields differently.
    fn pairs() -> Vec<(u32, usize)> {
        (0..200).map(|i| ((i * 7919 % 13) as u32, i)).collect()
    }

    #[test]
    fn sort_by_orders_as_the_standard_library_does() {
        let mut ours = pairs();
        let mut std = pairs();
        sort_by(&mut ours, |a, b| b.0.cmp(&a.0));
        std.sort_by_key(|p| std::cmp::Reverse(p.0));
        assert_eq!(ours, std);
        assert_ne!(ours, pairs(), "the input was not already sorted");
    }

    #[test]
    fn sort_by_key_and_sort_order_as_the_standard_library_does() {
        let mut ours = pairs();
        let mut std = pairs();
        sort_by_key(&mut ours, |p| p.0);
        std.sort_by_key(|p| p.0);
        assert_eq!(ours, std);
        let mut words: Vec<String> = ["b", "a", "c", "a", ""].map(String::from).to_vec();
        let mut expected = words.clone();
        sort(&mut words);
        expected.sort();
        assert_eq!(words, expected);
        let mut empty: Vec<u8> = Vec::new();
        sort(&mut empty);
        assert!(empty.is_empty());
    }
}
