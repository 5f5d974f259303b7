//! The re-run cache: beside `grades.csv` sits `grades.csv.cache.json`, holding every row of
//! the last run with its source's SHA-256. A student is judged again only when their file's
//! hash, path or language changed, when the problem package (limits, tests, checker) or the
//! language commands changed, or when their last verdict was a system error.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::judge::Verdict;
use crate::languages::LanguageTable;
use crate::problem::Problem;

use super::row::Row;

/// Bumped when the file's meaning changes; another version is ignored (everyone re-judged).
const VERSION: u32 = 1;

/// Why the cache could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    /// A package file could not be read for its hash.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The cache could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// The rows of the last run, with what they were judged against.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Cache {
    /// Format version (`VERSION`).
    pub version: u32,
    /// The problem id.
    pub problem: String,
    /// [`package_hash`] of the problem as judged.
    pub package: String,
    /// Every row of the last run.
    pub rows: Vec<Row>,
}

/// Lower-case hex of bytes.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of a source, in hex.
pub fn content_hash(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// SHA-256 over what a verdict depends on besides the source: the problem's limits, checker,
/// input and output files, every test's input and answer, and the language table's commands.
pub fn package_hash(problem: &Problem, languages: &LanguageTable) -> Result<String, CacheError> {
    let mut h = Sha256::new();
    let head = format!(
        "{}\n{}\n{}\n{}\n{:?}\n",
        problem.id,
        problem.time_limit_ms,
        problem.memory_limit_mb,
        problem.output_limit_mb,
        problem.validator.cache_label()
    );
    h.update(head.as_bytes());
    if !problem.file_io.is_empty() {
        h.update(format!("{:?}\n", problem.file_io).as_bytes());
    }
    for test in &problem.tests {
        for path in [&test.input, &test.answer] {
            let bytes = std::fs::read(path).map_err(|source| CacheError::Read {
                path: path.clone(),
                source,
            })?;
            h.update(format!("{}\n{}\n", test.name, bytes.len()).as_bytes());
            h.update(&bytes);
        }
    }
    for language in languages.iter() {
        h.update(format!("{language:?}\n").as_bytes());
    }
    Ok(hex(&h.finalize()))
}

/// The cache file beside a CSV: `grades.csv` -> `grades.csv.cache.json`.
pub fn cache_path(csv: &Path) -> PathBuf {
    let mut name = csv.as_os_str().to_owned();
    name.push(".cache.json");
    PathBuf::from(name)
}

impl Cache {
    /// The cache of the last run on `problem` as judged now: `None` when there is none, it
    /// cannot be parsed, or it was made for another problem, package or version.
    pub fn load(path: &Path, problem: &str, package: &str) -> Option<Cache> {
        let bytes = std::fs::read(path).ok()?;
        let cache: Cache = serde_json::from_slice(&bytes).ok()?;
        (cache.version == VERSION && cache.problem == problem && cache.package == package)
            .then_some(cache)
    }

    /// Whose grades the cache at `path` holds (its problem, or an assignment's owner name),
    /// whatever its package or version; `None` when there is no readable cache.
    pub fn owner(path: &Path) -> Option<String> {
        #[derive(Deserialize)]
        struct Head {
            problem: String,
        }
        let bytes = super::files::read_path(path, 256 << 20, false).ok()?;
        serde_json::from_slice::<Head>(&bytes)
            .ok()
            .map(|h| h.problem)
    }

    /// A cache of this run's rows.
    pub fn new(problem: &str, package: &str, rows: Vec<Row>) -> Cache {
        Cache {
            version: VERSION,
            problem: problem.to_string(),
            package: package.to_string(),
            rows,
        }
    }

    /// The last row of this student's file when it can be reused: same path, language and
    /// content, and a verdict that is the submission's (not `SE`, not `-`).
    pub fn reuse(&self, student: &str, file: &str, language: &str, hash: &str) -> Option<Row> {
        self.rows
            .iter()
            .find(|r| {
                r.student == student
                    && r.file == file
                    && r.language == language
                    && r.hash == hash
                    && !r.hash.is_empty()
                    && r.report.is_some()
                    && r.verdict.is_some_and(|v| v != Verdict::SE)
            })
            .map(|r| Row {
                cached: true,
                ..r.clone()
            })
    }

    /// Writes the cache (to a temporary file first, so a crash never leaves half of it).
    pub fn save(&self, path: &Path) -> Result<(), CacheError> {
        let write = |source| CacheError::Write {
            path: path.to_path_buf(),
            source,
        };
        let json = serde_json::to_vec(self).map_err(|e| write(std::io::Error::other(e)))?;
        super::csvfile::write_atomically(path, &json).map_err(write)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::{CompileInfo, JudgeReport};

    fn row(student: &str, hash: &str, verdict: Verdict) -> Row {
        let mut row = crate::grade::row::test_row(student, Some(verdict), 100);
        row.hash = hash.into();
        row.report = Some(JudgeReport::without_tests(
            "p",
            "c",
            verdict,
            CompileInfo {
                ok: true,
                log: String::new(),
                cached: false,
            },
            None,
        ));
        row
    }

    #[test]
    fn only_unchanged_non_system_error_rows_are_reused() {
        let dir = tempfile::tempdir().unwrap();
        let path = cache_path(&dir.path().join("grades.csv"));
        assert!(path.ends_with("grades.csv.cache.json"));
        let rows = vec![row("a", "h1", Verdict::AC), row("b", "h2", Verdict::SE)];
        Cache::new("p", "pkg", rows).save(&path).unwrap();
        assert!(Cache::load(&path, "p", "other package").is_none());
        assert!(Cache::load(&path, "q", "pkg").is_none());
        let cache = Cache::load(&path, "p", "pkg").unwrap();
        let hit = cache.reuse("a", "class/a.c", "c", "h1").unwrap();
        assert!(hit.cached);
        assert!(cache.reuse("a", "class/a.c", "c", "changed").is_none());
        assert!(cache.reuse("a", "class/a.c", "cpp", "h1").is_none());
        assert!(
            cache.reuse("b", "class/b.c", "c", "h2").is_none(),
            "SE is re-judged"
        );
    }

    #[test]
    fn hashes_are_sha256_hex() {
        assert_eq!(
            content_hash(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
