//! A class folder to students: each file is a student (`alice.cpp`), each subfolder is a
//! student holding one source (`alice/main.py`, or an LMS export folder such as
//! `Alice Smith_12345_assignsubmission_file_/sol.cpp`: the student is the name up to the
//! first `_`). Anything that cannot be judged (no source, two sources, an unknown extension,
//! an unreadable, binary or oversized file) is still a student, with a plain reason.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::languages::LanguageTable;

use super::files::{self, Dir, Kind, Refused, Stat};
use super::lms;
use super::text::printable;

/// One student found in a class folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Student {
    /// The student's name: the file's stem, or the folder's name up to the first `_`.
    pub name: String,
    /// The student's id in the LMS whose export this is (Moodle's participant id, Canvas's
    /// user id), when the entry's name follows one (see [`super::lms`]).
    pub id: Option<String>,
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
    #[error("cannot read {}: {source}", printable(&path.display().to_string()))]
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
        id: None,
        path,
        found: Found::Unusable { language, reason },
    }
}

fn lossy(name: &OsStr) -> String {
    name.to_string_lossy().into_owned()
}

fn hidden(name: &OsStr) -> bool {
    name.as_bytes().first() == Some(&b'.')
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

/// One entry of a folder, with its own `lstat`.
struct Entry {
    name: OsString,
    stat: Stat,
}

/// The entries of `dir` that may be students' (not hidden, not the grade's own files).
fn entries(dir: &Dir, skip: &[(u64, u64)]) -> std::io::Result<Vec<Entry>> {
    let mut out = Vec::new();
    for name in dir.entries()? {
        if hidden(&name) {
            continue;
        }
        let stat = match dir.stat(&name) {
            Ok(stat) => stat,
            // Gone since the listing: nobody's.
            Err(e) if e.raw_os_error() == Some(libc::ENOENT) => continue,
            Err(e) => return Err(e),
        };
        if stat.kind == Kind::File && skip.contains(&stat.id) {
            continue;
        }
        out.push(Entry { name, stat });
    }
    Ok(out)
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

    /// Device and inode of the files never taken for a student (those that exist now).
    fn skipped_ids(&self) -> Vec<(u64, u64)> {
        self.skip
            .iter()
            .filter_map(|p| std::fs::metadata(p).ok())
            .map(|m| (m.dev(), m.ino()))
            .collect()
    }

    fn language(&self, path: &Path) -> Option<String> {
        self.languages.guess(path).map(|l| l.id.clone())
    }

    /// The row of a file that was not read.
    fn refused(&self, name: String, path: PathBuf, refused: Refused) -> Student {
        let language = self.language(&path).unwrap_or_default();
        unusable(name, path, language, refused.to_string())
    }

    /// One source file, from its `lstat` and a reader: a known extension, a regular file
    /// (a link or a special file is never opened), not too large, text.
    fn source(
        &self,
        name: String,
        path: PathBuf,
        stat: Stat,
        read: impl FnOnce(u64) -> Result<Vec<u8>, Refused>,
    ) -> Student {
        match stat.kind {
            Kind::File => {}
            Kind::Link => return self.refused(name, path, Refused::Link),
            other => return self.refused(name, path, Refused::NotRegular(other)),
        }
        let Some(language) = self.language(&path) else {
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
        let bytes = match read(self.max_source_bytes) {
            Ok(bytes) => bytes,
            Err(refused) => return unusable(name, path, language, refused.to_string()),
        };
        if bytes.trim_ascii().is_empty() {
            return unusable(name, path, language, "empty file".into());
        }
        match String::from_utf8(bytes) {
            Ok(text) if !text.contains('\0') => Student {
                name,
                id: None,
                path,
                found: Found::Source { language, text },
            },
            _ => unusable(name, path, language, "binary file, not source text".into()),
        }
    }

    /// A student's subfolder `entry` of the class folder `class` (at `class_path`): exactly
    /// one source expected at its top level. The subfolder is opened without following a
    /// link and listed through its own descriptor.
    fn folder(
        &self,
        class: &Dir,
        class_path: &Path,
        entry: &Entry,
        skip: &[(u64, u64)],
    ) -> Student {
        let dir_path = class_path.join(&entry.name);
        let name = student_of_folder(&lossy(&entry.name));
        let cannot =
            |reason: String| unusable(name.clone(), dir_path.clone(), String::new(), reason);
        let dir = match class.open_dir(&entry.name) {
            Ok(dir) => dir,
            Err(Refused::Link) => return cannot(Refused::Link.to_string()),
            Err(e) => return cannot(format!("cannot read the folder: {e}")),
        };
        let files = match entries(&dir, skip) {
            Ok(files) => files,
            Err(e) => return cannot(format!("cannot read the folder: {e}")),
        };
        let source_at = |file: &Entry| {
            self.source(name.clone(), dir_path.join(&file.name), file.stat, |max| {
                dir.read_file(&file.name, max)
            })
        };
        let sources: Vec<&Entry> = files
            .iter()
            .filter(|e| self.languages.guess(Path::new(&e.name)).is_some())
            .collect();
        let names = |list: &mut dyn Iterator<Item = &Entry>| {
            list.map(|e| lossy(&e.name)).collect::<Vec<_>>().join(", ")
        };
        match sources.as_slice() {
            [one] => source_at(one),
            [] => match files.as_slice() {
                [] => cannot("no source: the folder is empty".to_string()),
                [only] if only.stat.kind != Kind::Dir => source_at(only),
                others => cannot(format!(
                    "no source in the folder (found {}); known: {}",
                    names(&mut others.iter()),
                    self.known_extensions()
                )),
            },
            many => cannot(format!(
                "{} sources ({}): hand in one",
                many.len(),
                names(&mut many.iter().copied())
            )),
        }
    }

    /// The students of one PATH: a file is one student, a folder holds one per entry. A
    /// folder PATH is the teacher's and may be a link; everything under it is the
    /// students', and no link there is followed. A file PATH is a student's file: a link
    /// is not followed either.
    pub fn discover(&self, path: &Path) -> Result<Vec<Student>, DiscoverError> {
        let read = |source| DiscoverError::Read {
            path: path.to_path_buf(),
            source,
        };
        let meta = std::fs::metadata(path).map_err(read)?;
        if !meta.is_dir() {
            let lstat = std::fs::symlink_metadata(path).map_err(read)?;
            let stat = Stat::from_metadata(&lstat);
            let student = self.source(student_of_file(path), path.to_path_buf(), stat, |max| {
                files::read_path(path, max, false)
            });
            return Ok(vec![student]);
        }
        let class = Dir::open(path).map_err(read)?;
        let skip = self.skipped_ids();
        let mut students = Vec::new();
        let all = entries(&class, &skip).map_err(read)?;
        let named: Vec<Option<lms::Named>> =
            all.iter().map(|e| lms::parse(&lossy(&e.name))).collect();
        for (entry, lms_name) in all.iter().zip(&named) {
            // Moodle's online-text folder is not the submission: left out when the student
            // has another entry (their files), else it is their row (saying what it holds).
            if let Some(n) = lms_name
                .as_ref()
                .filter(|n| n.plugin.as_deref() == Some("onlinetext"))
            {
                let other = named.iter().flatten().any(|m| {
                    m.id == n.id && m.lms == n.lms && m.plugin.as_deref() != Some("onlinetext")
                });
                if other {
                    continue;
                }
            }
            let entry_path = path.join(&entry.name);
            let before = students.len();
            match entry.stat.kind {
                Kind::Dir => students.push(self.folder(&class, path, entry, &skip)),
                Kind::Link if self.language(&entry_path).is_none() => {
                    // A link to a file or to a folder: named as a folder would be.
                    let name = student_of_folder(&lossy(&entry.name));
                    students.push(self.refused(name, entry_path, Refused::Link));
                }
                _ => students.push(self.source(
                    student_of_file(&entry_path),
                    entry_path,
                    entry.stat,
                    |max| class.read_file(&entry.name, max),
                )),
            }
            if let (Some(n), Some(student)) = (lms_name, students.get_mut(before)) {
                student.name = n.student.clone();
                student.id = Some(n.id.clone());
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

/// `grade --language ID`: every student's source is compiled as the language `id` (a class
/// told to write C++98 in `.cpp` files), whatever its extension selects.
pub fn compile_all_as(students: &mut [Student], id: &str) {
    for student in students {
        if let Found::Source { language, .. } = &mut student.found {
            *language = id.to_string();
        }
    }
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
        std::fs::write(d.join("frank.kt"), "fun main() {}").unwrap();
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
        assert!(
            matches!(&by("alice").found, Found::Source { language, .. } if language == "cpp17")
        );
        assert!(matches!(&by("bob").found, Found::Source { language, .. } if language == "python"));
        assert!(
            matches!(&by("Carol Jones").found, Found::Source { language, .. } if language == "c17")
        );
        assert!(reason(by("dave")).contains("empty"), "{:?}", by("dave"));
        assert!(reason(by("erin")).contains("2 sources"), "{:?}", by("erin"));
        assert!(reason(by("frank")).contains(".kt"), "{:?}", by("frank"));
        assert!(reason(by("gina")).contains("binary"), "{:?}", by("gina"));
        assert!(reason(by("hal")).contains("too large"), "{:?}", by("hal"));
        assert!(
            reason(by("ivy")).contains("symbolic link"),
            "{:?}",
            by("ivy")
        );
    }

    #[test]
    fn no_link_is_followed_under_a_class_folder() {
        let dir = tempfile::tempdir().unwrap();
        let class = dir.path().join("class");
        std::fs::create_dir(&class).unwrap();
        let secret = dir.path().join("secret");
        std::fs::create_dir(&secret).unwrap();
        std::fs::write(secret.join("answers-name.c"), "int main(){}").unwrap();
        std::fs::write(class.join("alice.c"), "int main(){return 0;}").unwrap();
        let link = |to: &Path, at: &str| std::os::unix::fs::symlink(to, class.join(at)).unwrap();
        link(&class.join("alice.c"), "mallory.c");
        link(&secret, "eve");
        link(&secret, "Zed Q_1_assignsubmission_file_");
        std::fs::create_dir(class.join("frank")).unwrap();
        std::os::unix::fs::symlink(class.join("alice.c"), class.join("frank/main.c")).unwrap();
        std::fs::create_dir(class.join("gus")).unwrap();
        std::os::unix::fs::symlink(&secret, class.join("gus/sub")).unwrap();
        std::fs::write(class.join("gus/notes.txt"), "x").unwrap();
        let students = options()
            .discover_all(std::slice::from_ref(&class))
            .unwrap();
        let names: Vec<&str> = students.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["Zed Q", "alice", "eve", "frank", "gus", "mallory"]);
        let by = |n: &str| students.iter().find(|s| s.name == n).unwrap();
        assert!(matches!(&by("alice").found, Found::Source { .. }));
        for n in ["Zed Q", "eve", "frank", "mallory"] {
            assert!(reason(by(n)).contains("symbolic link"), "{:?}", by(n));
        }
        assert!(
            matches!(&by("mallory").found, Found::Unusable { language, .. } if language == "c17")
        );
        // A link in a student's folder is named by its own name, never its target's.
        assert!(
            reason(by("gus")).contains("notes.txt, sub"),
            "{:?}",
            by("gus")
        );
        for s in &students {
            assert!(!reason(s).contains("answers-name"), "{s:?}");
        }
        // A file PATH that is a link is a student's file: not followed either.
        let alone = options().discover(&class.join("mallory.c")).unwrap();
        assert!(reason(&alone[0]).contains("symbolic link"), "{alone:?}");
        // A folder PATH is the teacher's: a link to it is followed.
        let via = dir.path().join("via");
        std::os::unix::fs::symlink(&class, &via).unwrap();
        assert_eq!(options().discover_all(&[via]).unwrap().len(), 6);
    }

    #[test]
    fn a_missing_path_stops_the_run() {
        assert!(options()
            .discover_all(&[PathBuf::from("/nonexistent/class")])
            .is_err());
    }
}
