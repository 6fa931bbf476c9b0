//! The assistant's graph as the server draws it: `GET
//! /assistants/{id}/graph?xray=true`, whose nodes are the graph's (a
//! subgraph's nodes prefixed by its node's name, `review:draft`) and whose
//! edges say which are `conditional` (a router the server runs: only its
//! possible targets are known). Pure: read into a [`ServerGraph`] per
//! namespace level, for the Fork dialog's "As node" choices and for what
//! the page can and cannot predict of an update written as a node.

use super::ServerError;
use chronograph::{END, START};
use serde_json::Value;
use std::collections::BTreeMap;

/// One level of an assistant's graph (the root, or a subgraph's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServerGraph {
    /// The nodes, in the server's order, without `__start__`/`__end__`.
    pub nodes: Vec<String>,
    /// Static edges `(from, to)`: always taken.
    pub edges: Vec<(String, String)>,
    /// Conditional edges `(from, to)`: the router picks among its targets.
    pub conditional: Vec<(String, String)>,
    /// The graphs of the subgraph nodes, by node name.
    pub subgraphs: BTreeMap<String, ServerGraph>,
}

/// What an update written as a node makes run next, as far as the graph
/// says: the static edges' targets for sure, and a router's possible targets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NextAfter {
    /// Targets of static edges (`__end__` left out).
    pub certain: Vec<String>,
    /// Targets a conditional edge may pick (`__end__` kept: "done" is one).
    pub possible: Vec<String>,
}

impl NextAfter {
    /// Whether the server's `next` (`actual`) is what was predicted: every
    /// certain target runs, and nothing runs that no edge leads to.
    pub fn holds(&self, actual: &[String]) -> bool {
        self.certain.iter().all(|c| actual.contains(c))
            && actual
                .iter()
                .all(|a| self.certain.contains(a) || self.possible.contains(a))
    }

    /// The router's targets that are nodes (its `__end__` means "done").
    pub fn routed(&self) -> Vec<String> {
        self.possible
            .iter()
            .filter(|p| *p != END)
            .cloned()
            .collect()
    }
}

/// An edge as the server lists it: `(source, target, conditional)`.
type RawEdge = (String, String, bool);

/// A subgraph's ids and edges, as seen from the level above it.
type Below = BTreeMap<String, (Vec<String>, Vec<RawEdge>)>;

/// An endpoint at one level: the node there, and its name inside it when
/// it is a subgraph's node (`review:draft` → `review`, `draft`).
fn split(id: &str) -> (&str, Option<&str>) {
    match id.split_once(':') {
        Some((head, rest)) => (head, Some(rest)),
        None => (id, None),
    }
}

impl ServerGraph {
    /// Reads a `GET /assistants/{id}/graph?xray=true` answer.
    pub fn parse(answer: &Value) -> Result<ServerGraph, ServerError> {
        let bad = || ServerError::BadResponse("/graph answered no nodes and edges".into());
        let nodes: Vec<String> = answer
            .get("nodes")
            .and_then(Value::as_array)
            .ok_or_else(bad)?
            .iter()
            .filter_map(|n| n.get("id")?.as_str().map(str::to_owned))
            .collect();
        let mut edges = Vec::new();
        for e in answer
            .get("edges")
            .and_then(Value::as_array)
            .ok_or_else(bad)?
        {
            let (Some(from), Some(to)) = (
                e.get("source").and_then(Value::as_str),
                e.get("target").and_then(Value::as_str),
            ) else {
                return Err(bad());
            };
            let conditional = e.get("conditional").and_then(Value::as_bool) == Some(true);
            edges.push((from.to_owned(), to.to_owned(), conditional));
        }
        Ok(Self::level(&nodes, &edges))
    }

    /// The graph of one level from ids prefixed below it.
    fn level(ids: &[String], edges: &[RawEdge]) -> ServerGraph {
        let mut g = ServerGraph::default();
        let mut inner: Below = BTreeMap::new();
        for id in ids {
            let (head, rest) = split(id);
            if head != START && head != END && !g.nodes.iter().any(|n| n == head) {
                g.nodes.push(head.to_owned());
            }
            if let Some(rest) = rest {
                inner
                    .entry(head.to_owned())
                    .or_default()
                    .0
                    .push(rest.to_owned());
            }
        }
        for (from, to, conditional) in edges {
            let ((a, a_in), (b, b_in)) = (split(from), split(to));
            if a == b && a_in.is_some() && b_in.is_some() {
                // Inside one subgraph.
                let sub = inner.entry(a.to_owned()).or_default();
                sub.1.push((
                    a_in.unwrap_or_default().to_owned(),
                    b_in.unwrap_or_default().to_owned(),
                    *conditional,
                ));
                continue;
            }
            // Crossing into a subgraph enters at its node; leaving it ends it.
            if let Some(b_in) = b_in {
                let sub = inner.entry(b.to_owned()).or_default();
                sub.1.push((START.to_owned(), b_in.to_owned(), false));
            }
            if let Some(a_in) = a_in {
                let sub = inner.entry(a.to_owned()).or_default();
                sub.1.push((a_in.to_owned(), END.to_owned(), false));
            }
            let pair = (a.to_owned(), b.to_owned());
            let list = if *conditional {
                &mut g.conditional
            } else {
                &mut g.edges
            };
            if !list.contains(&pair) {
                list.push(pair);
            }
        }
        for (name, (ids, edges)) in inner {
            g.subgraphs.insert(name, Self::level(&ids, &edges));
        }
        g
    }

    /// The graph at namespace `ns` (`""` the root; `review:<task id>` the
    /// review subgraph's), when the server's graph has it.
    pub fn at(&self, ns: &str) -> Option<&ServerGraph> {
        ns.split('|')
            .filter(|s| !s.is_empty())
            .try_fold(self, |g, part| {
                g.subgraphs.get(part.split(':').next().unwrap_or(part))
            })
    }

    /// What runs after an update written as `node`: its edges' targets.
    pub fn next_after(&self, node: &str) -> NextAfter {
        let targets = |list: &[(String, String)]| -> Vec<String> {
            list.iter()
                .filter(|(from, _)| from == node)
                .map(|(_, to)| to.clone())
                .collect()
        };
        NextAfter {
            certain: targets(&self.edges)
                .into_iter()
                .filter(|t| t != END)
                .collect(),
            possible: targets(&self.conditional),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::fixture;
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect()
    }

    #[test]
    fn the_xray_graph_is_read_level_by_level_with_its_routers() {
        // Recorded from langgraph dev: GET /assistants/trip/graph?xray=true.
        let g = ServerGraph::parse(&fixture("graph_xray.json")).unwrap();
        assert_eq!(
            g.nodes,
            ["greet", "plan", "research", "summarize", "review"]
        );
        assert_eq!(
            g.edges,
            pairs(&[
                ("__start__", "greet"),
                ("research", "summarize"),
                ("summarize", "review"),
                ("review", "__end__"),
            ])
        );
        assert_eq!(
            g.conditional,
            pairs(&[("greet", "greet"), ("greet", "plan"), ("plan", "research")])
        );
        let review = &g.subgraphs["review"];
        assert_eq!(review.nodes, ["draft", "ask"]);
        assert_eq!(
            review.edges,
            pairs(&[("__start__", "draft"), ("ask", "__end__"), ("draft", "ask")])
        );
        assert!(review.subgraphs.is_empty());
        assert_eq!(g.at("review:1f2e|").map(|r| &r.nodes), Some(&review.nodes));
        assert_eq!(g.at(""), Some(&g));
        assert_eq!(g.at("nosuch:1"), None);
    }

    #[test]
    fn an_update_as_a_node_runs_its_static_edges_and_may_run_its_routers_targets() {
        let g = ServerGraph::parse(&fixture("graph_xray.json")).unwrap();
        let after = |n: &str| g.next_after(n);
        assert_eq!(after("research").certain, ["summarize"]);
        assert!(after("research").possible.is_empty());
        assert!(after("greet").certain.is_empty());
        assert_eq!(after("greet").possible, ["greet", "plan"]);
        assert_eq!(
            after("review"),
            NextAfter::default(),
            "its edge ends the graph"
        );
        assert_eq!(
            g.at("review:x").unwrap().next_after("draft").certain,
            ["ask"]
        );
        // What the server then did, against the prediction.
        let own = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert!(after("research").holds(&own(&["summarize"])));
        assert!(!after("research").holds(&own(&["plan"])));
        assert!(!after("research").holds(&[]));
        assert!(after("greet").holds(&own(&["plan"])));
        assert!(!after("greet").holds(&own(&["summarize"])));
        assert_eq!(after("greet").routed(), ["greet", "plan"]);
        assert!(matches!(
            ServerGraph::parse(&serde_json::json!({"nodes": []})),
            Err(ServerError::BadResponse(_))
        ));
    }
}
