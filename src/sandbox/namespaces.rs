//! Namespaces: the box gets its own mount, PID, network, IPC and UTS namespaces.

use nix::sched::CloneFlags;

/// Errors entering namespaces.
#[derive(Debug, thiserror::Error)]
pub enum NamespaceError {
    /// `unshare(2)` failed.
    #[error("unshare({flags:?}): {source}")]
    Unshare {
        /// The namespaces asked for.
        flags: CloneFlags,
        /// Why.
        source: nix::Error,
    },
    /// `sethostname(2)` failed.
    #[error("sethostname: {0}")]
    Hostname(nix::Error),
}

/// The namespaces each box's init is cloned into (the network namespace is the helper's).
pub fn box_flags() -> CloneFlags {
    CloneFlags::CLONE_NEWPID
        | CloneFlags::CLONE_NEWNS
        | CloneFlags::CLONE_NEWIPC
        | CloneFlags::CLONE_NEWUTS
}

/// In the long-lived helper, once: an empty network namespace (loopback down) that every
/// box of the slot inherits. Creating one per run would cost more than the rest of a run;
/// nothing of a run outlives its processes in it (no capability can configure it).
pub fn unshare_net() -> Result<(), NamespaceError> {
    let flags = CloneFlags::CLONE_NEWNET;
    nix::sched::unshare(flags).map_err(|source| NamespaceError::Unshare { flags, source })
}

/// Names the box's UTS namespace so the host's name does not leak.
pub fn set_hostname() -> Result<(), NamespaceError> {
    nix::unistd::sethostname("sudojudge").map_err(NamespaceError::Hostname)
}
