//! Keyboard moves through the checkpoint tree, as pure functions of the
//! layout (unit-tested natively; the tree panel only maps keys to them).

use super::frames::Frame;
use super::lanes::Layout;

/// The keys [`arrow_target`] moves by (the tree panel leaves others alone).
pub const TREE_KEYS: [&str; 8] = [
    "ArrowUp",
    "ArrowDown",
    "ArrowLeft",
    "ArrowRight",
    "j",
    "k",
    "Home",
    "End",
];

/// The checkpoint the arrow key `key` moves to from `cur`: ↑ parent (from
/// the first checkpoint of a subgraph group: the checkpoint whose task ran
/// it), ↓ first child, ← / → previous / next sibling (same parent), j / k
/// next / previous row, Home / End first / last row.
pub fn arrow_target(
    layout: &Layout,
    frames: &[Frame],
    cur: Option<usize>,
    key: &str,
) -> Option<usize> {
    let len = layout.len();
    if len == 0 {
        return None;
    }
    let Some(c) = cur.filter(|&c| c < len) else {
        return Some(len - 1);
    };
    let parent = layout.node(c).and_then(|n| n.parent);
    let siblings = || -> Vec<usize> {
        layout
            .nodes()
            .iter()
            .enumerate()
            .filter(|(_, n)| n.parent == parent && (parent.is_some() || n.parent.is_none()))
            .map(|(i, _)| i)
            .collect()
    };
    match key {
        "ArrowUp" => parent.or_else(|| frames.iter().find(|f| f.first == c).map(|f| f.owner)),
        "ArrowDown" => layout.nodes().iter().position(|n| n.parent == Some(c)),
        "ArrowLeft" => {
            let s = siblings();
            let at = s.iter().position(|&i| i == c)?;
            at.checked_sub(1).map(|p| s[p])
        }
        "ArrowRight" => {
            let s = siblings();
            let at = s.iter().position(|&i| i == c)?;
            s.get(at + 1).copied()
        }
        "j" => Some((c + 1).min(len - 1)),
        "k" => Some(c.saturating_sub(1)),
        "Home" => Some(0),
        "End" => Some(len - 1),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{layout_groups, Group, NodeIn};

    fn tree() -> (Layout, Vec<Frame>) {
        // c0 → c1 → c2, c3 a replay of c1; c1 ran a subgraph: s0 → s1.
        let root = vec![
            NodeIn::root("c0"),
            NodeIn::child("c1", "c0"),
            NodeIn::child("c2", "c1"),
            NodeIn::child("c3", "c1"),
        ];
        let sub = Group {
            ns: "x:1".into(),
            nodes: vec![NodeIn::root("s0"), NodeIn::child("s1", "s0")],
            runs: vec![],
        };
        let f = layout_groups(&Group {
            ns: String::new(),
            nodes: root,
            runs: vec![("c1".into(), sub)],
        });
        (f.layout, f.frames)
    }

    #[test]
    fn arrows_follow_parents_children_and_siblings() {
        let (l, f) = tree();
        // Rows: c0 c1 s0 s1 c2 c3.
        let go = |cur: usize, key: &str| arrow_target(&l, &f, Some(cur), key);
        assert_eq!(go(4, "ArrowUp"), Some(1), "c2 → c1");
        assert_eq!(
            go(1, "ArrowDown"),
            Some(4),
            "c1's first child is c2, not the group"
        );
        assert_eq!(go(4, "ArrowRight"), Some(5), "c2 → its sibling c3");
        assert_eq!(go(5, "ArrowLeft"), Some(4));
        assert_eq!(go(2, "ArrowDown"), Some(3), "s0 → s1 inside the group");
        assert_eq!(
            go(2, "ArrowUp"),
            Some(1),
            "a group's first checkpoint → its owner"
        );
        assert_eq!(go(2, "j"), Some(3));
        assert_eq!(go(0, "k"), Some(0));
        assert_eq!(go(3, "End"), Some(5));
        assert_eq!(
            arrow_target(&l, &f, None, "ArrowUp"),
            Some(5),
            "nothing selected: the last row"
        );
        assert_eq!(go(3, "x"), None);
    }

    #[test]
    fn the_panel_handles_exactly_the_keys_that_move() {
        let (l, f) = tree();
        // From c1 (a checkpoint with a parent, children and a later row),
        // every key the panel handles moves somewhere; other keys never do.
        for key in TREE_KEYS {
            if !["ArrowLeft", "ArrowRight"].contains(&key) {
                assert!(arrow_target(&l, &f, Some(1), key).is_some(), "{key}");
            }
        }
        assert_eq!(arrow_target(&l, &f, Some(4), "ArrowRight"), Some(5));
        for key in ["Enter", "a", "Tab", "PageDown", " "] {
            assert_eq!(arrow_target(&l, &f, Some(1), key), None, "{key:?}");
        }
    }
}
