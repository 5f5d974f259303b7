//! A Kattis package's test data: `data/sample/` and `data/secret/` with `NAME.in` and
//! `NAME.ans`, nested groups, and the group settings (`testdata.yaml`, or `test_group.yaml`
//! in 2025-09) their descendants inherit: the output validator's flags.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_norway::Value;

use super::super::{ProblemError, TestCase};
use super::meta::Version;
use super::{invalid, read_err};

/// Deepest folder nesting under `data/` read (groups rarely go past two).
const MAX_DEPTH: usize = 8;

/// The keys of a group's settings file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct GroupYaml {
    output_validator_flags: Option<String>,
    output_validator_args: Option<Value>,
    #[allow(dead_code)]
    input_validator_flags: Option<Value>,
    #[allow(dead_code)]
    input_validator_args: Option<Value>,
    args: Option<Value>,
    #[allow(dead_code)]
    full_feedback: Option<bool>,
    // Scoring keys: read and left alone (pass-fail problems only).
    #[allow(dead_code)]
    grading: Option<Value>,
    #[allow(dead_code)]
    grader_flags: Option<Value>,
    #[allow(dead_code)]
    on_reject: Option<Value>,
    #[allow(dead_code)]
    accept_score: Option<Value>,
    #[allow(dead_code)]
    reject_score: Option<Value>,
    #[allow(dead_code)]
    range: Option<Value>,
    #[allow(dead_code)]
    max_score: Option<Value>,
    #[allow(dead_code)]
    score_aggregation: Option<Value>,
    #[allow(dead_code)]
    require_pass: Option<Value>,
    #[allow(dead_code)]
    static_validation_score: Option<Value>,
    #[allow(dead_code)]
    static_validator_args: Option<Value>,
    #[allow(dead_code)]
    input_visualizer_args: Option<Value>,
    #[allow(dead_code)]
    output_visualizer_args: Option<Value>,
    // A test case's own `.yaml` (2025-09).
    #[allow(dead_code)]
    hint: Option<String>,
    #[allow(dead_code)]
    description: Option<String>,
}

/// The output validator's arguments of a settings file, if it sets them.
fn group_args(path: &Path, text: &str) -> Result<Option<Vec<String>>, ProblemError> {
    let y: GroupYaml = if text.trim().is_empty() {
        GroupYaml::default()
    } else {
        serde_norway::from_str(text).map_err(|e| invalid(path, e.to_string()))?
    };
    if let Some(args) = &y.args {
        if args.as_sequence().is_none_or(|s| !s.is_empty()) {
            return Err(invalid(
                path,
                "args: command-line arguments for submissions are not supported",
            ));
        }
    }
    let from_value = |v: &Value| -> Result<Vec<String>, ProblemError> {
        match v {
            Value::String(s) => Ok(super::super::validator::split_flags(s)),
            Value::Sequence(seq) => seq
                .iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s.clone()),
                    Value::Number(n) => Ok(n.to_string()),
                    _ => Err(invalid(path, "output_validator_args: strings expected")),
                })
                .collect(),
            _ => Err(invalid(
                path,
                "output_validator_args: a string or a sequence of strings expected",
            )),
        }
    };
    match (&y.output_validator_flags, &y.output_validator_args) {
        (Some(_), Some(_)) => Err(invalid(
            path,
            "both output_validator_flags and output_validator_args: give one",
        )),
        (Some(flags), None) => Ok(Some(super::super::validator::split_flags(flags))),
        (None, Some(v)) => from_value(v).map(Some),
        (None, None) => Ok(None),
    }
}

/// Every test of `data/sample/` then `data/secret/`, each group in name order; the problem's
/// `validator_flags` come first in each test's validator arguments.
pub fn list(
    dir: &Path,
    version: Version,
    problem_flags: &[String],
    interactive: bool,
) -> Result<Vec<TestCase>, ProblemError> {
    let data = dir.join("data");
    let root_settings = data.join(settings_file(version));
    let root_args = if root_settings.is_file() {
        let text =
            std::fs::read_to_string(&root_settings).map_err(|e| read_err(&root_settings, e))?;
        group_args(&root_settings, &text)?
    } else {
        None
    };
    let mut tests = Vec::new();
    for group in ["sample", "secret"] {
        let folder = data.join(group);
        if !folder.is_dir() {
            continue;
        }
        let mut found = Vec::new();
        let at = Walk {
            version,
            interactive,
        };
        walk(&folder, group, at, root_args.clone(), 0, &mut found)?;
        found.sort_by(|a, b| a.name.cmp(&b.name));
        tests.extend(found);
    }
    if !data.join("secret").is_dir() {
        return Err(invalid(
            &data.join("secret"),
            "missing: the format requires data/secret/",
        ));
    }
    for test in &mut tests {
        let mut args = problem_flags.to_vec();
        args.append(&mut test.validator_args);
        test.validator_args = args;
    }
    Ok(tests)
}

fn settings_file(version: Version) -> &'static str {
    match version {
        Version::V2025 => "test_group.yaml",
        Version::Legacy | Version::Draft2023 => "testdata.yaml",
    }
}

/// What every folder of one package's data is read with.
#[derive(Clone, Copy)]
struct Walk {
    version: Version,
    interactive: bool,
}

fn walk(
    folder: &Path,
    name: &str,
    at: Walk,
    inherited: Option<Vec<String>>,
    depth: usize,
    out: &mut Vec<TestCase>,
) -> Result<(), ProblemError> {
    if depth > MAX_DEPTH {
        return Err(invalid(
            folder,
            format!("nested deeper than {MAX_DEPTH} folders"),
        ));
    }
    let version = at.version;
    let other = match version {
        Version::V2025 => "testdata.yaml",
        _ => "test_group.yaml",
    };
    if folder.join(other).exists() {
        return Err(invalid(
            &folder.join(other),
            format!(
                "format {} names this file {}",
                version.name(),
                settings_file(version)
            ),
        ));
    }
    let settings = folder.join(settings_file(version));
    let args = if settings.is_file() {
        let text = std::fs::read_to_string(&settings).map_err(|e| read_err(&settings, e))?;
        group_args(&settings, &text)?.or(inherited)
    } else {
        inherited
    };
    let mut entries: Vec<PathBuf> = Vec::new();
    for entry in std::fs::read_dir(folder).map_err(|e| read_err(folder, e))? {
        entries.push(entry.map_err(|e| read_err(folder, e))?.path());
    }
    entries.sort();
    for path in &entries {
        let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if file_name.ends_with(".files") {
                return Err(invalid(path, "input files (.files) are not supported"));
            }
            let child = format!("{name}/{file_name}");
            walk(path, &child, at, args.clone(), depth + 1, out)?;
            continue;
        }
        let Some((stem, ext)) = file_name.rsplit_once('.') else {
            continue;
        };
        match ext {
            "in" => {
                let answer = path.with_extension("ans");
                if !answer.is_file() {
                    return Err(invalid(path, "input without a .ans file beside it"));
                }
                let own = path.with_extension("yaml");
                let mut test_args = args.clone();
                if own.is_file() {
                    let text = std::fs::read_to_string(&own).map_err(|e| read_err(&own, e))?;
                    if let Some(a) = group_args(&own, &text)? {
                        test_args = Some(a);
                    }
                }
                out.push(TestCase {
                    name: format!("{name}/{stem}"),
                    input: path.clone(),
                    answer,
                    validator_args: test_args.unwrap_or_default(),
                });
            }
            "ans" if !path.with_extension("in").is_file() => {
                return Err(invalid(path, "answer without an input file beside it"));
            }
            // A sample interaction of an interactive problem, shown in the statement.
            "interaction" if at.interactive => {}
            "interaction" => {
                return Err(invalid(
                    path,
                    "only an interactive problem (type: interactive) has .interaction files",
                ));
            }
            _ => {}
        }
    }
    Ok(())
}
