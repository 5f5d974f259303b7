//! The file step of a test run, for packages that name files (NOIP's `sudoku.in` /
//! `sudoku.out`, USACO's `bsudoku.in` / `bsudoku.out`): the test goes into the box under the
//! input file's name as well as on stdin, and the output file, when the program wrote one,
//! is collected and replaces stdout as the answer checked.
//!
//! The output file lives in the box's own file system like stdout, so the memory and inode
//! bounds already charge it; its size is bounded by the output limit (`RLIMIT_FSIZE` is the
//! limit plus one byte): a file past the limit is `OutputLimit`, as stdout past it is.

use std::path::Path;

use crate::problem::FileIo;
use crate::sandbox::{RunReport, RunRequest, RunStatus};

/// Where the output file is collected to on the host, beside the judge's other temporaries.
pub struct Collected {
    dir: tempfile::TempDir,
}

/// The host name the output file is collected under (inside [`Collected`]'s folder).
const COLLECTED: &str = "output";

/// Adds the package's files to `request`: the test under the input file's name, and the
/// output file collected after the run. `Err` names a package file that would replace one
/// of the program's own files (the package's fault, reported as the judge's).
pub fn prepare(
    request: &mut RunRequest,
    io: &FileIo,
    input: &Path,
    host_tmp: &Path,
) -> Result<Option<Collected>, String> {
    for name in [&io.input, &io.output].into_iter().flatten() {
        if request.files.iter().any(|(f, _)| f == name) {
            return Err(format!(
                "the package's file {name:?} is one of the program's own files"
            ));
        }
    }
    if let Some(name) = &io.input {
        request.files.push((name.clone(), input.to_path_buf()));
    }
    let Some(name) = &io.output else {
        return Ok(None);
    };
    let dir = tempfile::Builder::new()
        .prefix("sudojudge-output-")
        .tempdir_in(host_tmp)
        .map_err(|e| format!("cannot make a folder in {}: {e}", host_tmp.display()))?;
    request
        .collect
        .push((name.clone(), dir.path().join(COLLECTED)));
    Ok(Some(Collected { dir }))
}

/// Takes the answer from the collected output file when the program wrote one: it replaces
/// stdout, and a file past `output_bytes` ends the run as `OutputLimit`.
pub fn take_output(
    report: &mut RunReport,
    collected: Option<Collected>,
    output_bytes: u64,
) -> Result<(), String> {
    let Some(collected) = collected else {
        return Ok(());
    };
    let path = collected.dir.path().join(COLLECTED);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    if bytes.len() as u64 > output_bytes {
        if report.status == RunStatus::Ok || report.status == RunStatus::RuntimeError {
            report.status = RunStatus::OutputLimit;
        }
        report.stdout.clear();
        return Ok(());
    }
    report.stdout = bytes;
    Ok(())
}
