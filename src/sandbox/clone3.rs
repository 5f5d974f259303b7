//! The program's process started directly in its per-run cgroup (cgroup v2):
//! `clone3(CLONE_INTO_CGROUP)` with the same `CLONE_VM | CLONE_VFORK` semantics as
//! [`super::exec`]'s `clone`, so the process is in its cgroup from its first instruction and
//! never joins it (a move between cgroups takes the kernel's cgroup-wide lock and, after a
//! quiet spell, waits for an RCU grace period: milliseconds).
//!
//! glibc has no `clone3` wrapper, and a `CLONE_VM` child starts on a stack of its own, in
//! the middle of the system call: the child's side is a few instructions of assembly that
//! call the entry function on that stack and exit with what it returns (x86-64 only; other
//! architectures, kernels without `clone3` or `CLONE_INTO_CGROUP` (before 5.7) and any
//! refusal fall back to `clone` and joining the cgroup before exec, as before).

use std::os::fd::RawFd;

/// `CLONE_INTO_CGROUP` (linux/sched.h, Linux 5.7).
const CLONE_INTO_CGROUP: u64 = 0x2_0000_0000;

/// `struct clone_args` (linux/sched.h), up to `cgroup` (`CLONE_ARGS_SIZE_VER2`).
#[repr(C)]
#[derive(Default)]
struct CloneArgs {
    flags: u64,
    pidfd: u64,
    child_tid: u64,
    parent_tid: u64,
    exit_signal: u64,
    stack: u64,
    stack_size: u64,
    tls: u64,
    set_tid: u64,
    set_tid_size: u64,
    cgroup: u64,
}

/// What [`spawn_into_cgroup`] did.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Spawned {
    /// The child's pid: it started in the cgroup.
    Started(i32),
    /// Nothing was started (the errno): no `clone3` (before 5.3), no `CLONE_INTO_CGROUP`
    /// (before 5.7; `EINVAL` or `E2BIG`), or the kernel refused the cgroup. The caller uses
    /// `clone` and joins the cgroup, which reports what is really wrong, if anything.
    NotStarted(i32),
}

/// Starts `entry(arg)` like `vfork` (`CLONE_VM | CLONE_VFORK`, `SIGCHLD` on exit) on the
/// stack `[stack_low, stack_top)` (`stack_top` 16-byte aligned), in the cgroup of the
/// directory descriptor `cgroup_dir`. The child must exec or `_exit`; if `entry` returns,
/// the child exits with its value.
///
/// # Safety
/// As for `clone(CLONE_VM | CLONE_VFORK)`: the caller is single-threaded, the stack stays
/// alive and unused until the child execs or exits, and `entry` only does what is safe in
/// a child sharing the caller's memory (system calls, no allocation, no unwinding).
pub(super) unsafe fn spawn_into_cgroup(
    entry: extern "C" fn(*mut libc::c_void) -> libc::c_int,
    arg: *mut libc::c_void,
    stack_low: usize,
    stack_top: usize,
    cgroup_dir: RawFd,
) -> Spawned {
    let mut args = CloneArgs {
        flags: (libc::CLONE_VM | libc::CLONE_VFORK) as u64 | CLONE_INTO_CGROUP,
        exit_signal: libc::SIGCHLD as u64,
        stack: stack_low as u64,
        stack_size: (stack_top - stack_low) as u64,
        cgroup: cgroup_dir as u64,
        ..CloneArgs::default()
    };
    // SAFETY: as promised by the caller.
    let ret = unsafe { raw_clone3(&mut args, entry, arg) };
    match ret {
        0.. => Spawned::Started(ret as i32),
        _ => Spawned::NotStarted(-ret as i32),
    }
}

/// `clone3(args)`; in the child, `entry(arg)` on the new stack, then `exit`. Returns the
/// child's pid or `-errno` in the caller.
#[cfg(target_arch = "x86_64")]
unsafe fn raw_clone3(
    args: &mut CloneArgs,
    entry: extern "C" fn(*mut libc::c_void) -> libc::c_int,
    arg: *mut libc::c_void,
) -> i64 {
    let ret: i64;
    // SAFETY: the system call reads `args`; the child (rax = 0) runs on the stack `args`
    // names, whose top is 16-byte aligned as `call` expects, and never comes back here:
    // `entry` execs or exits, and if it returns the child exits. In the caller only rax,
    // rcx and r11 change (the system call's return and what `syscall` clobbers).
    unsafe {
        std::arch::asm!(
            "syscall",
            "test rax, rax",
            "jnz 2f",
            "xor ebp, ebp",
            "mov rdi, r13",
            "call r12",
            "mov edi, eax",
            "mov eax, 60", // SYS_exit
            "syscall",
            "ud2",
            "2:",
            inlateout("rax") libc::SYS_clone3 => ret,
            in("rdi") args as *mut CloneArgs,
            in("rsi") std::mem::size_of::<CloneArgs>(),
            in("r12") entry,
            in("r13") arg,
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack),
        );
    }
    ret
}

#[cfg(not(target_arch = "x86_64"))]
unsafe fn raw_clone3(
    _args: &mut CloneArgs,
    _entry: extern "C" fn(*mut libc::c_void) -> libc::c_int,
    _arg: *mut libc::c_void,
) -> i64 {
    -(libc::ENOSYS as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clone_args_have_the_kernels_size() {
        // CLONE_ARGS_SIZE_VER2: the size that carries `cgroup`.
        assert_eq!(std::mem::size_of::<CloneArgs>(), 88);
    }

    extern "C" fn exit_at_once(_: *mut libc::c_void) -> libc::c_int {
        0
    }

    /// A descriptor that is no cgroup (a plain folder): the kernel refuses it (or has no
    /// clone3 into a cgroup at all) and nothing is started.
    #[test]
    fn a_folder_that_is_no_cgroup_starts_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let fd = std::fs::File::open(dir.path()).unwrap();
        let mut stack = vec![0u8; 64 << 10];
        let low = stack.as_mut_ptr() as usize;
        let top = (low + stack.len()) & !15;
        // SAFETY: the child (never started here) would only return a number.
        let spawned = unsafe {
            spawn_into_cgroup(
                exit_at_once,
                std::ptr::null_mut(),
                low,
                top,
                std::os::fd::AsRawFd::as_raw_fd(&fd),
            )
        };
        assert!(matches!(spawned, Spawned::NotStarted(_)), "{spawned:?}");
    }

    /// In the child (sharing this test's memory): its `/proc/self/cgroup` into `arg`.
    extern "C" fn read_own_cgroup(arg: *mut libc::c_void) -> libc::c_int {
        // SAFETY: plain system calls into the 256-byte buffer `arg` points to; the parent
        // is suspended (CLONE_VFORK) until this child exits.
        unsafe {
            let fd = libc::open(c"/proc/self/cgroup".as_ptr(), libc::O_RDONLY);
            if fd < 0 {
                return 1;
            }
            libc::read(fd, arg, 255);
            libc::close(fd);
        }
        0
    }

    /// On the real kernel: a cgroup v2 hierarchy mounted aside (it exists next to v1 on a
    /// v1 host, without controllers), a child started in a cgroup of it reads that cgroup
    /// as its own. Skipped where cgroup2 cannot be mounted (not root).
    #[test]
    fn a_child_starts_in_the_v2_cgroup_it_is_given() {
        use nix::mount::{mount, umount2, MntFlags, MsFlags};
        let root = tempfile::tempdir().unwrap();
        if mount(
            Some("none"),
            root.path(),
            Some("cgroup2"),
            MsFlags::empty(),
            None::<&str>,
        )
        .is_err()
        {
            eprintln!("skipped: cannot mount cgroup2");
            return;
        }
        let name = format!("sudojudge-clone3-test-{}", std::process::id());
        let leaf = root.path().join(&name);
        std::fs::create_dir(&leaf).unwrap();
        let dir = std::fs::File::open(&leaf).unwrap();
        let mut seen = [0u8; 256];
        let mut stack = vec![0u8; 64 << 10];
        let low = stack.as_mut_ptr() as usize;
        let top = (low + stack.len()) & !15;
        // SAFETY: the child only reads a file into `seen` and exits.
        let spawned = unsafe {
            spawn_into_cgroup(
                read_own_cgroup,
                seen.as_mut_ptr().cast(),
                low,
                top,
                std::os::fd::AsRawFd::as_raw_fd(&dir),
            )
        };
        let status = match spawned {
            Spawned::Started(pid) => {
                let mut status = 0;
                // SAFETY: reaping the child just started.
                unsafe { libc::waitpid(pid, &mut status, 0) };
                Some(status)
            }
            Spawned::NotStarted(_) => None,
        };
        let _ = std::fs::remove_dir(&leaf);
        let _ = umount2(root.path(), MntFlags::MNT_DETACH);
        let status = status.expect("clone3 into a cgroup v2 folder (Linux 5.7+)");
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
        let text = String::from_utf8_lossy(&seen);
        assert!(
            text.lines().any(|l| l == format!("0::/{name}")),
            "the child's /proc/self/cgroup: {text:?}"
        );
    }
}
