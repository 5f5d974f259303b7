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

/// The namespaces the box's init enters itself. The mount namespace must not be shared with
/// the helper: `pivot_root` changes the root of every process of the mount namespace.
pub fn box_flags() -> CloneFlags {
    CloneFlags::CLONE_NEWNS
        | CloneFlags::CLONE_NEWNET
        | CloneFlags::CLONE_NEWIPC
        | CloneFlags::CLONE_NEWUTS
}

fn unshare(flags: CloneFlags) -> Result<(), NamespaceError> {
    nix::sched::unshare(flags).map_err(|source| NamespaceError::Unshare { flags, source })
}

/// In the helper: the next child will be PID 1 of a new PID namespace.
pub fn unshare_pid() -> Result<(), NamespaceError> {
    unshare(CloneFlags::CLONE_NEWPID)
}

/// In the box's init: new mount, network, IPC and UTS namespaces.
pub fn unshare_box() -> Result<(), NamespaceError> {
    unshare(box_flags())
}

/// Names the box's UTS namespace so the host's name does not leak.
pub fn set_hostname() -> Result<(), NamespaceError> {
    nix::unistd::sethostname("sudojudge").map_err(NamespaceError::Hostname)
}
