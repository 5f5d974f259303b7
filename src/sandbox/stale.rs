//! What a judge process that died (kill -9, a crash) left behind: box folders and cgroups
//! named after its pid, and compiled programs. The next sandbox of the same slot sweeps them.

use super::boxdir;
use super::cgroup::CgroupManager;

/// Whether a process with this pid exists (it may belong to another user).
fn pid_alive(pid: i32) -> bool {
    // SAFETY: kill(2) with signal 0 only checks existence.
    pid > 0
        && (unsafe { libc::kill(pid, 0) } == 0
            || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH))
}

/// Owner pid of a `slot{N}-{pid}-...` name, whatever its slot.
fn owner_pid(name: &str) -> Option<i32> {
    let (slot, rest) = name.strip_prefix("slot")?.split_once('-')?;
    if slot.is_empty() || !slot.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    rest.split('-').next()?.parse().ok()
}

/// Removes box folders, cgroups and compiled programs of any slot left by a judge process
/// that died (kill -9, a crash). Any slot, not only the one being opened: the dead judge's
/// slot numbers may go to nodes with other box folders and cgroups, which would never sweep
/// them.
pub(super) fn remove_stale(box_root: &std::path::Path, cgroups: Option<&CgroupManager>) {
    let stale = |name: &str| owner_pid(name).is_some_and(|pid| !pid_alive(pid));
    let orphan_program =
        |name: &str| boxdir::program_dir_owner(name).is_some_and(|pid| !pid_alive(pid));
    if let Ok(dir) = std::fs::read_dir(box_root) {
        for e in dir.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if stale(&name) || orphan_program(&name) {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
    if let Some(m) = cgroups {
        for name in m.leaves() {
            if stale(&name) {
                let _ = m.open(&name).remove();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn program_dir_owner_parses_program_names() {
        let prefix = boxdir::program_dir_prefix();
        assert!(prefix.ends_with('-'));
        assert_eq!(
            boxdir::program_dir_owner(&format!("{prefix}a1B2c3")),
            Some(std::process::id() as i32)
        );
        assert_eq!(boxdir::program_dir_owner("program-Ab3dEf"), None);
        assert_eq!(boxdir::program_dir_owner("slot1-12-0"), None);
    }

    #[test]
    fn owner_pid_parses_slot_names() {
        assert_eq!(owner_pid("slot3-1234-0-7"), Some(1234));
        assert_eq!(owner_pid("slot3-1234-0"), Some(1234));
        assert_eq!(owner_pid("slot31-1234-0.root"), Some(1234));
        assert_eq!(owner_pid("slot-1234-0"), None);
        assert_eq!(owner_pid("slotx-1234-0"), None);
        assert_eq!(owner_pid("other"), None);
        assert!(pid_alive(std::process::id() as i32));
    }
}
