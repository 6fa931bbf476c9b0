//! The branch the history player walks (the scrubber under the tree): from
//! the thread's root to the tip of the selected checkpoint's branch.
//!
//! Pure code over [`Layout`]: a branch is a lane, so its continuation below
//! a checkpoint is the child drawn in the same lane, and its start is the
//! chain of parents up to the root (through the lanes it forked from).

use super::Layout;

/// Indices from the root to the tip of the branch through `index`, in
/// order: the ancestors of `index`, `index`, then the same-lane children
/// below it. Empty when `index` is not in the layout.
pub fn branch_path(layout: &Layout, index: usize) -> Vec<usize> {
    let Some(node) = layout.node(index) else {
        return Vec::new();
    };
    let mut path = vec![index];
    let mut cur = node.parent;
    // A parent chain cannot be longer than the thread (guards a loop in bad data).
    while let Some(p) = cur.filter(|_| path.len() <= layout.len()) {
        path.push(p);
        cur = layout.node(p).and_then(|n| n.parent);
    }
    path.reverse();
    let lane = node.lane;
    let mut tip = index;
    // Children come after their parent in creation order, so one forward
    // scan finds the whole continuation.
    for (i, n) in layout.nodes().iter().enumerate().skip(index + 1) {
        if n.parent == Some(tip) && n.lane == lane {
            path.push(i);
            tip = i;
        }
    }
    path
}

/// Where `current` is on `path` (`None`: not on it).
pub fn position(path: &[usize], current: Option<usize>) -> Option<usize> {
    current.and_then(|c| path.iter().position(|&i| i == c))
}

/// The checkpoint `delta` steps along `path` from `current`, clamped to the
/// path; from off the path, a step forward starts at the root and a step
/// back at the tip.
pub fn step(path: &[usize], current: Option<usize>, delta: isize) -> Option<usize> {
    let last = path.len().checked_sub(1)?;
    let at = match position(path, current) {
        Some(at) => at.saturating_add_signed(delta).min(last),
        None if delta >= 0 => 0,
        None => last,
    };
    path.get(at).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::NodeIn;

    /// c0 ─ c1 ─ c2 ─ c3, with a fork c4 under c1 continued by c5, and c6 under c3.
    fn tree() -> Layout {
        Layout::compute(&[
            NodeIn::root("c0"),
            NodeIn::child("c1", "c0"),
            NodeIn::child("c2", "c1"),
            NodeIn::child("c3", "c2"),
            NodeIn::child("c4", "c1"),
            NodeIn::child("c5", "c4"),
            NodeIn::child("c6", "c3"),
        ])
    }

    #[test]
    fn the_main_branch_runs_from_the_root_to_its_tip_from_any_checkpoint_on_it() {
        let l = tree();
        for i in [0, 1, 2, 3, 6] {
            assert_eq!(branch_path(&l, i), vec![0, 1, 2, 3, 6], "from c{i}");
        }
    }

    #[test]
    fn a_fork_branch_starts_at_the_root_through_its_fork_point() {
        let l = tree();
        assert_eq!(branch_path(&l, 4), vec![0, 1, 4, 5]);
        assert_eq!(branch_path(&l, 5), vec![0, 1, 4, 5]);
    }

    #[test]
    fn an_unknown_index_has_no_path() {
        assert!(branch_path(&tree(), 99).is_empty());
        assert!(branch_path(&Layout::new(), 0).is_empty());
    }

    #[test]
    fn steps_clamp_to_the_ends_and_enter_the_path_at_the_root_or_the_tip() {
        let path = [0, 1, 4, 5];
        assert_eq!(step(&path, Some(1), 1), Some(4));
        assert_eq!(step(&path, Some(5), 1), Some(5), "the tip stays");
        assert_eq!(step(&path, Some(0), -1), Some(0), "the root stays");
        assert_eq!(step(&path, Some(4), -10), Some(0));
        assert_eq!(
            step(&path, Some(3), 1),
            Some(0),
            "off the path, forward starts at the root"
        );
        assert_eq!(
            step(&path, None, -1),
            Some(5),
            "off the path, back starts at the tip"
        );
        assert_eq!(step(&[], Some(0), 1), None);
        assert_eq!(position(&path, Some(4)), Some(2));
        assert_eq!(position(&path, Some(2)), None);
    }
}
