//! A class folder to students: each file is a student (`alice.cpp`), each subfolder is a
//! student holding one source (`alice/main.py`, or an LMS export folder such as
//! `Alice Smith_12345_assignsubmission_file_/sol.cpp`: the student is the name up to the
//! first `_`). Anything that cannot be judged (no source, two sources, an unknown extension,
//! an unreadable, binary or oversized file) is still a student, with a plain reason.

use std::path::{Path, PathBuf};

use crate::languages::LanguageTable;

/// One student found in a class folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Student {
    /// The student's name: the file's stem, or the folder's name up to the first `_`.
    pub name: String,
    /// The source file, or the student's folder when no single source was found.
    pub path: PathBuf,
    /// What was found there.
    pub found: Found,
}

/// What a student handed in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// One readable source text in a known language.
    Source {
        /// Language id from the language table (by extension).
        language: String,
        /// The source, valid UTF-8 text with no NUL byte.
        text: String,
    },
    /// Nothing that can be judged: the reason, for the student's row.
    Unusable {
        /// The language of the file when its extension is known (else empty).
        language: String,
        /// Why the student cannot be judged, in plain words.
        reason: String,
    },
}

/// A PATH given on the command line that cannot be read at all (the run stops).
#[derive(Debug, thiserror::Error)]
pub enum DiscoverError {
    /// The path does not exist or its folder cannot be listed.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The path.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// What discovery needs to know: the languages, the largest source, and paths to skip
/// (the grade's own output files when they sit inside the class folder).
#[derive(Debug, Clone)]
pub struct DiscoverOptions {
    /// The configured languages (extensions).
    pub languages: LanguageTable,
    /// Largest source judged, in bytes (the daemon's `max_source_kib`).
    pub max_source_bytes: u64,
    /// Files never taken for a student.
    pub skip: Vec<PathBuf>,
}

fn unusable(name: String, path: PathBuf, language: String, reason: String) -> Student {
    Student {
        name,
        path,
        found: Found::Unusable { language, reason },
    }
}

fn listing(dir: &Path) -> Result<Vec<PathBuf>, std::io::Error> {
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        entries.push(entry?.path());
    }
    entries.sort();
    Ok(entries)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn hidden(path: &Path) -> bool {
    file_name(path).starts_with('.')
}

/// The student of a subfolder: its name up to the first `_`, trimmed (`Alice Smith_12345_...`
/// is `Alice Smith`); a folder starting with `_` keeps its whole name.
pub fn student_of_folder(folder: &str) -> String {
    match folder.split_once('_') {
        Some((name, _)) if !name.trim().is_empty() => name.trim().to_string(),
        _ => folder.trim().to_string(),
    }
}

fn student_of_file(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().trim().to_string())
        .unwrap_or_default()
}

impl DiscoverOptions {
    fn known_extensions(&self) -> String {
        let mut exts: Vec<String> = self
            .languages
            .iter()
            .flat_map(|l| l.extensions.iter().map(|e| format!(".{e}")))
            .collect();
        exts.sort();
        exts.join(" ")
    }

    fn skipped(&self, path: &Path) -> bool {
        let canonical = path.canonicalize().ok();
        self.skip
            .iter()
            .any(|s| s == path || (canonical.is_some() && s.canonicalize().ok() == canonical))
    }

    /// Reads one source file: known extension, a regular file, not too large, text.
    fn source(&self, name: String, path: PathBuf) -> Student {
        let Some(language) = self.languages.guess(&path).map(|l| l.id.clone()) else {
            let ext = path
                .extension()
                .map(|e| format!(".{}", e.to_string_lossy()))
                .unwrap_or_else(|| "no extension".into());
            let reason = format!(
                "unknown language ({ext}); known: {}",
                self.known_extensions()
            );
            return unusable(name, path, String::new(), reason);
        };
        let meta = match std::fs::metadata(&path) {
            Ok(meta) => meta,
            Err(e) => return unusable(name, path, language, format!("cannot read the file: {e}")),
        };
        if !meta.is_file() {
            return unusable(name, path, language, "not a regular file".into());
        }
        if meta.len() > self.max_source_bytes {
            let reason = format!(
                "file too large: {} bytes (limit {} KiB)",
                meta.len(),
                self.max_source_bytes / 1024
            );
            return unusable(name, path, language, reason);
        }
        let bytes = match read_at_most(&path, self.max_source_bytes) {
            Ok(bytes) => bytes,
            Err(e) => return unusable(name, path, language, format!("cannot read the file: {e}")),
        };
        if bytes.len() as u64 > self.max_source_bytes {
            let reason = format!(
                "file too large (limit {} KiB)",
                self.max_source_bytes / 1024
            );
            return unusable(name, path, language, reason);
        }
        if bytes.trim_ascii().is_empty() {
            return unusable(name, path, language, "empty file".into());
        }
        match String::from_utf8(bytes) {
            Ok(text) if !text.contains('\0') => Student {
                name,
                path,
                found: Found::Source { language, text },
            },
            _ => unusable(name, path, language, "binary file, not source text".into()),
        }
    }

    /// A student's subfolder: exactly one source expected at its top level.
    fn folder(&self, dir: PathBuf) -> Student {
        let name = student_of_folder(&file_name(&dir));
        let entries = match listing(&dir) {
            Ok(entries) => entries,
            Err(e) => {
                return unusable(
                    name,
                    dir,
                    String::new(),
                    format!("cannot read the folder: {e}"),
                )
            }
        };
        let files: Vec<PathBuf> = entries
            .into_iter()
            .filter(|p| !hidden(p) && !self.skipped(p))
            .collect();
        let sources: Vec<&PathBuf> = files
            .iter()
            .filter(|p| self.languages.guess(p).is_some())
            .collect();
        match sources.as_slice() {
            [one] => self.source(name, (*one).clone()),
            [] => {
                let reason = match files.as_slice() {
                    [] => "no source: the folder is empty".to_string(),
                    [only] if !only.is_dir() => return self.source(name, only.clone()),
                    others => format!(
                        "no source in the folder (found {}); known: {}",
                        others
                            .iter()
                            .map(|p| file_name(p))
                            .collect::<Vec<_>>()
                            .join(", "),
                        self.known_extensions()
                    ),
                };
                unusable(name, dir, String::new(), reason)
            }
            many => {
                let reason = format!(
                    "{} sources ({}): hand in one",
                    many.len(),
                    many.iter()
                        .map(|p| file_name(p))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                unusable(name, dir, String::new(), reason)
            }
        }
    }

    /// The students of one PATH: a file is one student, a folder holds one per entry.
    pub fn discover(&self, path: &Path) -> Result<Vec<Student>, DiscoverError> {
        let read = |source| DiscoverError::Read {
            path: path.to_path_buf(),
            source,
        };
        let meta = std::fs::metadata(path).map_err(read)?;
        if !meta.is_dir() {
            return Ok(vec![self.source(student_of_file(path), path.to_path_buf())]);
        }
        let mut students = Vec::new();
        for entry in listing(path).map_err(read)? {
            if hidden(&entry) || self.skipped(&entry) {
                continue;
            }
            if entry.is_dir() {
                students.push(self.folder(entry));
            } else {
                students.push(self.source(student_of_file(&entry), entry));
            }
        }
        Ok(students)
    }

    /// The students of every PATH, sorted by name then path.
    pub fn discover_all(&self, paths: &[PathBuf]) -> Result<Vec<Student>, DiscoverError> {
        let mut students = Vec::new();
        for path in paths {
            students.extend(self.discover(path)?);
        }
        students.sort_by(|a, b| (&a.name, &a.path).cmp(&(&b.name, &b.path)));
        Ok(students)
    }
}

/// Reads up to `max + 1` bytes, so a file growing after its size was read is still caught.
fn read_at_most(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(max.saturating_add(1))
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> DiscoverOptions {
        DiscoverOptions {
            languages: LanguageTable::from_config(&crate::config::Config::embedded().unwrap()),
            max_source_bytes: 1024,
            skip: Vec::new(),
        }
    }

    fn reason(s: &Student) -> &str {
        match &s.found {
            Found::Unusable { reason, .. } => reason,
            Found::Source { .. } => "",
        }
    }

    #[test]
    fn lms_folders_name_the_student_up_to_the_first_underscore() {
        assert_eq!(
            student_of_folder("Alice Smith_12345_assignsubmission_file_"),
            "Alice Smith"
        );
        assert_eq!(student_of_folder("bob"), "bob");
        assert_eq!(student_of_folder("_odd"), "_odd");
    }

    #[test]
    fn every_layout_and_odd_case_is_one_row() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("alice.cpp"), "int main(){}").unwrap();
        std::fs::create_dir(d.join("bob")).unwrap();
        std::fs::write(d.join("bob/main.py"), "print(1)").unwrap();
        std::fs::write(d.join("bob/README.txt"), "hi").unwrap();
        let lms = d.join("Carol Jones_77_assignsubmission_file_");
        std::fs::create_dir(&lms).unwrap();
        std::fs::write(lms.join("sol.c"), "int main(){}").unwrap();
        std::fs::create_dir(d.join("dave")).unwrap();
        std::fs::create_dir(d.join("erin")).unwrap();
        std::fs::write(d.join("erin/a.c"), "x").unwrap();
        std::fs::write(d.join("erin/b.rs"), "y").unwrap();
        std::fs::write(d.join("frank.java"), "class A {}").unwrap();
        std::fs::write(d.join("gina.c"), b"\x7fELF\0\0").unwrap();
        std::fs::write(d.join("hal.c"), "x".repeat(2000)).unwrap();
        std::os::unix::fs::symlink(d.join("nowhere.c"), d.join("ivy.c")).unwrap();
        std::fs::write(d.join(".hidden.c"), "x").unwrap();
        let students = options().discover_all(&[d.to_path_buf()]).unwrap();
        let names: Vec<&str> = students.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Carol Jones",
                "alice",
                "bob",
                "dave",
                "erin",
                "frank",
                "gina",
                "hal",
                "ivy"
            ]
        );
        let by = |n: &str| students.iter().find(|s| s.name == n).unwrap();
        assert!(matches!(&by("alice").found, Found::Source { language, .. } if language == "cpp"));
        assert!(matches!(&by("bob").found, Found::Source { language, .. } if language == "python"));
        assert!(
            matches!(&by("Carol Jones").found, Found::Source { language, .. } if language == "c")
        );
        assert!(reason(by("dave")).contains("empty"), "{:?}", by("dave"));
        assert!(reason(by("erin")).contains("2 sources"), "{:?}", by("erin"));
        assert!(reason(by("frank")).contains(".java"), "{:?}", by("frank"));
        assert!(reason(by("gina")).contains("binary"), "{:?}", by("gina"));
        assert!(reason(by("hal")).contains("too large"), "{:?}", by("hal"));
        assert!(reason(by("ivy")).contains("cannot read"), "{:?}", by("ivy"));
    }

    #[test]
    fn a_missing_path_stops_the_run() {
        assert!(options()
            .discover_all(&[PathBuf::from("/nonexistent/class")])
            .is_err());
    }
}
