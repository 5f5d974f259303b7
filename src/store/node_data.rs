//! [`NodeData`]: the package data a node judges with (each problem's data hash), held by
//! the store that speaks for the node. The claim uses it to refuse submissions made against
//! other data (their `submitted_data_hash` set and different, or a problem the node does not
//! have); a rejudge through the node records its hash as the submission's new
//! `submitted_data_hash`, so an admin can make stranded submissions judgeable again.

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

/// A node's problem data hashes (hex, by problem id) and whether its claims refuse other data.
/// Clones share the hashes, so a problem the node loads while it runs ([`NodeData::insert`])
/// reaches every clone of its store at once.
#[derive(Debug, Clone)]
pub struct NodeData {
    shared: Arc<RwLock<Hashes>>,
    refuse_other_data: bool,
}

/// The hashes and their JSON, kept together.
#[derive(Debug)]
struct Hashes {
    by_id: BTreeMap<String, String>,
    json: String,
}

impl Hashes {
    fn new(by_id: BTreeMap<String, String>) -> Hashes {
        // A map of strings always serializes; the fallback only keeps this total.
        let json = serde_json::to_string(&by_id).unwrap_or_else(|_| "{}".to_string());
        Hashes { by_id, json }
    }
}

impl PartialEq for NodeData {
    fn eq(&self, other: &NodeData) -> bool {
        self.refuse_other_data == other.refuse_other_data && self.hashes() == other.hashes()
    }
}

impl Eq for NodeData {}

impl NodeData {
    /// Data that refuses submissions made against other data (the rule on a shared database).
    pub fn new(hashes: BTreeMap<String, String>) -> NodeData {
        NodeData {
            shared: Arc::new(RwLock::new(Hashes::new(hashes))),
            refuse_other_data: true,
        }
    }

    /// The same data, claiming whatever is queued (a SQLite daemon, the only node of its
    /// file: refusing would strand its own queue); rejudges still record the hashes.
    pub fn claiming_anything(mut self) -> NodeData {
        self.refuse_other_data = false;
        self
    }

    /// Whether claims refuse submissions made against other data.
    pub fn refuses_other_data(&self) -> bool {
        self.refuse_other_data
    }

    fn read<T>(&self, f: impl FnOnce(&Hashes) -> T) -> T {
        f(&self.shared.read().unwrap_or_else(|e| e.into_inner()))
    }

    /// The hashes by problem id (a copy: a problem loaded later is not in it).
    pub fn hashes(&self) -> BTreeMap<String, String> {
        self.read(|h| h.by_id.clone())
    }

    /// The hash of one problem, if the node has it.
    pub fn hash_of(&self, problem: &str) -> Option<String> {
        self.read(|h| h.by_id.get(problem).cloned())
    }

    /// Records the hash of a problem the node loaded while it runs (an uploaded package):
    /// its claims take that problem's submissions from now on.
    pub fn insert(&self, problem: &str, hash: &str) {
        let mut h = self.shared.write().unwrap_or_else(|e| e.into_inner());
        let mut by_id = std::mem::take(&mut h.by_id);
        by_id.insert(problem.to_string(), hash.to_string());
        *h = Hashes::new(by_id);
    }

    /// The hashes as a JSON object (problem id to hex), bound into SQL.
    pub(super) fn json(&self) -> String {
        self.read(|h| h.json.clone())
    }

    /// The claim filter's parameter: the JSON object when claims refuse other data, `None`
    /// (claim anything) otherwise.
    pub(super) fn claim_filter(data: Option<&NodeData>) -> Option<String> {
        data.filter(|d| d.refuse_other_data).map(NodeData::json)
    }

    /// The rejudge's parameter: the JSON object whose entry for the submission's problem
    /// becomes its `submitted_data_hash` (`None`: keep the stored one).
    pub(super) fn stamp(data: Option<&NodeData>) -> Option<String> {
        data.map(NodeData::json)
    }
}

/// The queued submissions by problem and submitted hash, per owner (both backends' SQL),
/// from the counts `queue_groups` keeps (triggers, migrations sqlite/0018 and
/// postgres/0012): one row per owner and group with something queued, however long the
/// queue. A macro so `QUEUED_GROUPS` can be one constant.
macro_rules! groups {
    () => {
        "SELECT problem, NULLIF(hash, '') AS submitted_data_hash, queued
         FROM queue_groups WHERE queued > 0"
    };
}

/// The queued submissions by problem and submitted hash, summed over the owners.
pub(super) const QUEUED_GROUPS: &str = concat!(
    "SELECT q.problem, q.submitted_data_hash, CAST(SUM(q.queued) AS BIGINT) AS queued FROM (",
    groups!(),
    ") q GROUP BY q.problem, q.submitted_data_hash"
);

/// The queued submissions the node's filter refuses, grouped: `accepts` is the backend's
/// condition on row `q` (problem, submitted hash) with the filter's parameter; read from
/// `queue_groups`, so it costs one row per owner and group, not one per queued submission.
pub(super) fn refused_sql(accepts: &str) -> String {
    format!(
        "SELECT q.problem, q.submitted_data_hash, CAST(SUM(q.queued) AS BIGINT) AS queued
         FROM ({}) q
         WHERE NOT {accepts}
         GROUP BY q.problem, q.submitted_data_hash",
        groups!()
    )
}

/// A group of queued submissions: one problem and one submitted hash (`None`: no hash stored,
/// claimable by any node with the problem): what a node refuses, or what no live node can take.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct QueuedGroup {
    /// The problem id.
    pub problem: String,
    /// The hash the API node stored at submission, if any.
    pub submitted_data_hash: Option<String>,
    /// How many queued submissions are in the group.
    pub queued: i64,
}

/// How many of `queued` no node of `hashes` (each live judging node's hashes) can take: a
/// submission needs a node with its problem and, when its hash is set, the same hash.
pub fn unclaimable<'a>(
    queued: &[QueuedGroup],
    hashes: impl Iterator<Item = &'a BTreeMap<String, String>> + Clone,
) -> u64 {
    queued
        .iter()
        .filter(|g| {
            !hashes
                .clone()
                .any(|h| match (h.get(&g.problem), &g.submitted_data_hash) {
                    (Some(_), None) => true,
                    (Some(mine), Some(theirs)) => mine == theirs,
                    (None, _) => false,
                })
        })
        .map(|g| u64::try_from(g.queued).unwrap_or(0))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn the_filter_is_off_when_claiming_anything() {
        let d = NodeData::new(map(&[("a", "11")]));
        assert_eq!(
            NodeData::claim_filter(Some(&d)).as_deref(),
            Some(r#"{"a":"11"}"#)
        );
        let any = d.clone().claiming_anything();
        assert_eq!(NodeData::claim_filter(Some(&any)), None);
        assert_eq!(
            NodeData::stamp(Some(&any)).as_deref(),
            Some(r#"{"a":"11"}"#)
        );
        assert_eq!(NodeData::claim_filter(None), None);
        // A problem loaded later reaches every clone, and the filter with it.
        any.insert("b", "22");
        assert_eq!(
            NodeData::claim_filter(Some(&d)).as_deref(),
            Some(r#"{"a":"11","b":"22"}"#)
        );
    }

    #[test]
    fn counts_what_no_node_can_take() {
        let group = |p: &str, h: Option<&str>, n| QueuedGroup {
            problem: p.into(),
            submitted_data_hash: h.map(str::to_string),
            queued: n,
        };
        let queued = [
            group("a", Some("11"), 1),
            group("a", Some("22"), 2),
            group("a", None, 4),
            group("b", None, 8),
        ];
        let nodes = [map(&[("a", "11")])];
        assert_eq!(unclaimable(&queued, nodes.iter()), 2 + 8);
        let nodes = [map(&[("a", "11")]), map(&[("a", "22"), ("b", "33")])];
        assert_eq!(unclaimable(&queued, nodes.iter()), 0);
        assert_eq!(unclaimable(&queued, [].iter()), 15);
    }
}
