//! The host side of a box: its folders, files copied in, outputs and artifacts read back,
//! all without following a link the boxed program may have planted.
//!
//! Layout of one run under `box_root` (root-only, mode 0700):
//! `<run>/box` (the slot's uid; mounted at `/box`), `<run>/stdout`, `<run>/stderr`
//! (root-only, outside the box). As root, the box is not that folder but a file system of
//! its own ([`super::boxfs`]), never attached on the host: no folder is made for the run
//! then, and its files are reached through the mount's descriptor alone.

use std::fs::File;
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::boxfs::{self, BoxFs};

/// Errors handling box folders; each names its path.
#[derive(Debug, thiserror::Error)]
pub enum BoxDirError {
    /// A file system call failed.
    #[error("{op} {path}: {source}")]
    Io {
        /// What was being done.
        op: &'static str,
        /// On which path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The box root is not a private folder owned by the judge.
    #[error(
        "box root {0} must be a real folder owned by the judge's user and not writable by others"
    )]
    UnsafeRoot(PathBuf),
    /// A name to copy in or out is not a plain file name.
    #[error("{0:?} is not a plain file name")]
    BadName(String),
}

fn io<'a>(op: &'static str, path: &'a Path) -> impl FnOnce(std::io::Error) -> BoxDirError + 'a {
    move |source| BoxDirError::Io {
        op,
        path: path.to_path_buf(),
        source,
    }
}

/// Prefix of the folders under `box_root` that keep a compiled program between its runs:
/// `program-{pid}-…`, so a judge started after a crash can tell which are orphans.
pub fn program_dir_prefix() -> String {
    format!("program-{}-", std::process::id())
}

/// The pid in a `program-{pid}-…` name.
pub(crate) fn program_dir_owner(name: &str) -> Option<i32> {
    name.strip_prefix("program-")?
        .split('-')
        .next()?
        .parse()
        .ok()
}

/// Creates `box_root` if needed, checks nobody else could have planted it and, when
/// `tmpfs_mb > 0` and it is not one already, mounts a tmpfs of that size on it.
pub fn prepare_root(box_root: &Path, tmpfs_mb: u64) -> Result<(), BoxDirError> {
    // Sandboxes made at once by several workers must not stack one tmpfs on another.
    static PREPARING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one_at_a_time = PREPARING.lock().unwrap_or_else(|e| e.into_inner());
    match std::fs::DirBuilder::new().mode(0o700).create(box_root) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => {
            if let Some(parent) = box_root.parent() {
                std::fs::create_dir_all(parent).map_err(io("mkdir", parent))?;
            }
            std::fs::DirBuilder::new()
                .mode(0o700)
                .create(box_root)
                .map_err(|_| e)
                .map_err(io("mkdir", box_root))?;
        }
    }
    let meta = std::fs::symlink_metadata(box_root).map_err(io("stat", box_root))?;
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    if !meta.is_dir() || meta.uid() != me || meta.mode() & 0o022 != 0 {
        return Err(BoxDirError::UnsafeRoot(box_root.to_path_buf()));
    }
    if tmpfs_mb > 0 && !is_tmpfs(box_root)? {
        let opts = format!("size={tmpfs_mb}m,mode=0700");
        nix::mount::mount(
            Some("tmpfs"),
            box_root,
            Some("tmpfs"),
            nix::mount::MsFlags::MS_NOSUID | nix::mount::MsFlags::MS_NODEV,
            Some(opts.as_str()),
        )
        .map_err(|e| io("mount tmpfs on", box_root)(std::io::Error::from(e)))?;
    }
    Ok(())
}

/// Whether `path` is on a tmpfs.
pub fn is_tmpfs(path: &Path) -> Result<bool, BoxDirError> {
    let st =
        nix::sys::statfs::statfs(path).map_err(|e| io("statfs", path)(std::io::Error::from(e)))?;
    Ok(st.filesystem_type() == nix::sys::statfs::TMPFS_MAGIC)
}

fn plain_name(name: &str) -> Result<&str, BoxDirError> {
    if name.is_empty() || name == "." || name == ".." || name.contains('/') || name.contains('\0') {
        return Err(BoxDirError::BadName(name.to_string()));
    }
    Ok(name)
}

fn openat(dir: &OwnedFd, name: &str, flags: i32, mode: u32) -> std::io::Result<File> {
    let c = std::ffi::CString::new(name.as_bytes())
        .map_err(|_| std::io::Error::from(std::io::ErrorKind::InvalidInput))?;
    // SAFETY: openat(2) relative to an open directory with a NUL-terminated name.
    let fd = unsafe {
        libc::openat(
            dir.as_raw_fd(),
            c.as_ptr(),
            flags | libc::O_CLOEXEC | libc::O_NOFOLLOW,
            mode,
        )
    };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: the kernel just returned this fd to us.
    Ok(File::from(unsafe { OwnedFd::from_raw_fd(fd) }))
}

/// One run's folders on the host, removed on drop.
#[derive(Debug)]
pub struct RunDir {
    run: PathBuf,
    /// The box's root: the `box` folder, or the root of the box's own file system.
    box_fd: OwnedFd,
    /// Whether `box_fd` is a detached file system of its own ([`boxfs`]).
    own_fs: bool,
}

impl RunDir {
    /// Creates `<box_root>/<name>` with its `box` folder (owned by `uid:gid`).
    pub fn create(box_root: &Path, name: &str, uid: u32, gid: u32) -> Result<RunDir, BoxDirError> {
        let run = box_root.join(plain_name(name)?);
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&run)
            .map_err(io("mkdir", &run))?;
        let dir = RunDir::open(run)?;
        Ok(dir).and_then(|d| d.finish(uid, gid))
    }

    /// Like [`RunDir::create`], but the box is a file system of its own with `fs`'s size and
    /// inode bounds (needs root): whatever the program makes there is freed by the kernel
    /// when the run's mount namespace is gone and this `RunDir` is dropped.
    /// No host folder is made: the run's files are reached through the mount alone, and
    /// `path` only names the run in errors.
    pub fn create_with_fs(box_root: &Path, name: &str, fs: &BoxFs) -> Result<RunDir, BoxDirError> {
        let run = box_root.join(plain_name(name)?);
        let box_fd = boxfs::create(fs).map_err(io("make the box file system for", &run))?;
        Ok(RunDir {
            run,
            box_fd,
            own_fs: true,
        })
    }

    /// With a file system of its own: the program's stdout and stderr as two unnamed files
    /// in it (`O_TMPFILE`, root-only), so no name in the box or on the host leads to them and
    /// `/proc/self/fd/1` names no host path. `None` when the box is a host folder (the
    /// helper then creates `stdout` and `stderr` in the run's folder).
    pub fn output_files(&self) -> Result<Option<(File, File)>, BoxDirError> {
        if !self.own_fs {
            return Ok(None);
        }
        let make = || {
            openat(&self.box_fd, ".", libc::O_TMPFILE | libc::O_RDWR, 0o600)
                .map_err(io("create an output file in", &self.run))
        };
        Ok(Some((make()?, make()?)))
    }

    /// The descriptor of the box's own file system, for the helper to fetch and the init to
    /// attach at `/box`; `None` when the box is a host folder.
    pub fn mount_fd(&self) -> Option<i32> {
        self.own_fs.then(|| self.box_fd.as_raw_fd())
    }

    fn open(run: PathBuf) -> Result<RunDir, BoxDirError> {
        let boxed = run.join("box");
        let cleanup = |e| {
            let _ = std::fs::remove_dir_all(&run);
            e
        };
        std::fs::DirBuilder::new()
            .mode(0o755)
            .create(&boxed)
            .map_err(io("mkdir", &boxed))
            .map_err(cleanup)?;
        let c = std::ffi::CString::new(boxed.as_os_str().as_bytes())
            .map_err(|_| BoxDirError::BadName(boxed.display().to_string()))?;
        // SAFETY: open(2) of a folder we just made, not following links.
        let fd = unsafe {
            libc::open(
                c.as_ptr(),
                libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
            )
        };
        if fd < 0 {
            let e = std::io::Error::last_os_error();
            let _ = std::fs::remove_dir_all(&run);
            return Err(io("open", &boxed)(e));
        }
        // SAFETY: the kernel just returned this fd to us.
        let box_fd = unsafe { OwnedFd::from_raw_fd(fd) };
        Ok(RunDir {
            run,
            box_fd,
            own_fs: false,
        })
    }

    fn finish(self, uid: u32, gid: u32) -> Result<RunDir, BoxDirError> {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } == 0 {
            // SAFETY: fchown(2) on our own open folder.
            if unsafe { libc::fchown(self.box_fd.as_raw_fd(), uid, gid) } != 0 {
                return Err(io("chown", &self.box_path())(
                    std::io::Error::last_os_error(),
                ));
            }
        }
        Ok(self)
    }

    /// The run's folder.
    pub fn path(&self) -> &Path {
        &self.run
    }

    /// The host path of the box folder (mounted at `/box` unless the box has a file system
    /// of its own).
    pub fn box_path(&self) -> PathBuf {
        self.run.join("box")
    }

    /// The stdout file (created by the helper).
    pub fn stdout_path(&self) -> PathBuf {
        self.run.join("stdout")
    }

    /// The stderr file (created by the helper).
    pub fn stderr_path(&self) -> PathBuf {
        self.run.join("stderr")
    }

    /// Puts a host file into the box as `name`. A regular file owned by the judge that only
    /// the judge may write is hard-linked (the box cannot change it, and nothing is copied);
    /// anything else is copied, keeping its executable bit.
    pub fn copy_in(&self, name: &str, host: &Path) -> Result<(), BoxDirError> {
        let name = plain_name(name)?;
        let mut src = File::open(host).map_err(io("open", host))?;
        if let Ok(meta) = src.metadata() {
            // SAFETY: geteuid has no preconditions.
            let me = unsafe { libc::geteuid() };
            if meta.is_file() && meta.uid() == me && meta.mode() & 0o022 == 0 {
                let c = std::ffi::CString::new(name.as_bytes())
                    .map_err(|_| BoxDirError::BadName(name.to_string()))?;
                // SAFETY: linkat(2) of an open file (AT_EMPTY_PATH) into the box folder.
                let r = unsafe {
                    libc::linkat(
                        src.as_raw_fd(),
                        c"".as_ptr(),
                        self.box_fd.as_raw_fd(),
                        c.as_ptr(),
                        libc::AT_EMPTY_PATH,
                    )
                };
                if r == 0 {
                    return Ok(());
                }
            }
        }
        let exec = src
            .metadata()
            .map(|m| m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false);
        let mode = if exec { 0o755 } else { 0o644 };
        let dst_path = self.box_path().join(name);
        // Nothing the box's own file system holds is a host path: this names it in errors.
        let mut dst = openat(
            &self.box_fd,
            name,
            libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL,
            mode,
        )
        .map_err(io("create", &dst_path))?;
        // The size first: on the box's own file system (`huge=within_size`) the copy then
        // fills huge pages.
        if let Ok(meta) = src.metadata() {
            dst.set_len(meta.len()).map_err(io("size", &dst_path))?;
        }
        std::io::copy(&mut src, &mut dst).map_err(io("copy into", &dst_path))?;
        dst.set_permissions(std::fs::Permissions::from_mode(mode))
            .map_err(io("chmod", &dst_path))?;
        Ok(())
    }

    /// Copies `name` out of the box to `dest` if it is a regular file no larger than `max`
    /// bytes; links, fifos and devices planted by the program are refused.
    pub fn collect(&self, name: &str, dest: &Path, max: u64) -> Result<bool, BoxDirError> {
        let name = plain_name(name)?;
        let src_path = self.box_path().join(name);
        let mut src = match openat(&self.box_fd, name, libc::O_RDONLY | libc::O_NONBLOCK, 0) {
            Ok(f) => f,
            Err(e) if e.raw_os_error() == Some(libc::ENOENT) => return Ok(false),
            Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Ok(false),
            Err(e) => return Err(io("open", &src_path)(e)),
        };
        let meta = src.metadata().map_err(io("stat", &src_path))?;
        if !meta.is_file() || meta.len() > max {
            return Ok(false);
        }
        let exec = meta.permissions().mode() & 0o111 != 0;
        let mut dst = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(dest)
            .map_err(io("create", dest))?;
        std::io::copy(&mut (&mut src).take(max), &mut dst).map_err(io("copy out to", dest))?;
        let mode = if exec { 0o755 } else { 0o644 };
        dst.set_permissions(std::fs::Permissions::from_mode(mode))
            .map_err(io("chmod", dest))?;
        Ok(true)
    }

    /// Removes the run's folders (never following links); a box with a file system of its
    /// own has none (the kernel frees the file system when the last descriptor goes).
    pub fn remove(&self) -> Result<(), BoxDirError> {
        if self.own_fs {
            return Ok(());
        }
        match std::fs::remove_dir_all(&self.run) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(io("remove", &self.run)(e)),
        }
    }
}

impl Drop for RunDir {
    fn drop(&mut self) {
        let _ = self.remove();
    }
}

/// Reads at most `max` bytes of a host file the judge created, and its real length.
pub fn read_capped(path: &Path, max: u64) -> Result<(Vec<u8>, u64), BoxDirError> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags_nofollow()
        .open(path)
        .map_err(io("open", path))?;
    let len = file.metadata().map_err(io("stat", path))?.len();
    let mut buf = Vec::with_capacity(len.min(max) as usize);
    file.take(max)
        .read_to_end(&mut buf)
        .map_err(io("read", path))?;
    Ok((buf, len))
}

/// Reads at most `max` bytes of an open output file from its start (whatever its offset),
/// and its real length.
pub fn read_capped_file(file: &File, max: u64) -> Result<(Vec<u8>, u64), BoxDirError> {
    use std::os::unix::fs::FileExt;
    let what = Path::new("<output file>");
    let len = file.metadata().map_err(io("stat", what))?.len();
    let want = len.min(max) as usize;
    let mut buf = vec![0u8; want];
    let mut done = 0;
    while done < want {
        match file.read_at(&mut buf[done..], done as u64) {
            Ok(0) => break,
            Ok(n) => done += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(io("read", what)(e)),
        }
    }
    buf.truncate(done);
    Ok((buf, len))
}

trait NoFollow {
    fn custom_flags_nofollow(&mut self) -> &mut Self;
}

impl NoFollow for std::fs::OpenOptions {
    fn custom_flags_nofollow(&mut self) -> &mut Self {
        use std::os::unix::fs::OpenOptionsExt;
        self.custom_flags(libc::O_NOFOLLOW)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_must_be_plain() {
        for bad in ["", ".", "..", "a/b", "/etc/passwd"] {
            assert!(plain_name(bad).is_err(), "{bad}");
        }
        assert!(plain_name("main.c").is_ok());
    }

    #[test]
    fn collect_refuses_symlinks_and_fifos() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("boxes");
        prepare_root(&root, 0).unwrap();
        // SAFETY: getuid has no preconditions.
        let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
        let run = RunDir::create(&root, "r1", uid, gid).unwrap();
        let secret = t.path().join("secret");
        std::fs::write(&secret, "host secret").unwrap();
        std::os::unix::fs::symlink(&secret, run.box_path().join("main")).unwrap();
        nix::unistd::mkfifo(&run.box_path().join("fifo"), nix::sys::stat::Mode::S_IRWXU).unwrap();
        let dest = t.path().join("out");
        assert!(!run.collect("main", &dest, 1 << 20).unwrap());
        assert!(!run.collect("fifo", &dest, 1 << 20).unwrap());
        assert!(!dest.exists());
        std::fs::write(run.box_path().join("real"), "ok").unwrap();
        assert!(run.collect("real", &dest, 1 << 20).unwrap());
        assert_eq!(std::fs::read_to_string(&dest).unwrap(), "ok");
        let path = run.path().to_path_buf();
        drop(run);
        assert!(!path.exists());
        assert_eq!(std::fs::read_to_string(&secret).unwrap(), "host secret");
    }

    #[test]
    fn read_capped_stops_at_the_cap() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("f");
        std::fs::write(&p, vec![b'x'; 1000]).unwrap();
        let (buf, len) = read_capped(&p, 10).unwrap();
        assert_eq!((buf.len(), len), (10, 1000));
    }
}
