//! Loading a package from disk: `problem.toml`, the statement and the test list.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{CheckerKind, OutputValidator, Problem, ProblemError, TestCase};

/// The keys of `problem.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProblemToml {
    id: String,
    title: String,
    time_limit_ms: u64,
    memory_limit_mb: u64,
    output_limit_mb: u64,
    checker: CheckerName,
    /// The file the test is also given as, in the program's working folder.
    input_file: Option<String>,
    /// The file the answer is read from when the program writes it.
    output_file: Option<String>,
    #[serde(default)]
    gen: GenToml,
    validator: Option<ValidatorToml>,
}

/// `checker`: a built-in Sudoku kind, the Kattis default validator, or a program of the
/// package's in one of two protocols.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum CheckerName {
    Sudoku,
    TargetSudoku,
    BinarySudoku,
    Default,
    Kattis,
    Testlib,
}

/// The optional `[validator]` table: the default validator's flags, or the program's
/// source and limits.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ValidatorToml {
    /// The program's source, relative to the package (`kattis` and `testlib`).
    source: Option<String>,
    /// Arguments for every test (the default validator's flags, or the program's).
    flags: Option<String>,
    time_limit_ms: Option<u64>,
    memory_limit_mb: Option<u64>,
    output_limit_mb: Option<u64>,
}

/// The optional `[gen]` table: how `sudojudge gen` makes `data/secret/`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct GenToml {
    /// A generator profile of the checker kind (`sudoku`: `classic` or `speed`).
    profile: Option<String>,
}

fn read_text(path: &Path) -> Result<String, ProblemError> {
    std::fs::read_to_string(path).map_err(|source| ProblemError::Read {
        path: path.to_path_buf(),
        source,
    })
}

fn invalid(path: &Path, message: impl Into<String>) -> ProblemError {
    ProblemError::Invalid {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

/// Whether `dir` holds a package: a `problem.toml` (this judge's own) or a `problem.yaml`
/// (a Kattis package).
pub fn is_package(dir: &Path) -> bool {
    dir.join("problem.toml").is_file() || super::kattis::is_package(dir)
}

/// Loads and checks the package in `dir` (the folder named after the problem id): a
/// `problem.toml` package, else a Kattis one.
pub fn load(dir: &Path) -> Result<Problem, ProblemError> {
    if !dir.join("problem.toml").is_file() && super::kattis::is_package(dir) {
        return super::kattis::load(dir);
    }
    let toml_path = dir.join("problem.toml");
    let meta: ProblemToml = toml::from_str(&read_text(&toml_path)?)
        .map_err(|e| invalid(&toml_path, e.message().to_string()))?;
    let folder = dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if meta.id != folder {
        return Err(invalid(
            &toml_path,
            format!("id `{}` differs from the folder name `{folder}`", meta.id),
        ));
    }
    if !super::is_valid_id(&meta.id) {
        return Err(invalid(
            &toml_path,
            format!("id `{}` must be lowercase letters, digits and `-`", meta.id),
        ));
    }
    for (key, value) in [
        ("time_limit_ms", meta.time_limit_ms),
        ("memory_limit_mb", meta.memory_limit_mb),
        ("output_limit_mb", meta.output_limit_mb),
    ] {
        if value == 0 {
            return Err(invalid(&toml_path, format!("{key} must be positive")));
        }
    }
    let file_io = super::FileIo {
        input: meta.input_file.clone(),
        output: meta.output_file.clone(),
    };
    for (key, name) in [
        ("input_file", &file_io.input),
        ("output_file", &file_io.output),
    ] {
        if let Some(why) = name.as_deref().and_then(super::file_io::name_problem) {
            return Err(invalid(&toml_path, format!("{key} {why}")));
        }
    }
    if file_io.input.is_some() && file_io.input == file_io.output {
        return Err(invalid(
            &toml_path,
            "input_file and output_file must differ",
        ));
    }
    let builtin = match meta.checker {
        CheckerName::Sudoku => Some(CheckerKind::Sudoku),
        CheckerName::TargetSudoku => Some(CheckerKind::TargetSudoku),
        CheckerName::BinarySudoku => Some(CheckerKind::BinarySudoku),
        CheckerName::Default | CheckerName::Kattis | CheckerName::Testlib => None,
    };
    let validator = match builtin {
        Some(kind) => {
            if meta.validator.is_some() {
                return Err(invalid(
                    &toml_path,
                    "[validator] is for the `default`, `kattis` and `testlib` checkers",
                ));
            }
            OutputValidator::Builtin(kind)
        }
        None => toml_validator(dir, &toml_path, meta.checker, meta.validator.as_ref())?,
    };
    let flags = meta
        .validator
        .as_ref()
        .and_then(|v| v.flags.as_deref())
        .map(super::validator::split_flags)
        .unwrap_or_default();
    if validator == OutputValidator::Default {
        super::validator::DefaultFlags::parse(&flags)
            .map_err(|m| invalid(&toml_path, format!("[validator] flags: {m}")))?;
    }
    if let (Some(profile), None) = (&meta.gen.profile, builtin) {
        return Err(invalid(
            &toml_path,
            format!("[gen] profile `{profile}`: only the built-in Sudoku kinds have generators"),
        ));
    }
    if let (Some(profile), Some(kind)) = (&meta.gen.profile, builtin) {
        let known = super::gen::profiles(kind);
        if !known.contains(&profile.as_str()) {
            return Err(invalid(
                &toml_path,
                format!(
                    "[gen] profile `{profile}` is not one of this checker kind's: {}",
                    known.join(", ")
                ),
            ));
        }
    }
    let statement = read_text(&dir.join("statement.md"))?;
    let mut tests = list_tests(dir, "sample")?;
    tests.extend(list_tests(dir, "secret")?);
    for test in &mut tests {
        test.validator_args = flags.clone();
    }
    if tests.is_empty() {
        return Err(invalid(
            &dir.join("data"),
            "no tests in data/sample or data/secret",
        ));
    }
    let data_hash = super::DataHash::compute(
        &meta.id,
        &validator,
        [
            meta.time_limit_ms,
            meta.memory_limit_mb,
            meta.output_limit_mb,
        ],
        &file_io,
        &tests,
    )?;
    Ok(Problem {
        data_hash,
        id: meta.id,
        title: meta.title,
        time_limit_ms: meta.time_limit_ms,
        memory_limit_mb: meta.memory_limit_mb,
        output_limit_mb: meta.output_limit_mb,
        validator,
        gen_profile: meta.gen.profile,
        statement,
        tests,
        dir: dir.to_path_buf(),
        file_io,
        kattis: None,
    })
}

/// The validator program (or the default validator) a `problem.toml` names.
fn toml_validator(
    dir: &Path,
    toml_path: &Path,
    checker: CheckerName,
    table: Option<&ValidatorToml>,
) -> Result<OutputValidator, ProblemError> {
    let protocol = match checker {
        CheckerName::Kattis => super::validator::Protocol::Kattis,
        CheckerName::Testlib => super::validator::Protocol::Testlib,
        _ => {
            if table.is_some_and(|t| t.source.is_some()) {
                return Err(invalid(
                    toml_path,
                    "[validator] source: the default validator has none",
                ));
            }
            return Ok(OutputValidator::Default);
        }
    };
    let source = table
        .and_then(|t| t.source.as_deref())
        .ok_or_else(|| invalid(toml_path, "[validator] source is required for this checker"))?;
    let rel = Path::new(source);
    if rel.is_absolute()
        || rel
            .components()
            .any(|c| !matches!(c, std::path::Component::Normal(_)))
    {
        return Err(invalid(
            toml_path,
            format!("[validator] source `{source}` must be a path inside the package"),
        ));
    }
    let path = dir.join(rel);
    let (language, code) = super::kattis::program::source_of(&path)?;
    let limit = |v: Option<u64>, key: &str, default: u64| match v {
        Some(0) => Err(invalid(
            toml_path,
            format!("[validator] {key} must be positive"),
        )),
        Some(v) => Ok(v),
        None => Ok(default),
    };
    let t = table.map_or((None, None, None), |t| {
        (t.time_limit_ms, t.memory_limit_mb, t.output_limit_mb)
    });
    Ok(OutputValidator::Program(
        super::validator::ValidatorProgram {
            path,
            language: language.to_string(),
            source: code,
            protocol,
            time_limit_ms: limit(
                t.0,
                "time_limit_ms",
                super::kattis::DEFAULT_VALIDATION_TIME_S * 1000,
            )?,
            memory_limit_mb: limit(
                t.1,
                "memory_limit_mb",
                super::kattis::DEFAULT_VALIDATION_MEMORY_MB,
            )?,
            output_limit_mb: limit(
                t.2,
                "output_limit_mb",
                super::kattis::DEFAULT_VALIDATION_OUTPUT_MB,
            )?,
        },
    ))
}

/// The tests of `data/<group>/`, sorted by name; a missing folder has none.
fn list_tests(dir: &Path, group: &str) -> Result<Vec<TestCase>, ProblemError> {
    let folder = dir.join("data").join(group);
    if !folder.exists() {
        return Ok(Vec::new());
    }
    let read_err = |source| ProblemError::Read {
        path: folder.clone(),
        source,
    };
    let mut inputs: Vec<(String, PathBuf)> = Vec::new();
    let mut answers: Vec<String> = Vec::new();
    for entry in std::fs::read_dir(&folder).map_err(read_err)? {
        let path = entry.map_err(read_err)?.path();
        let (Some(stem), Some(ext)) = (
            path.file_stem().and_then(|s| s.to_str()),
            path.extension().and_then(|s| s.to_str()),
        ) else {
            continue;
        };
        match ext {
            "in" => inputs.push((stem.to_string(), path.clone())),
            "ans" => answers.push(stem.to_string()),
            _ => {}
        }
    }
    if let Some(orphan) = answers
        .iter()
        .find(|a| !inputs.iter().any(|(stem, _)| stem == *a))
    {
        return Err(invalid(
            &folder.join(format!("{orphan}.ans")),
            "answer without an input file beside it",
        ));
    }
    inputs.sort();
    inputs
        .into_iter()
        .map(|(stem, input)| {
            let answer = input.with_extension("ans");
            if !answer.is_file() {
                return Err(invalid(&input, "input without a .ans file beside it"));
            }
            Ok(TestCase {
                name: format!("{group}/{stem}"),
                input,
                answer,
                validator_args: Vec::new(),
            })
        })
        .collect()
}

/// Loads every package under `problems_dir` (each sub-folder with a `problem.toml`), by id.
pub fn load_all(problems_dir: &Path) -> Result<Vec<Problem>, ProblemError> {
    if !problems_dir.is_dir() {
        return Err(ProblemError::NoProblemsFolder {
            dir: problems_dir.to_path_buf(),
        });
    }
    let read_err = |source| ProblemError::Read {
        path: problems_dir.to_path_buf(),
        source,
    };
    let mut dirs = Vec::new();
    for entry in std::fs::read_dir(problems_dir).map_err(read_err)? {
        let path = entry.map_err(read_err)?.path();
        if is_package(&path) {
            dirs.push(path);
        }
    }
    dirs.sort();
    dirs.iter().map(|d| load(d)).collect()
}

/// The ids of the packages in `problems_dir`, sorted (empty when it cannot be read).
pub fn ids(problems_dir: &Path) -> Vec<String> {
    let mut ids: Vec<String> = std::fs::read_dir(problems_dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| is_package(&e.path()))
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    ids.sort();
    ids
}

/// Loads the package of problem `id` from `problems_dir`, with a clear error for an unknown id.
pub fn find(problems_dir: &Path, id: &str) -> Result<Problem, ProblemError> {
    let unknown = || ProblemError::Unknown {
        id: id.to_string(),
        dir: problems_dir.to_path_buf(),
        known: ids(problems_dir),
    };
    if !super::is_valid_id(id) {
        return Err(unknown());
    }
    let dir = problems_dir.join(id);
    if !is_package(&dir) {
        if !problems_dir.is_dir() {
            return Err(ProblemError::NoProblemsFolder {
                dir: problems_dir.to_path_buf(),
            });
        }
        return Err(unknown());
    }
    load(&dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOML: &str = "id = \"demo\"\ntitle = \"Demo\"\ntime_limit_ms = 1000\n\
        memory_limit_mb = 256\noutput_limit_mb = 1\nchecker = \"binary-sudoku\"\n";

    /// A package `demo` with the given `problem.toml` and test files.
    fn package(toml: &str, files: &[&str]) -> tempfile::TempDir {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("demo");
        std::fs::create_dir_all(dir.join("data/sample")).unwrap();
        std::fs::create_dir_all(dir.join("data/secret")).unwrap();
        std::fs::write(dir.join("problem.toml"), toml).unwrap();
        std::fs::write(dir.join("statement.md"), "# Demo\n").unwrap();
        for f in files {
            std::fs::write(dir.join("data").join(f), "x\n").unwrap();
        }
        root
    }

    #[test]
    fn loads_tests_samples_first_then_by_name() {
        let root = package(
            TOML,
            &[
                "secret/b.in",
                "secret/b.ans",
                "secret/a.in",
                "secret/a.ans",
                "sample/z.in",
                "sample/z.ans",
                "secret/notes.txt",
            ],
        );
        let problem = load(&root.path().join("demo")).unwrap();
        let names: Vec<_> = problem.tests.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["sample/z", "secret/a", "secret/b"]);
        assert_eq!(
            problem.validator,
            OutputValidator::Builtin(CheckerKind::BinarySudoku)
        );
        assert_eq!(problem.time_limit_ms, 1000);
        assert_eq!(problem.gen_profile, None);
        assert_eq!(load_all(root.path()).unwrap().len(), 1);
        assert_eq!(find(root.path(), "demo").unwrap().id, "demo");
    }

    #[test]
    fn errors_name_the_file_at_fault() {
        let cases = [
            (
                TOML.replace("checker = \"binary-sudoku\"", "checker = \"chess\""),
                "problem.toml",
            ),
            (
                TOML.replace("id = \"demo\"", "id = \"other\""),
                "differs from the folder",
            ),
            (
                TOML.replace("time_limit_ms = 1000", "time_limit_ms = 0"),
                "must be positive",
            ),
            (
                TOML.replace("title = \"Demo\"\n", ""),
                "missing field `title`",
            ),
            (format!("{TOML}colour = 3\n"), "unknown field `colour`"),
            (
                format!("{TOML}[gen]\nprofile = \"speed\"\n"),
                "[gen] profile `speed` is not one of this checker kind's: default",
            ),
            (format!("{TOML}[gen]\nseed = 3\n"), "unknown field `seed`"),
        ];
        for (toml, needle) in cases {
            let root = package(&toml, &["sample/1.in", "sample/1.ans"]);
            let err = load(&root.path().join("demo")).unwrap_err().to_string();
            assert!(err.contains("problem.toml"), "{err}");
            assert!(err.contains(needle), "`{needle}` not in {err}");
        }
        let root = package(TOML, &["secret/1.in"]);
        let err = load(&root.path().join("demo")).unwrap_err().to_string();
        assert!(err.contains("1.in: input without a .ans file"), "{err}");
        let root = package(TOML, &["secret/1.in", "secret/1.ans", "secret/2.ans"]);
        let err = load(&root.path().join("demo")).unwrap_err().to_string();
        assert!(err.contains("2.ans: answer without an input file"), "{err}");
        let root = package(TOML, &[]);
        let err = load(&root.path().join("demo")).unwrap_err().to_string();
        assert!(err.contains("no tests"), "{err}");
    }

    #[test]
    fn unknown_or_unsafe_ids_are_unknown_problems() {
        let root = package(TOML, &["sample/1.in", "sample/1.ans"]);
        for id in ["nope", "../demo", "Demo", ""] {
            let err = find(root.path(), id).unwrap_err();
            assert!(matches!(err, ProblemError::Unknown { .. }), "{id}: {err}");
        }
    }
}
