//! Reading a class folder a student may have prepared against the teacher, who runs `grade`
//! as root. Everything under a class folder is looked at through directory descriptors:
//!
//! - a symbolic link is never followed (`fstatat(AT_SYMLINK_NOFOLLOW)` to list it, and every
//!   `openat` carries `O_NOFOLLOW`, so a link put in place after the listing fails with
//!   `ELOOP` instead of being read); a student's subfolder is opened with
//!   `O_DIRECTORY | O_NOFOLLOW` and listed through that descriptor, so a folder swapped for a
//!   link never lists the link's target;
//! - only regular files are opened (a FIFO, device or socket is refused from its `lstat`,
//!   never opened); the open is `O_NONBLOCK`, the descriptor is checked again with `fstat`
//!   (a FIFO swapped in after the listing is refused, not waited on) and `fstatfs` (a file on
//!   a kernel file system, such as `/proc/kmsg`, which `stat` calls a regular file of length
//!   0, is refused), and at most the size bound plus one byte is read.

use std::ffi::{CString, OsStr, OsString};
use std::fs::File;
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;

/// What an entry is, from its `lstat` (a link is a link, whatever it points to).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link (never followed).
    Link,
    /// A named pipe.
    Fifo,
    /// A character device.
    CharDevice,
    /// A block device.
    BlockDevice,
    /// A Unix socket.
    Socket,
    /// Anything else.
    Other,
}

impl Kind {
    fn of_mode(mode: libc::mode_t) -> Kind {
        match mode & libc::S_IFMT {
            libc::S_IFREG => Kind::File,
            libc::S_IFDIR => Kind::Dir,
            libc::S_IFLNK => Kind::Link,
            libc::S_IFIFO => Kind::Fifo,
            libc::S_IFCHR => Kind::CharDevice,
            libc::S_IFBLK => Kind::BlockDevice,
            libc::S_IFSOCK => Kind::Socket,
            _ => Kind::Other,
        }
    }

    /// In words, for a row's message.
    pub fn describe(self) -> &'static str {
        match self {
            Kind::File => "a regular file",
            Kind::Dir => "a folder",
            Kind::Link => "a symbolic link",
            Kind::Fifo => "a FIFO",
            Kind::CharDevice => "a character device",
            Kind::BlockDevice => "a block device",
            Kind::Socket => "a socket",
            Kind::Other => "a special file",
        }
    }
}

/// An entry's `lstat`: its kind, size and identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    /// What it is.
    pub kind: Kind,
    /// Its size in bytes (of the link itself for a link).
    pub size: u64,
    /// Device and inode: the same file seen under two names.
    pub id: (u64, u64),
}

impl Stat {
    /// The `Stat` of a path's metadata (`symlink_metadata` for its own).
    pub fn from_metadata(meta: &std::fs::Metadata) -> Stat {
        use std::os::unix::fs::MetadataExt;
        Stat {
            kind: Kind::of_mode(meta.mode() as libc::mode_t),
            size: meta.size(),
            id: (meta.dev(), meta.ino()),
        }
    }

    // `st_dev` and `st_ino` are not `u64` on every platform.
    #[allow(clippy::unnecessary_cast)]
    fn of(st: &libc::stat) -> Stat {
        Stat {
            kind: Kind::of_mode(st.st_mode),
            size: u64::try_from(st.st_size).unwrap_or(0),
            id: (st.st_dev as u64, st.st_ino as u64),
        }
    }
}

/// Why a file was not read.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    /// A symbolic link: never followed.
    #[error("a symbolic link, not followed (hand in the file itself)")]
    Link,
    /// Not a regular file: never read.
    #[error("not a regular file ({}): not opened", .0.describe())]
    NotRegular(Kind),
    /// A file of a kernel file system (procfs, sysfs, ...): never read.
    #[error("a file of the kernel's {0} file system, not read")]
    KernelFs(&'static str),
    /// Larger than the bound.
    #[error("file too large: {size} bytes (limit {} KiB)", .limit / 1024)]
    TooLarge {
        /// Its size (or the bound plus one when it grew while read).
        size: u64,
        /// The bound.
        limit: u64,
    },
    /// The system refused (no permission, gone, ...).
    #[error("cannot read the file: {0}")]
    Io(std::io::Error),
}

/// Kernel file systems whose files are interfaces, not data: a read may block, drain a
/// kernel buffer or have side effects (`linux/magic.h`).
const KERNEL_FILE_SYSTEMS: [(u32, &str); 14] = [
    (0x9fa0, "proc"),
    (0x6265_6572, "sysfs"),
    (0x6462_6720, "debugfs"),
    (0x7472_6163, "tracefs"),
    (0x7363_6673, "securityfs"),
    (0x6265_6570, "configfs"),
    (0x0027_e0eb, "cgroup"),
    (0x6367_7270, "cgroup2"),
    (0xde5e_81e4, "efivarfs"),
    (0xcafe_4a11, "bpf"),
    (0x6165_676c, "pstore"),
    (0x6573_5543, "fusectl"),
    (0x4249_4e4d, "binfmt_misc"),
    (0x0000_1cd1, "devpts"),
];

/// The kernel file system `fd` is on, if it is one of `KERNEL_FILE_SYSTEMS`.
pub fn kernel_file_system(fd: &OwnedFd) -> std::io::Result<Option<&'static str>> {
    // SAFETY: a zeroed statfs is a valid out-parameter; the descriptor is open.
    let mut st: libc::statfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstatfs(fd.as_raw_fd(), &mut st) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // `f_type` is a signed word of the platform's size; the magic numbers are 32 bits.
    let magic = (st.f_type as u64 & 0xffff_ffff) as u32;
    Ok(KERNEL_FILE_SYSTEMS
        .iter()
        .find(|(m, _)| *m == magic)
        .map(|(_, name)| *name))
}

fn c_name(name: &OsStr) -> std::io::Result<CString> {
    CString::new(name.as_bytes()).map_err(|_| std::io::Error::from_raw_os_error(libc::EINVAL))
}

fn c_path(path: &Path) -> std::io::Result<CString> {
    c_name(path.as_os_str())
}

fn owned(fd: libc::c_int) -> std::io::Result<OwnedFd> {
    if fd < 0 {
        Err(std::io::Error::last_os_error())
    } else {
        // SAFETY: a fresh descriptor just returned by the kernel, owned by nobody else.
        Ok(unsafe { OwnedFd::from_raw_fd(fd) })
    }
}

/// Whether an `open` failed because the last component is a symbolic link (`O_NOFOLLOW`).
fn is_link_error(e: &std::io::Error) -> bool {
    e.raw_os_error() == Some(libc::ELOOP)
}

/// Reads an opened file when it is a regular file of an ordinary file system, at most
/// `max + 1` bytes (so a file that grew after its size was read is still caught).
fn read_opened(fd: OwnedFd, max: u64) -> Result<Vec<u8>, Refused> {
    // SAFETY: a zeroed stat is a valid out-parameter; the descriptor is open.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstat(fd.as_raw_fd(), &mut st) } != 0 {
        return Err(Refused::Io(std::io::Error::last_os_error()));
    }
    let stat = Stat::of(&st);
    if stat.kind != Kind::File {
        return Err(Refused::NotRegular(stat.kind));
    }
    if let Some(fs) = kernel_file_system(&fd).map_err(Refused::Io)? {
        return Err(Refused::KernelFs(fs));
    }
    if stat.size > max {
        return Err(Refused::TooLarge {
            size: stat.size,
            limit: max,
        });
    }
    let mut bytes = Vec::new();
    File::from(fd)
        .take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(Refused::Io)?;
    if bytes.len() as u64 > max {
        return Err(Refused::TooLarge {
            size: bytes.len() as u64,
            limit: max,
        });
    }
    Ok(bytes)
}

const OPEN_FILE: libc::c_int =
    libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_CLOEXEC;

/// Reads the file at `path` given by the teacher: its last component is not followed when it
/// is a link unless `follow` (the folders on the way are the teacher's), and only a regular
/// file of an ordinary file system is read, at most `max` bytes.
pub fn read_path(path: &Path, max: u64, follow: bool) -> Result<Vec<u8>, Refused> {
    let meta = if follow {
        std::fs::metadata(path)
    } else {
        std::fs::symlink_metadata(path)
    }
    .map_err(Refused::Io)?;
    let kind = Kind::of_mode(std::os::unix::fs::MetadataExt::mode(&meta) as libc::mode_t);
    match kind {
        Kind::File => {}
        Kind::Link => return Err(Refused::Link),
        other => return Err(Refused::NotRegular(other)),
    }
    let flags = if follow {
        OPEN_FILE & !libc::O_NOFOLLOW
    } else {
        OPEN_FILE
    };
    let name = c_path(path).map_err(Refused::Io)?;
    // SAFETY: a NUL-terminated path.
    let fd = owned(unsafe { libc::open(name.as_ptr(), flags) }).map_err(|e| {
        if is_link_error(&e) && !follow {
            Refused::Link
        } else {
            Refused::Io(e)
        }
    })?;
    read_opened(fd, max)
}

/// An open directory: its entries are listed, examined and opened through this descriptor.
#[derive(Debug)]
pub struct Dir {
    fd: OwnedFd,
}

impl Dir {
    /// The folder at `path`, given by the teacher (a link to it is followed).
    pub fn open(path: &Path) -> std::io::Result<Dir> {
        let name = c_path(path)?;
        let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NONBLOCK | libc::O_CLOEXEC;
        // SAFETY: a NUL-terminated path.
        let fd = owned(unsafe { libc::open(name.as_ptr(), flags) })?;
        Ok(Dir { fd })
    }

    /// The subfolder `name`, which must not be a link: [`Refused::Link`] when it is one.
    pub fn open_dir(&self, name: &OsStr) -> Result<Dir, Refused> {
        let c = c_name(name).map_err(Refused::Io)?;
        let flags = libc::O_RDONLY
            | libc::O_DIRECTORY
            | libc::O_NOFOLLOW
            | libc::O_NONBLOCK
            | libc::O_CLOEXEC;
        // SAFETY: an open directory descriptor and a NUL-terminated name.
        let fd = owned(unsafe { libc::openat(self.fd.as_raw_fd(), c.as_ptr(), flags) }).map_err(
            |e| {
                // With O_DIRECTORY, Linux reports a link as ENOTDIR, not ELOOP.
                let link = is_link_error(&e)
                    || (e.raw_os_error() == Some(libc::ENOTDIR)
                        && self.stat(name).is_ok_and(|s| s.kind == Kind::Link));
                if link {
                    Refused::Link
                } else {
                    Refused::Io(e)
                }
            },
        )?;
        Ok(Dir { fd })
    }

    /// The entry `name`'s own `lstat` (a link is not followed).
    pub fn stat(&self, name: &OsStr) -> std::io::Result<Stat> {
        let c = c_name(name)?;
        // SAFETY: a zeroed stat is a valid out-parameter; the descriptor is open.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        let rc = unsafe {
            libc::fstatat(
                self.fd.as_raw_fd(),
                c.as_ptr(),
                &mut st,
                libc::AT_SYMLINK_NOFOLLOW,
            )
        };
        if rc != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(Stat::of(&st))
    }

    /// The names in the folder, sorted (without `.` and `..`).
    pub fn entries(&self) -> std::io::Result<Vec<OsString>> {
        // fdopendir takes the descriptor over: give it a duplicate.
        // SAFETY: an open descriptor.
        let dup = owned(unsafe { libc::fcntl(self.fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 0) })?;
        let raw = std::os::fd::IntoRawFd::into_raw_fd(dup);
        // SAFETY: `raw` is ours; on success the stream owns it, on failure we close it.
        let stream = unsafe { libc::fdopendir(raw) };
        if stream.is_null() {
            let e = std::io::Error::last_os_error();
            unsafe { libc::close(raw) };
            return Err(e);
        }
        // The duplicate shares the offset: start from the beginning whoever listed before.
        unsafe { libc::rewinddir(stream) };
        let mut names = Vec::new();
        let result = loop {
            // readdir signals an error only through errno: clear it first.
            unsafe { *libc::__errno_location() = 0 };
            // SAFETY: an open stream; the entry is valid until the next readdir.
            let entry = unsafe { libc::readdir(stream) };
            if entry.is_null() {
                let errno = std::io::Error::last_os_error();
                break match errno.raw_os_error() {
                    Some(0) | None => Ok(()),
                    Some(_) => Err(errno),
                };
            }
            // SAFETY: d_name is NUL-terminated within the entry.
            let name = unsafe { std::ffi::CStr::from_ptr((*entry).d_name.as_ptr()) };
            let bytes = name.to_bytes();
            if bytes != b"." && bytes != b".." {
                names.push(OsString::from_vec(bytes.to_vec()));
            }
        };
        // SAFETY: the stream is open; closing it closes the duplicate.
        unsafe { libc::closedir(stream) };
        result?;
        names.sort();
        Ok(names)
    }

    /// Reads the regular file `name` of this folder: not a link (`O_NOFOLLOW`), not a
    /// special file (`O_NONBLOCK`, then `fstat`), not on a kernel file system (`fstatfs`),
    /// at most `max` bytes.
    pub fn read_file(&self, name: &OsStr, max: u64) -> Result<Vec<u8>, Refused> {
        let c = c_name(name).map_err(Refused::Io)?;
        // SAFETY: an open directory descriptor and a NUL-terminated name.
        let fd = owned(unsafe { libc::openat(self.fd.as_raw_fd(), c.as_ptr(), OPEN_FILE) })
            .map_err(|e| {
                if is_link_error(&e) {
                    Refused::Link
                } else {
                    Refused::Io(e)
                }
            })?;
        read_opened(fd, max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn mkfifo(path: &Path) {
        let c = c_path(path).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    }

    #[test]
    fn links_are_listed_as_links_and_never_opened() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("real.c"), "int main(){}").unwrap();
        std::os::unix::fs::symlink(d.join("real.c"), d.join("link.c")).unwrap();
        std::fs::create_dir(d.join("sub")).unwrap();
        std::os::unix::fs::symlink(d.join("sub"), d.join("sublink")).unwrap();
        let root = Dir::open(d).unwrap();
        assert_eq!(
            root.entries().unwrap(),
            ["link.c", "real.c", "sub", "sublink"].map(OsString::from)
        );
        assert_eq!(root.stat(OsStr::new("link.c")).unwrap().kind, Kind::Link);
        assert_eq!(root.stat(OsStr::new("sublink")).unwrap().kind, Kind::Link);
        assert!(matches!(
            root.read_file(OsStr::new("link.c"), 1024),
            Err(Refused::Link)
        ));
        assert!(matches!(
            root.open_dir(OsStr::new("sublink")),
            Err(Refused::Link)
        ));
        assert_eq!(
            root.read_file(OsStr::new("real.c"), 1024).unwrap(),
            b"int main(){}"
        );
        assert!(matches!(
            read_path(&d.join("link.c"), 1024, false),
            Err(Refused::Link)
        ));
        assert!(read_path(&d.join("link.c"), 1024, true).is_ok());
        // Listing twice through the same descriptor lists everything twice.
        assert_eq!(root.entries().unwrap().len(), 4);
    }

    #[test]
    fn a_fifo_opened_anyway_is_refused_at_once() {
        // What a FIFO swapped in after the listing meets: the open does not wait for a
        // writer (O_NONBLOCK) and fstat refuses it.
        let dir = tempfile::tempdir().unwrap();
        mkfifo(&dir.path().join("pipe.c"));
        let root = Dir::open(dir.path()).unwrap();
        let started = Instant::now();
        let refused = root.read_file(OsStr::new("pipe.c"), 1024);
        assert!(
            matches!(refused, Err(Refused::NotRegular(Kind::Fifo))),
            "{refused:?}"
        );
        assert!(started.elapsed() < Duration::from_secs(1));
        assert!(matches!(
            read_path(&dir.path().join("pipe.c"), 1024, true),
            Err(Refused::NotRegular(Kind::Fifo))
        ));
    }

    #[test]
    fn kernel_file_systems_are_recognised_without_reading() {
        // /proc/self/stat is a regular file by stat; reading it is harmless, but the check
        // refuses it before any read, which is what protects /proc/kmsg.
        let refused = read_path(Path::new("/proc/self/stat"), 1024, true);
        assert!(
            matches!(refused, Err(Refused::KernelFs("proc"))),
            "{refused:?}"
        );
        let sys = Dir::open(Path::new("/sys")).unwrap();
        assert_eq!(kernel_file_system(&sys.fd).unwrap(), Some("sysfs"));
        let tmp = tempfile::tempdir().unwrap();
        assert_eq!(
            kernel_file_system(&Dir::open(tmp.path()).unwrap().fd).unwrap(),
            None
        );
    }

    #[test]
    fn reads_are_bounded() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("big.c"), "x".repeat(2000)).unwrap();
        let refused = read_path(&dir.path().join("big.c"), 1024, false);
        assert!(
            matches!(
                refused,
                Err(Refused::TooLarge {
                    size: 2000,
                    limit: 1024
                })
            ),
            "{refused:?}"
        );
    }
}
