//! [`DataHash`]: a content hash of everything in a package that can change a verdict, so
//! nodes that share one database can tell whether they judge with the same data.
//!
//! What goes in, in this order (each field framed by its name and length, so no two
//! packages can frame to the same bytes): a format tag, the problem id, the checker kind,
//! the CPU time, memory and output limits, the input and output file names when the package
//! names them (left out when it names none, so such packages keep their hash), then every test by name (sorted, whatever order
//! the folder lists them in) with the SHA-256 of its input and of its answer. What stays
//! out: the title and statement (they change no verdict), the generator profile (it only
//! says how `gen` made the data, which is hashed itself), and the files' times and modes.
//! A Kattis scoring problem's groups and score rules are folded in after ([`DataHash::and`]),
//! so a changed `accept_score`, `range`, `grader_flags` or `on_reject` is changed data.

use std::fmt;
use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::{FileIo, OutputValidator, ProblemError, TestCase};

/// Version of the framing: a change to what is hashed changes this tag, and so every hash.
const FORMAT: &str = "sudojudge-package-data v1";

/// SHA-256 of a package's verdict-relevant data ([module docs](self)); shown as 64
/// lowercase hex digits.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct DataHash([u8; 32]);

impl DataHash {
    /// The hash of a package with these limits, checker and tests (files read now).
    pub fn compute(
        id: &str,
        validator: &OutputValidator,
        limits: [u64; 3],
        file_io: &FileIo,
        tests: &[TestCase],
    ) -> Result<DataHash, ProblemError> {
        let mut h = Sha256::new();
        field(&mut h, "format", FORMAT.as_bytes());
        field(&mut h, "id", id.as_bytes());
        field(&mut h, "checker", &validator.hash_identity());
        for (name, value) in ["time_limit_ms", "memory_limit_mb", "output_limit_mb"]
            .into_iter()
            .zip(limits)
        {
            field(&mut h, name, &value.to_be_bytes());
        }
        for (name, value) in [
            ("input_file", &file_io.input),
            ("output_file", &file_io.output),
        ] {
            if let Some(value) = value {
                field(&mut h, name, value.as_bytes());
            }
        }
        let mut sorted: Vec<&TestCase> = tests.iter().collect();
        sorted.sort_by(|a, b| a.name.cmp(&b.name));
        field(&mut h, "tests", &(sorted.len() as u64).to_be_bytes());
        for test in sorted {
            field(&mut h, "test", test.name.as_bytes());
            field(&mut h, "input", &file_digest(&test.input)?);
            field(&mut h, "answer", &file_digest(&test.answer)?);
            if !test.validator_args.is_empty() {
                field(&mut h, "args", test.validator_args.join("\0").as_bytes());
            }
        }
        Ok(DataHash(h.finalize().into()))
    }

    /// This hash with one more field folded in: a scoring problem's groups and score rules
    /// (what `testdata.yaml`'s `accept_score`, `range`, `grader_flags`, `on_reject` ...
    /// decide), which a pass-fail package has none of and so keeps its hash.
    pub fn and(self, name: &str, value: &[u8]) -> DataHash {
        let mut h = Sha256::new();
        field(&mut h, "format", FORMAT.as_bytes());
        field(&mut h, "hash", &self.0);
        field(&mut h, name, value);
        DataHash(h.finalize().into())
    }

    /// Whether a hash stored as hex (a submission's `submitted_data_hash`) names other data;
    /// `None` (a submission older than the hashes) differs from nothing.
    pub fn differs_from(&self, stored: Option<&str>) -> bool {
        stored.is_some_and(|hex| !hex.eq_ignore_ascii_case(&self.to_hex()))
    }

    /// The hash as 64 lowercase hex digits.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }
}

impl fmt::Display for DataHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for DataHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DataHash({})", self.to_hex())
    }
}

impl serde::Serialize for DataHash {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

fn field(h: &mut Sha256, name: &str, value: &[u8]) {
    h.update(name.as_bytes());
    h.update([0]);
    h.update((value.len() as u64).to_be_bytes());
    h.update(value);
}

/// SHA-256 of a file, read in chunks (test files run to megabytes).
fn file_digest(path: &Path) -> Result<[u8; 32], ProblemError> {
    let read_err = |source| ProblemError::Read {
        path: path.to_path_buf(),
        source,
    };
    let mut file = std::fs::File::open(path).map_err(read_err)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = file.read(&mut buf).map_err(read_err)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(h.finalize().into())
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::super::load;

    /// A copy of the bundled `binary-sudoku` package in a temporary folder, its files
    /// written in `order` (so folder listing order differs between copies).
    fn copy_package(reverse: bool) -> (tempfile::TempDir, PathBuf) {
        let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("problems/binary-sudoku");
        let tmp = tempfile::tempdir().unwrap();
        let dst = tmp.path().join("binary-sudoku");
        let mut files = Vec::new();
        for rel in ["problem.toml", "statement.md"] {
            files.push(PathBuf::from(rel));
        }
        for group in ["sample", "secret"] {
            let dir = src.join("data").join(group);
            for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                files.push(PathBuf::from("data").join(group).join(e.file_name()));
            }
        }
        files.sort();
        if reverse {
            files.reverse();
        }
        for rel in files {
            let to = dst.join(&rel);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(src.join(&rel), &to).unwrap();
        }
        (tmp, dst)
    }

    fn hash_of(dir: &std::path::Path) -> String {
        load(dir).unwrap().data_hash.to_hex()
    }

    #[test]
    fn the_same_package_hashes_the_same_across_loads_and_orders() {
        let (_a, a) = copy_package(false);
        let (_b, b) = copy_package(true);
        let first = hash_of(&a);
        assert_eq!(first.len(), 64);
        assert_eq!(first, hash_of(&a));
        assert_eq!(first, hash_of(&b));
        let bundled = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("problems/binary-sudoku");
        assert_eq!(first, hash_of(&bundled));
        // The statement and the title change no verdict.
        let toml = std::fs::read_to_string(a.join("problem.toml")).unwrap();
        let retitled = toml.replacen("title = \"", "title = \"Renamed ", 1);
        assert_ne!(toml, retitled);
        std::fs::write(a.join("problem.toml"), retitled).unwrap();
        std::fs::write(a.join("statement.md"), "another statement").unwrap();
        assert_eq!(first, hash_of(&a));
    }

    #[test]
    fn stored_hashes_compare_as_hex() {
        let (_a, a) = copy_package(false);
        let hash = load(&a).unwrap().data_hash;
        assert!(!hash.differs_from(None));
        assert!(!hash.differs_from(Some(&hash.to_hex())));
        assert!(!hash.differs_from(Some(&hash.to_hex().to_uppercase())));
        assert!(hash.differs_from(Some(&super::DataHash::default().to_hex())));
        assert!(hash.differs_from(Some("")));
    }

    #[test]
    fn one_byte_of_any_test_file_changes_the_hash() {
        let (_a, a) = copy_package(false);
        let before = hash_of(&a);
        let problem = load(&a).unwrap();
        let mut seen = std::collections::BTreeSet::new();
        for test in &problem.tests {
            for file in [&test.input, &test.answer] {
                let bytes = std::fs::read(file).unwrap();
                let mut changed = bytes.clone();
                let last = changed.len() - 1;
                changed[last] ^= 1;
                std::fs::write(file, &changed).unwrap();
                let after = hash_of(&a);
                assert_ne!(before, after, "{} changed", file.display());
                assert!(seen.insert(after), "two changes gave one hash");
                std::fs::write(file, &bytes).unwrap();
            }
        }
        assert_eq!(before, hash_of(&a));
        // A test renamed (same bytes) is another test.
        let first = &problem.tests[0];
        std::fs::rename(&first.input, first.input.with_file_name("zz.in")).unwrap();
        std::fs::rename(&first.answer, first.answer.with_file_name("zz.ans")).unwrap();
        assert_ne!(before, hash_of(&a));
    }

    /// The cost a node pays at start: every bundled package loaded and hashed. Prints the
    /// figure (`-- --nocapture`); fails only if it is absurd (a read per byte, say).
    #[test]
    fn hashing_the_bundled_packages_is_cheap() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("problems");
        let problems = super::super::load_all(&dir).unwrap();
        let bytes: u64 = problems
            .iter()
            .flat_map(|p| p.tests.iter())
            .flat_map(|t| [&t.input, &t.answer])
            .map(|f| std::fs::metadata(f).unwrap().len())
            .sum();
        let started = std::time::Instant::now();
        for p in &problems {
            let limits = [p.time_limit_ms, p.memory_limit_mb, p.output_limit_mb];
            let again = super::DataHash::compute(&p.id, &p.validator, limits, &p.file_io, &p.tests)
                .unwrap();
            assert_eq!(again, p.data_hash);
        }
        let took = started.elapsed();
        println!(
            "hashed {} packages, {} files, {bytes} bytes in {took:?}",
            problems.len(),
            problems.iter().map(|p| 2 * p.tests.len()).sum::<usize>()
        );
        assert!(took < std::time::Duration::from_secs(5), "{took:?}");
    }

    #[test]
    fn a_changed_limit_or_checker_changes_the_hash() {
        let (_a, a) = copy_package(false);
        let before = hash_of(&a);
        let toml = std::fs::read_to_string(a.join("problem.toml")).unwrap();
        let problem = load(&a).unwrap();
        for (key, value) in [
            ("time_limit_ms", problem.time_limit_ms),
            ("memory_limit_mb", problem.memory_limit_mb),
            ("output_limit_mb", problem.output_limit_mb),
        ] {
            let from = format!("{key} = {value}");
            assert!(toml.contains(&from), "{key} in problem.toml");
            let changed = toml.replace(&from, &format!("{key} = {}", value + 1));
            std::fs::write(a.join("problem.toml"), changed).unwrap();
            assert_ne!(before, hash_of(&a), "{key}");
        }
        std::fs::write(a.join("problem.toml"), &toml).unwrap();
        assert_eq!(before, hash_of(&a));
        let other_kind = toml.replace("checker = \"binary-sudoku\"", "checker = \"target-sudoku\"");
        assert_ne!(toml, other_kind);
        std::fs::write(a.join("problem.toml"), other_kind).unwrap();
        assert_ne!(before, hash_of(&a));
        for (from, to) in [
            ("input_file = \"bsudoku.in\"", "input_file = \"other.in\""),
            (
                "output_file = \"bsudoku.out\"",
                "output_file = \"other.out\"",
            ),
            ("input_file = \"bsudoku.in\"", ""),
        ] {
            assert!(toml.contains(from), "{from} in problem.toml");
            std::fs::write(a.join("problem.toml"), toml.replace(from, to)).unwrap();
            assert_ne!(before, hash_of(&a), "{from} -> {to}");
        }
    }
}
