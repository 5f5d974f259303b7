//! The box's root filesystem, in two steps:
//! - once per slot, in the helper's own mount namespace, a *template*: a tmpfs (read-only
//!   once built) holding read-only bind mounts of the configured toolchain folders, a `/dev`
//!   with only null, zero and urandom, and empty mount points `box`, `tmp`, `proc`, `.old`;
//! - per run, in the init's copy of that namespace: the box folder bound at `/box`, a fresh
//!   tmpfs at `/tmp`, the `/proc` of the box's PID namespace, then `pivot_root` into the
//!   template and the host's tree detached.
//!
//! A run thus copies a finished tree instead of building one.

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use nix::mount::{mount, umount2, MntFlags, MsFlags};
use serde::{Deserialize, Serialize};

/// Errors building the root; each names the path it failed on.
#[derive(Debug, thiserror::Error)]
pub enum RootfsError {
    /// A mount-related system call failed.
    #[error("{op} {path}: {source}")]
    Sys {
        /// What was being done.
        op: &'static str,
        /// On which path.
        path: PathBuf,
        /// Why.
        source: nix::Error,
    },
    /// A file or folder of the new root could not be made.
    #[error("{op} {path}: {source}")]
    Io {
        /// What was being done.
        op: &'static str,
        /// On which path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

fn sys<'a>(op: &'static str, path: &'a Path) -> impl FnOnce(nix::Error) -> RootfsError + 'a {
    move |source| RootfsError::Sys {
        op,
        path: path.to_path_buf(),
        source,
    }
}

fn io<'a>(op: &'static str, path: &'a Path) -> impl FnOnce(std::io::Error) -> RootfsError + 'a {
    move |source| RootfsError::Io {
        op,
        path: path.to_path_buf(),
        source,
    }
}

fn bind(src: &Path, dst: &Path, extra: MsFlags) -> Result<(), RootfsError> {
    mount(
        Some(src),
        dst,
        None::<&str>,
        MsFlags::MS_BIND | MsFlags::MS_REC,
        None::<&str>,
    )
    .map_err(sys("bind mount onto", dst))?;
    mount(
        None::<&str>,
        dst,
        None::<&str>,
        MsFlags::MS_BIND | MsFlags::MS_REMOUNT | extra,
        None::<&str>,
    )
    .map_err(sys("remount", dst))
}

fn inside(root: &Path, host: &Path) -> PathBuf {
    root.join(host.strip_prefix("/").unwrap_or(host))
}

/// Places one configured host path in the new root. Missing paths are skipped (a config may
/// list folders another distribution has); `doctor` reports them.
fn place(root: &Path, host: &Path) -> Result<(), RootfsError> {
    let Ok(meta) = std::fs::symlink_metadata(host) else {
        return Ok(());
    };
    let target = inside(root, host);
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent).map_err(io("mkdir", parent))?;
    }
    let ro = MsFlags::MS_RDONLY | MsFlags::MS_NOSUID | MsFlags::MS_NODEV;
    if meta.file_type().is_symlink() {
        let to = std::fs::read_link(host).map_err(io("readlink", host))?;
        symlink(&to, &target).map_err(io("symlink", &target))
    } else if meta.is_dir() {
        std::fs::create_dir_all(&target).map_err(io("mkdir", &target))?;
        bind(host, &target, ro)
    } else {
        std::fs::File::create(&target).map_err(io("create", &target))?;
        bind(host, &target, ro)
    }
}

/// The device files a box's `/dev` offers (besides the `fd`, `stdin`, `stdout` and
/// `stderr` links).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Devices {
    /// `null`, `zero` and `urandom`: what programs may use.
    #[default]
    Standard,
    /// `null` alone, for compiles: no compiler needs an endless file, and without them
    /// `#include "/dev/urandom"` is a missing file at once instead of a memory bomb.
    NullOnly,
}

impl Devices {
    fn names(self) -> &'static [&'static str] {
        match self {
            Devices::Standard => &["null", "zero", "urandom"],
            Devices::NullOnly => &["null"],
        }
    }
}

/// Binds the host's devices for `devices` into the empty folder `dev` and adds the links.
fn populate_dev(dev: &Path, devices: Devices) -> Result<(), RootfsError> {
    for name in devices.names() {
        let target = dev.join(name);
        std::fs::File::create(&target).map_err(io("create", &target))?;
        bind(
            &Path::new("/dev").join(name),
            &target,
            MsFlags::MS_NOSUID | MsFlags::MS_NOEXEC,
        )?;
    }
    for (name, to) in [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ] {
        let target = dev.join(name);
        symlink(to, &target).map_err(io("symlink", &target))?;
    }
    Ok(())
}

/// In the helper, once: a private mount namespace holding the template at `root` (an empty
/// host folder) built from `mounts`. The helper's next clones copy it.
pub fn build_template(root: &Path, mounts: &[PathBuf]) -> Result<(), RootfsError> {
    nix::sched::unshare(nix::sched::CloneFlags::CLONE_NEWNS)
        .map_err(sys("unshare mount namespace for", root))?;
    mount(
        None::<&str>,
        "/",
        None::<&str>,
        MsFlags::MS_REC | MsFlags::MS_PRIVATE,
        None::<&str>,
    )
    .map_err(sys("make private", Path::new("/")))?;
    mount(
        Some("tmpfs"),
        root,
        Some("tmpfs"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
        Some("size=2m,nr_inodes=4096,mode=0755"),
    )
    .map_err(sys("mount tmpfs root on", root))?;
    for host in mounts {
        place(root, host)?;
    }
    for dir in ["box", "tmp", "proc", ".old"] {
        let d = root.join(dir);
        std::fs::create_dir(&d).map_err(io("mkdir", &d))?;
    }
    let dev = root.join("dev");
    std::fs::create_dir(&dev).map_err(io("mkdir", &dev))?;
    populate_dev(&dev, Devices::Standard)?;
    mount(
        None::<&str>,
        root,
        None::<&str>,
        MsFlags::MS_BIND
            | MsFlags::MS_REMOUNT
            | MsFlags::MS_RDONLY
            | MsFlags::MS_NOSUID
            | MsFlags::MS_NODEV,
        None::<&str>,
    )
    .map_err(sys("remount read-only", root))
}

/// What is mounted at `/box`.
#[derive(Debug, Clone, Copy)]
pub enum BoxSource<'a> {
    /// A host folder, bound.
    Folder(&'a Path),
    /// The box's own detached file system (see `boxfs`), attached.
    FileSystem(std::os::fd::BorrowedFd<'a>),
}

/// Bounds of the box's `/tmp`.
#[derive(Debug, Clone, Copy)]
pub struct TmpFs {
    /// Size in MiB.
    pub size_mb: u64,
    /// Files and folders, the root included.
    pub inodes: u64,
}

/// In the box's init (a fresh copy of the helper's mount namespace, PID 1 of a fresh PID
/// namespace): mounts the run's parts into the template at `root` and pivots into it; the
/// working folder becomes `/box`. A `/dev` other than the template's is a fresh tmpfs over it.
pub fn enter(
    root: &Path,
    box_src: BoxSource<'_>,
    tmp: TmpFs,
    devices: Devices,
) -> Result<(), RootfsError> {
    if devices != Devices::Standard {
        let dev = root.join("dev");
        mount(
            Some("tmpfs"),
            &dev,
            Some("tmpfs"),
            MsFlags::MS_NOSUID | MsFlags::MS_NOEXEC,
            Some("size=16k,nr_inodes=16,mode=0755"),
        )
        .map_err(sys("mount tmpfs on", &dev))?;
        populate_dev(&dev, devices)?;
        mount(
            None::<&str>,
            &dev,
            None::<&str>,
            MsFlags::MS_REMOUNT | MsFlags::MS_RDONLY | MsFlags::MS_NOSUID | MsFlags::MS_NOEXEC,
            Some("size=16k,nr_inodes=16,mode=0755"),
        )
        .map_err(sys("remount read-only", &dev))?;
    }
    let boxed = root.join("box");
    match box_src {
        BoxSource::Folder(dir) => bind(dir, &boxed, MsFlags::MS_NOSUID | MsFlags::MS_NODEV)?,
        BoxSource::FileSystem(fd) => {
            super::boxfs::attach(fd, &boxed).map_err(io("attach", &boxed))?
        }
    }
    mount_tmp(&root.join("tmp"), tmp)?;
    pivot(root)?;
    nix::unistd::chdir("/box").map_err(sys("chdir", Path::new("/box")))
}

/// A fresh tmpfs of `tmp`'s bounds on `path`.
fn mount_tmp(path: &Path, tmp: TmpFs) -> Result<(), RootfsError> {
    let opts = format!(
        "size={}m,nr_inodes={},mode=1777",
        tmp.size_mb,
        tmp.inodes.max(2)
    );
    mount(
        Some("tmpfs"),
        path,
        Some("tmpfs"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
        Some(opts.as_str()),
    )
    .map_err(sys("mount tmpfs on", path))
}

/// Mounts the `/proc` of this PID namespace in `root`, pivots into `root` and detaches
/// the host's tree.
fn pivot(root: &Path) -> Result<(), RootfsError> {
    let proc_dir = root.join("proc");
    mount(
        Some("proc"),
        &proc_dir,
        Some("proc"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC,
        None::<&str>,
    )
    .map_err(sys("mount proc on", &proc_dir))?;
    let old = root.join(".old");
    nix::unistd::pivot_root(root, &old).map_err(sys("pivot_root to", root))?;
    nix::unistd::chdir("/").map_err(sys("chdir", Path::new("/")))?;
    umount2("/.old", MntFlags::MNT_DETACH).map_err(sys("detach", Path::new("/.old")))
}

/// In a waiting box's init (see `warm`): like [`enter`] without a `/box` yet (each run
/// attaches its own); the working folder is `/`.
pub fn enter_waiting(root: &Path, tmp: TmpFs) -> Result<(), RootfsError> {
    mount_tmp(&root.join("tmp"), tmp)?;
    pivot(root)
}

/// In a waiting box's init, between two runs: the last run's `/box` detached (the kernel
/// frees it once the judge lets go of it too) and a fresh, empty `/tmp`.
pub fn clear_run(tmp: TmpFs) -> Result<(), RootfsError> {
    nix::unistd::chdir("/").map_err(sys("chdir", Path::new("/")))?;
    for dir in ["/box", "/tmp"] {
        let path = Path::new(dir);
        match umount2(path, MntFlags::MNT_DETACH) {
            // `/box` is not a mount point when the run failed before attaching it.
            Ok(()) | Err(nix::Error::EINVAL) => {}
            Err(e) => return Err(sys("detach", path)(e)),
        }
    }
    mount_tmp(Path::new("/tmp"), tmp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_paths_land_under_the_root() {
        assert_eq!(
            inside(Path::new("/r"), Path::new("/usr/lib")),
            PathBuf::from("/r/usr/lib")
        );
    }
}
