//! A judging node: its name and the sandbox namespace it judges in.
//!
//! Several nodes (`serve`, and the judge-only `worker`) may run on one machine. Each names
//! itself (`--node NAME`, else `[node] name`, else this host's name, sanitized) and a node
//! named explicitly gets a sandbox namespace of its own, derived from its name unless
//! `[node]` sets it: its slot uids, its box folder and its cgroup folder. Its stale sweep
//! reads only its own box folder and cgroup folder, so it never sees another node's boxes.
//! Slot locks stay in one host-wide folder: they are named by uid, so a node's lock paths
//! are its own through its uids, and two nodes whose uid ranges met would still never share
//! a slot. A node known only by the host's name is the machine's default node: it uses the
//! `[sandbox]` settings as they are, like `judge`, `verify` and `run` do.
//!
//! - [`NodeName`] (`name.rs`): the name, safe in paths, cgroup names and metric labels.
//! - [`NodeIdentity`]: the name and the node's [`SandboxConfig`].

mod name;

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

pub use name::{NodeName, NodeNameError, MAX_NAME_LEN};

use crate::config::{Config, SandboxConfig};
use crate::sandbox::slots::MAX_SLOTS;

/// Blocks of [`MAX_SLOTS`] uids a named node's uids are drawn from, above `[sandbox]
/// uid_base`'s own block (the machine's default node keeps that one).
pub const UID_BLOCKS: u32 = 64;

/// Where a node's name came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NameSource {
    /// `--node NAME`.
    Flag,
    /// `[node] name`.
    Config,
    /// This host's name: the machine's default node.
    Host,
}

/// Who this node is and where it judges: what `serve` and `worker` start from.
#[derive(Debug, Clone)]
pub struct NodeIdentity {
    /// The node's name (its label in metrics, logs and the nodes table).
    pub name: NodeName,
    /// Where the name came from; a name from the flag or the config gets its own namespace.
    pub source: NameSource,
    /// The sandbox settings the node's slots use: `[sandbox]` with the node's uid base, box
    /// folder, cgroup folder and lock folder.
    pub sandbox: SandboxConfig,
}

impl NodeIdentity {
    /// The node of `config`, named `cli_name` (the `--node` flag) when given. A name from the
    /// flag or from `[node] name` must already be valid (it is refused, not mended); the
    /// host's name is sanitized.
    pub fn from_config(
        config: &Config,
        cli_name: Option<&str>,
    ) -> Result<NodeIdentity, NodeNameError> {
        let (name, source) = match (cli_name, config.node.name.as_deref()) {
            (Some(flag), _) => (NodeName::parse(flag)?, NameSource::Flag),
            (None, Some(set)) => (NodeName::parse(set)?, NameSource::Config),
            (None, None) => (NodeName::of_host(), NameSource::Host),
        };
        let own = source != NameSource::Host;
        let node = &config.node;
        let base = &config.sandbox;
        let mut sandbox = base.clone();
        sandbox.uid_base = match node.uid_base {
            Some(uid) => uid,
            None if own => derived_uid_base(base.uid_base, &name),
            None => base.uid_base,
        };
        sandbox.box_root = match &node.box_root {
            Some(dir) => dir.clone(),
            None if own => suffixed(&base.box_root, &name),
            None => base.box_root.clone(),
        };
        sandbox.cgroup_name = match &node.cgroup_name {
            Some(cgroup) => cgroup.clone(),
            None if own => format!("{}-{name}", base.cgroup_name),
            None => base.cgroup_name.clone(),
        };
        if let Some(locks) = &node.slot_locks {
            sandbox.slot_locks = locks.clone();
        }
        Ok(NodeIdentity {
            name,
            source,
            sandbox,
        })
    }

    /// `config` with this node's sandbox settings in `[sandbox]`, for the code that reads
    /// them from there (the judge, the probe, the workers), and its name and settings
    /// written out in `[node]`, so resolving the node again gives the same node.
    pub fn apply(&self, config: &mut Config) {
        config.sandbox = self.sandbox.clone();
        config.node.name = Some(self.name.to_string());
        config.node.uid_base = Some(self.sandbox.uid_base);
        config.node.box_root = Some(self.sandbox.box_root.clone());
        config.node.cgroup_name = Some(self.sandbox.cgroup_name.clone());
        config.node.slot_locks = Some(self.sandbox.slot_locks.clone());
    }

    /// The name of the node `config` describes, without refusing anything: `[node] name`
    /// (set by [`NodeIdentity::apply`]) sanitized, else this host's name. For the daemon's
    /// labels and health answer.
    pub fn name_of(config: &Config) -> NodeName {
        config
            .node
            .name
            .as_deref()
            .map_or_else(NodeName::of_host, NodeName::sanitize)
    }
}

/// The first uid of a named node's slots: one of [`UID_BLOCKS`] blocks of [`MAX_SLOTS`]
/// uids above `uid_base`'s block, chosen by a hash of the name (so the same name gets the
/// same uids on every start and every machine). Two names may draw the same block (1 in 64);
/// the host-wide slot locks still keep them on different slots, and `[node] uid_base` sets
/// a block by hand.
pub fn derived_uid_base(uid_base: u32, name: &NodeName) -> u32 {
    let digest = Sha256::digest(name.as_str().as_bytes());
    let hash = u32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]]);
    let block = 1 + hash % UID_BLOCKS;
    uid_base.saturating_add(block.saturating_mul(MAX_SLOTS))
}

/// `<path>-<name>`: a sibling of `path`, so the default node's folder never holds a named
/// node's (and the default node's sweep never lists them).
fn suffixed(path: &Path, name: &NodeName) -> PathBuf {
    let mut os = OsString::from(path.as_os_str());
    os.push("-");
    os.push(name.as_str());
    PathBuf::from(os)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Config {
        Config::embedded().unwrap()
    }

    #[test]
    fn the_host_named_node_keeps_the_sandbox_settings() {
        let c = config();
        let node = NodeIdentity::from_config(&c, None).unwrap();
        assert_eq!(node.source, NameSource::Host);
        assert_eq!(node.name, NodeName::of_host());
        assert_eq!(node.sandbox.uid_base, c.sandbox.uid_base);
        assert_eq!(node.sandbox.box_root, c.sandbox.box_root);
        assert_eq!(node.sandbox.cgroup_name, c.sandbox.cgroup_name);
        assert_eq!(node.sandbox.slot_locks, c.sandbox.slot_locks);
    }

    #[test]
    fn named_nodes_get_namespaces_of_their_own() {
        let c = config();
        let a = NodeIdentity::from_config(&c, Some("node-a")).unwrap();
        let b = NodeIdentity::from_config(&c, Some("node-b")).unwrap();
        let again = NodeIdentity::from_config(&c, Some("node-a")).unwrap();
        assert_eq!(a.source, NameSource::Flag);
        assert_eq!(a.sandbox.uid_base, again.sandbox.uid_base);
        assert_eq!(
            a.sandbox.box_root,
            PathBuf::from(format!("{}-node-a", c.sandbox.box_root.display()))
        );
        assert_eq!(
            a.sandbox.cgroup_name,
            format!("{}-node-a", c.sandbox.cgroup_name)
        );
        assert_ne!(a.sandbox.box_root, b.sandbox.box_root);
        assert_ne!(a.sandbox.cgroup_name, b.sandbox.cgroup_name);
        assert_ne!(a.sandbox.uid_base, b.sandbox.uid_base);
        for n in [&a, &b] {
            let uid = n.sandbox.uid_base;
            assert!(uid >= c.sandbox.uid_base + MAX_SLOTS, "{uid}");
            assert!(
                uid < c.sandbox.uid_base + (UID_BLOCKS + 1) * MAX_SLOTS,
                "{uid}"
            );
            assert_eq!((uid - c.sandbox.uid_base) % MAX_SLOTS, 0);
            assert_eq!(n.sandbox.slot_locks, c.sandbox.slot_locks);
        }
    }

    #[test]
    fn the_flag_beats_the_config_and_explicit_keys_beat_derivation() {
        let mut c = config();
        c.node.name = Some("from-config".into());
        assert_eq!(
            NodeIdentity::from_config(&c, None).unwrap().source,
            NameSource::Config
        );
        let n = NodeIdentity::from_config(&c, Some("from-flag")).unwrap();
        assert_eq!(n.name.as_str(), "from-flag");
        c.node.uid_base = Some(70_000);
        c.node.box_root = Some("/tmp/x".into());
        c.node.cgroup_name = Some("cg".into());
        c.node.slot_locks = Some("/tmp/locks".into());
        let n = NodeIdentity::from_config(&c, None).unwrap();
        assert_eq!(n.sandbox.uid_base, 70_000);
        assert_eq!(n.sandbox.box_root, PathBuf::from("/tmp/x"));
        assert_eq!(n.sandbox.cgroup_name, "cg");
        assert_eq!(n.sandbox.slot_locks, PathBuf::from("/tmp/locks"));
        let mut applied = config();
        let a = NodeIdentity::from_config(&applied, Some("node-a")).unwrap();
        a.apply(&mut applied);
        let again = NodeIdentity::from_config(&applied, None).unwrap();
        assert_eq!(again.name, a.name);
        assert_eq!(again.sandbox.box_root, a.sandbox.box_root);
        assert_eq!(again.sandbox.uid_base, a.sandbox.uid_base);
        assert_eq!(NodeIdentity::name_of(&applied).as_str(), "node-a");
        c.node.name = Some("Bad Name".into());
        assert!(NodeIdentity::from_config(&c, None).is_err());
        assert!(NodeIdentity::from_config(&c, Some("../x")).is_err());
    }
}
