//! [`NodeName`]: a node's name, safe in paths, cgroup names, metric labels and logs.

use std::fmt;

/// Longest node name (a host name label's limit).
pub const MAX_NAME_LEN: usize = 63;

/// Why a name given for a node was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "node name {0:?}: use 1 to {MAX_NAME_LEN} lowercase letters, digits and `-`, \
     starting with a letter or digit"
)]
pub struct NodeNameError(pub String);

/// A node's name: 1 to 63 of `a-z`, `0-9` and `-`, not starting with `-`. It names the
/// node's box folder and cgroup folder, so it never holds `/`, `.` or anything a shell or a
/// path would read specially.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(transparent)]
pub struct NodeName(String);

impl NodeName {
    /// `name` as given by a user (`--node`, `[node] name`): refused, not mended, when invalid.
    pub fn parse(name: &str) -> Result<NodeName, NodeNameError> {
        let ok = !name.is_empty()
            && name.len() <= MAX_NAME_LEN
            && !name.starts_with('-')
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if ok {
            Ok(NodeName(name.to_string()))
        } else {
            Err(NodeNameError(name.to_string()))
        }
    }

    /// A name made from a host name: lowercased, every other character `-`, runs of `-`
    /// merged, trimmed to 63; `node` when nothing is left.
    pub fn sanitize(raw: &str) -> NodeName {
        let mut out = String::with_capacity(raw.len().min(MAX_NAME_LEN));
        for c in raw.chars() {
            let c = c.to_ascii_lowercase();
            let c = if c.is_ascii_lowercase() || c.is_ascii_digit() {
                c
            } else {
                '-'
            };
            if c == '-' && (out.is_empty() || out.ends_with('-')) {
                continue;
            }
            if out.len() == MAX_NAME_LEN {
                break;
            }
            out.push(c);
        }
        while out.ends_with('-') {
            out.pop();
        }
        if out.is_empty() {
            out.push_str("node");
        }
        NodeName(out)
    }

    /// This host's name, sanitized (`node` when the host has none).
    pub fn of_host() -> NodeName {
        let host = nix::unistd::gethostname()
            .map(|h| h.to_string_lossy().into_owned())
            .unwrap_or_default();
        NodeName::sanitize(&host)
    }

    /// `<this name>-<suffix>`, the name trimmed so the whole stays within [`MAX_NAME_LEN`]
    /// (`suffix` is ours, a valid name): the default name of a `worker` is
    /// `NodeName::of_host().with_suffix("worker")`.
    pub fn with_suffix(&self, suffix: &str) -> NodeName {
        let room = MAX_NAME_LEN.saturating_sub(suffix.len() + 1);
        let stem = self.0[..self.0.len().min(room)].trim_end_matches('-');
        NodeName::sanitize(&format!("{stem}-{suffix}"))
    }

    /// The name as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for NodeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_suffix_always_fits() {
        let long = NodeName::sanitize(&"h".repeat(80));
        let worker = long.with_suffix("worker");
        assert_eq!(worker.as_str().len(), MAX_NAME_LEN);
        assert!(worker.as_str().ends_with("-worker"), "{worker:?}");
        assert_eq!(NodeName::parse(worker.as_str()).ok(), Some(worker));
        let short = NodeName::parse("judge1").unwrap().with_suffix("worker");
        assert_eq!(short.as_str(), "judge1-worker");
    }

    #[test]
    fn parse_refuses_what_sanitize_mends() {
        assert_eq!(NodeName::parse("judge-2").unwrap().as_str(), "judge-2");
        for bad in ["", "-a", "A", "a.b", "a/b", "a b", "ä", &"a".repeat(64)] {
            assert!(NodeName::parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            NodeName::sanitize("Judge_1.Example.COM").as_str(),
            "judge-1-example-com"
        );
        assert_eq!(NodeName::sanitize("--..--").as_str(), "node");
        assert_eq!(NodeName::sanitize("../../etc").as_str(), "etc");
        assert_eq!(
            NodeName::sanitize(&"x".repeat(100)).as_str().len(),
            MAX_NAME_LEN
        );
        let host = NodeName::of_host();
        assert!(NodeName::parse(host.as_str()).is_ok(), "{host}");
    }
}
