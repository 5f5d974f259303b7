//! The seccomp filter: system calls a solution or a compiler never needs are refused.
//!
//! Written as a short classic-BPF program (one filter, one pass): non-x86-64 ABIs are
//! killed, x32 numbers and `clone3` get `ENOSYS` (`clone3` passes its flags in memory, which
//! BPF cannot read; libc then falls back to `clone`), `clone` with any namespace flag and the
//! listed calls get `EPERM`, `socket`/`socketpair` of any address family but
//! [`ALLOWED_FAMILIES`] get `EAFNOSUPPORT` (vsock's port space is the host's, netlink talks
//! to the kernel), everything else is allowed. Threads (`clone` with
//! `CLONE_THREAD`) still work. Installed with seccompiler's `apply_filter`, which also sets
//! no_new_privs.

use seccompiler::{sock_filter, BpfProgram};

/// Errors installing the filter.
#[derive(Debug, thiserror::Error)]
pub enum SeccompError {
    /// The kernel refused the filter.
    #[error("installing the seccomp filter: {0}")]
    Apply(#[from] seccompiler::Error),
}

/// Calls refused with `EPERM`.
pub const DENIED: &[(&str, libc::c_long)] = &[
    ("ptrace", libc::SYS_ptrace),
    ("mount", libc::SYS_mount),
    ("umount2", libc::SYS_umount2),
    ("pivot_root", libc::SYS_pivot_root),
    ("chroot", libc::SYS_chroot),
    ("unshare", libc::SYS_unshare),
    ("setns", libc::SYS_setns),
    ("bpf", libc::SYS_bpf),
    ("perf_event_open", libc::SYS_perf_event_open),
    ("keyctl", libc::SYS_keyctl),
    ("add_key", libc::SYS_add_key),
    ("request_key", libc::SYS_request_key),
    ("io_uring_setup", libc::SYS_io_uring_setup),
    ("io_uring_enter", libc::SYS_io_uring_enter),
    ("io_uring_register", libc::SYS_io_uring_register),
    ("userfaultfd", libc::SYS_userfaultfd),
    ("kexec_load", libc::SYS_kexec_load),
    ("kexec_file_load", libc::SYS_kexec_file_load),
    ("init_module", libc::SYS_init_module),
    ("finit_module", libc::SYS_finit_module),
    ("delete_module", libc::SYS_delete_module),
    ("reboot", libc::SYS_reboot),
    ("swapon", libc::SYS_swapon),
    ("swapoff", libc::SYS_swapoff),
    ("memfd_secret", libc::SYS_memfd_secret),
    ("process_vm_readv", libc::SYS_process_vm_readv),
    ("process_vm_writev", libc::SYS_process_vm_writev),
    ("open_by_handle_at", libc::SYS_open_by_handle_at),
    ("name_to_handle_at", libc::SYS_name_to_handle_at),
    ("fsopen", libc::SYS_fsopen),
    ("fsconfig", libc::SYS_fsconfig),
    ("fsmount", libc::SYS_fsmount),
    ("fspick", libc::SYS_fspick),
    ("move_mount", libc::SYS_move_mount),
    ("open_tree", libc::SYS_open_tree),
    ("mount_setattr", libc::SYS_mount_setattr),
    ("acct", libc::SYS_acct),
    ("quotactl", libc::SYS_quotactl),
    ("iopl", libc::SYS_iopl),
    ("ioperm", libc::SYS_ioperm),
    ("modify_ldt", libc::SYS_modify_ldt),
];

/// Address families `socket` and `socketpair` accept: local sockets, and IPv4/IPv6, which
/// reach nothing from the box's empty network namespace. Any other family (vsock, netlink,
/// packet, bluetooth, alg, ...) is refused with `EAFNOSUPPORT`.
pub const ALLOWED_FAMILIES: &[(&str, i32)] = &[
    ("AF_UNIX", libc::AF_UNIX),
    ("AF_INET", libc::AF_INET),
    ("AF_INET6", libc::AF_INET6),
];

/// `clone` flags that create namespaces; any of them set is refused.
pub const NAMESPACE_FLAGS: u32 = (libc::CLONE_NEWNS
    | libc::CLONE_NEWCGROUP
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUSER
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNET
    | libc::CLONE_NEWTIME) as u32;

const AUDIT_ARCH_X86_64: u32 = 0xc000_003e;
const X32_SYSCALL_BIT: u32 = 0x4000_0000;
const RET_ALLOW: u32 = 0x7fff_0000;
const RET_ERRNO: u32 = 0x0005_0000;
const RET_KILL_PROCESS: u32 = 0x8000_0000;
const LD_W_ABS: u16 = 0x20;
const JEQ_K: u16 = 0x15;
const JGE_K: u16 = 0x35;
const JSET_K: u16 = 0x45;
const RET_K: u16 = 0x06;
const OFF_NR: u32 = 0;
const OFF_ARCH: u32 = 4;
const OFF_ARG0_LOW: u32 = 16;

fn stmt(code: u16, k: u32) -> sock_filter {
    sock_filter {
        code,
        jt: 0,
        jf: 0,
        k,
    }
}

fn jump(code: u16, k: u32, jt: usize, jf: usize) -> sock_filter {
    sock_filter {
        code,
        jt: u8::try_from(jt).unwrap_or(u8::MAX),
        jf: u8::try_from(jf).unwrap_or(u8::MAX),
        k,
    }
}

/// Index of the first [`DENIED`] check in [`program`].
const FIRST_DENIED: usize = 9;

/// Builds the filter program (pure; install it with [`install`]).
pub fn program() -> BpfProgram {
    let n = DENIED.len();
    let f = ALLOWED_FAMILIES.len();
    // Layout after the DENIED checks: allow, the clone block (2), the socket block (1 + f),
    // then the returns.
    let clone_ld = FIRST_DENIED + n + 1;
    let socket_ld = clone_ld + 2;
    let enosys = socket_ld + 1 + f;
    let eafnosupport = enosys + 1;
    let eperm = enosys + 2;
    let allow = enosys + 3;
    let to = |target: usize, pos: usize| target - (pos + 1);
    let mut p = vec![
        stmt(LD_W_ABS, OFF_ARCH),
        jump(JEQ_K, AUDIT_ARCH_X86_64, 1, 0),
        stmt(RET_K, RET_KILL_PROCESS),
        stmt(LD_W_ABS, OFF_NR),
        jump(JGE_K, X32_SYSCALL_BIT, to(enosys, 4), 0),
        jump(JEQ_K, libc::SYS_clone3 as u32, to(enosys, 5), 0),
        jump(JEQ_K, libc::SYS_clone as u32, to(clone_ld, 6), 0),
        jump(JEQ_K, libc::SYS_socket as u32, to(socket_ld, 7), 0),
        jump(JEQ_K, libc::SYS_socketpair as u32, to(socket_ld, 8), 0),
    ];
    for (i, (_, nr)) in DENIED.iter().enumerate() {
        let pos = FIRST_DENIED + i;
        p.push(jump(JEQ_K, *nr as u32, to(eperm, pos), 0));
    }
    p.push(stmt(RET_K, RET_ALLOW));
    p.push(stmt(LD_W_ABS, OFF_ARG0_LOW));
    p.push(jump(
        JSET_K,
        NAMESPACE_FLAGS,
        to(eperm, clone_ld + 1),
        to(allow, clone_ld + 1),
    ));
    p.push(stmt(LD_W_ABS, OFF_ARG0_LOW));
    for (i, (_, family)) in ALLOWED_FAMILIES.iter().enumerate() {
        let pos = socket_ld + 1 + i;
        let miss = if i + 1 == f { to(eafnosupport, pos) } else { 0 };
        p.push(jump(JEQ_K, *family as u32, to(allow, pos), miss));
    }
    p.push(stmt(RET_K, RET_ERRNO | libc::ENOSYS as u32));
    p.push(stmt(RET_K, RET_ERRNO | libc::EAFNOSUPPORT as u32));
    p.push(stmt(RET_K, RET_ERRNO | libc::EPERM as u32));
    p.push(stmt(RET_K, RET_ALLOW));
    p
}

/// Installs `program` on the calling thread (sets no_new_privs first). Call last before exec.
pub fn install(program: &BpfProgram) -> Result<(), SeccompError> {
    seccompiler::apply_filter(program)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_jump_lands_inside_the_program() {
        let p = program();
        for (i, insn) in p.iter().enumerate() {
            if insn.code & 0x07 == 0x05 {
                assert!(i + 1 + (insn.jt as usize) < p.len(), "jt of {i}");
                assert!(i + 1 + (insn.jf as usize) < p.len(), "jf of {i}");
                assert!(insn.jt < u8::MAX && insn.jf < u8::MAX);
            }
        }
        assert_eq!(p.last().map(|i| i.k), Some(RET_ALLOW));
    }

    #[test]
    fn denied_calls_jump_to_eperm() {
        let p = program();
        let eperm = p.len() - 2;
        assert_eq!(p[eperm].k, RET_ERRNO | libc::EPERM as u32);
        for (i, (name, nr)) in DENIED.iter().enumerate() {
            let pos = FIRST_DENIED + i;
            assert_eq!(p[pos].k, *nr as u32, "{name}");
            assert_eq!(pos + 1 + p[pos].jt as usize, eperm, "{name}");
        }
    }

    /// Runs the filter in a forked child that only makes raw system calls, and reads back
    /// the errno each call got.
    #[test]
    fn kernel_applies_the_filter() {
        let prog = program();
        // SAFETY: the child only makes raw system calls and exits with _exit.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0);
        if pid == 0 {
            unsafe {
                let code = (|| {
                    let fprog = libc::sock_fprog {
                        len: prog.len() as u16,
                        filter: prog.as_ptr() as *mut libc::sock_filter,
                    };
                    if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                        return 10;
                    }
                    if libc::syscall(libc::SYS_seccomp, 1, 0, &fprog as *const _) != 0 {
                        return 11;
                    }
                    let errno = || *libc::__errno_location();
                    if libc::syscall(libc::SYS_unshare, libc::CLONE_NEWNS) != -1
                        || errno() != libc::EPERM
                    {
                        return 12;
                    }
                    if libc::syscall(libc::SYS_clone3, 0, 0) != -1 || errno() != libc::ENOSYS {
                        return 13;
                    }
                    if libc::syscall(libc::SYS_ptrace, 0, 0, 0, 0) != -1 || errno() != libc::EPERM {
                        return 14;
                    }
                    let flags = libc::CLONE_NEWNET as libc::c_long | libc::SIGCHLD as libc::c_long;
                    if libc::syscall(libc::SYS_clone, flags, 0, 0, 0, 0) != -1
                        || errno() != libc::EPERM
                    {
                        return 15;
                    }
                    if libc::syscall(libc::SYS_getpid) <= 0 {
                        return 16;
                    }
                    // AF_VSOCK (40), AF_NETLINK, AF_PACKET: refused; local and IP allowed.
                    for family in [40, libc::AF_NETLINK, libc::AF_PACKET] {
                        if libc::socket(family, libc::SOCK_STREAM, 0) != -1
                            || errno() != libc::EAFNOSUPPORT
                        {
                            return 17;
                        }
                    }
                    let mut pair = [0; 2];
                    if libc::socketpair(40, libc::SOCK_STREAM, 0, pair.as_mut_ptr()) != -1
                        || errno() != libc::EAFNOSUPPORT
                    {
                        return 18;
                    }
                    if libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, pair.as_mut_ptr()) != 0
                    {
                        return 19;
                    }
                    if libc::socket(libc::AF_INET6, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0) < 0 {
                        return 20;
                    }
                    if libc::syscall(libc::SYS_modify_ldt, 0, 0, 0) != -1 || errno() != libc::EPERM
                    {
                        return 21;
                    }
                    0
                })();
                libc::_exit(code);
            }
        }
        let mut status = 0;
        // SAFETY: waiting for our own child.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        assert!(libc::WIFEXITED(status), "child died: {status}");
        assert_eq!(libc::WEXITSTATUS(status), 0);
    }
}
