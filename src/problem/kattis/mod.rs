//! Kattis / ICPC problem packages read as they are: `problem.yaml` (legacy, `2023-07-draft`,
//! `2025-09`), `data/sample/` and `data/secret/` with nested groups and their settings, the
//! statement in Markdown or LaTeX, the default output validator or the package's own.
//!
//! - [`meta`]: the keys of `problem.yaml`.
//! - [`data`]: the tests and each one's validator arguments.
//! - [`statement`]: the statement served.
//! - [`program`]: the output validator program, made one source file.
//! - [`timing`]: the time limit, given or derived from the accepted submissions.
//! - [`scoring`]: a scoring problem's test groups and their score rules.
//!
//! Every error names the file (and in `problem.yaml` the key) at fault; such a package is
//! never served.

pub mod data;
pub mod meta;
pub mod program;
pub mod scoring;
pub mod statement;
pub mod timing;

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::validator::{DefaultFlags, Protocol, ValidatorProgram};
use super::{OutputValidator, Problem, ProblemError};
pub use meta::{Timing, Version};
pub use timing::TimeLimitSource;

/// Memory limit when `limits.memory` is not given (problemtools' system default), MiB.
pub const DEFAULT_MEMORY_MB: u64 = 1024;
/// Output limit when `limits.output` is not given, MiB.
pub const DEFAULT_OUTPUT_MB: u64 = 8;
/// CPU time of one validator call when `limits.validation_time` is not given, seconds.
pub const DEFAULT_VALIDATION_TIME_S: u64 = 60;
/// Memory of one validator call when `limits.validation_memory` is not given, MiB.
pub const DEFAULT_VALIDATION_MEMORY_MB: u64 = 1024;
/// Output of one validator call when `limits.validation_output` is not given, MiB.
pub const DEFAULT_VALIDATION_OUTPUT_MB: u64 = 8;

/// What a Kattis package adds to a [`Problem`].
#[derive(Debug, Clone, Serialize)]
pub struct KattisInfo {
    /// The format version, as `problem.yaml` names it.
    pub version: &'static str,
    /// How the time limit follows from the accepted submissions.
    #[serde(skip)]
    pub timing: Timing,
    /// Where the time limit came from.
    pub time_limit_source: TimeLimitSource,
    /// The PDF shipped beside a LaTeX statement.
    pub statement_pdf: Option<PathBuf>,
    /// The input validators (programs and `.ctd` scripts) in `input_validators/`.
    pub input_validators: Vec<PathBuf>,
    /// A scoring problem's groups and score rules; `None` for a pass-fail problem.
    #[serde(skip)]
    pub scoring: Option<scoring::Scoring>,
}

/// Whether `dir` holds a Kattis package (a `problem.yaml`).
pub fn is_package(dir: &Path) -> bool {
    dir.join("problem.yaml").is_file()
}

pub(crate) fn invalid(path: &Path, message: impl Into<String>) -> ProblemError {
    ProblemError::Invalid {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

pub(crate) fn read_err(path: &Path, source: std::io::Error) -> ProblemError {
    ProblemError::Read {
        path: path.to_path_buf(),
        source,
    }
}

/// Loads and checks the Kattis package in `dir` (named after the problem id).
pub fn load(dir: &Path) -> Result<Problem, ProblemError> {
    let yaml_path = dir.join("problem.yaml");
    let text = std::fs::read_to_string(&yaml_path).map_err(|e| read_err(&yaml_path, e))?;
    let meta = meta::parse(&text).map_err(|m| invalid(&yaml_path, m))?;
    let id = dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_string();
    if !super::is_valid_id(&id) {
        return Err(invalid(
            dir,
            format!("the folder name `{id}` is the problem id: lowercase letters, digits and `-`"),
        ));
    }
    if let Err(m) = DefaultFlags::parse(&meta.validator_flags) {
        if !meta.custom_validation {
            return Err(invalid(&yaml_path, format!("validator_flags: {m}")));
        }
    }
    let tests = data::list(dir, meta.version, &meta.validator_flags, meta.interactive)?;
    if !tests.iter().any(|t| t.name.starts_with("secret/")) {
        return Err(invalid(
            &dir.join("data/secret"),
            "no tests (NAME.in with NAME.ans)",
        ));
    }
    let validator = output_validator(dir, &meta)?;
    let scoring = if meta.scoring {
        Some(scoring::read(
            dir,
            meta.version,
            &meta.legacy_grading,
            &tests,
        )?)
    } else {
        None
    };
    if validator == OutputValidator::Default {
        for test in &tests {
            DefaultFlags::parse(&test.validator_args).map_err(|m| {
                invalid(
                    &test.input,
                    format!("the output validator flags of this test: {m}"),
                )
            })?;
        }
    }
    let title = meta.name.clone().unwrap_or_else(|| id.clone());
    let samples: Vec<_> = tests
        .iter()
        .filter(|t| t.name.starts_with("sample/"))
        .collect();
    let statement = statement::read(dir, &id, &title, &samples, meta.interactive)?;
    let (time_limit_ms, time_limit_source) = timing::limit_of(dir, &meta)?;
    let memory_limit_mb = meta.memory_mb.unwrap_or(DEFAULT_MEMORY_MB);
    let output_limit_mb = meta.output_mb.unwrap_or(DEFAULT_OUTPUT_MB);
    let data_hash = super::DataHash::compute(
        &id,
        &validator,
        [time_limit_ms, memory_limit_mb, output_limit_mb],
        &super::FileIo::default(),
        &tests,
    )?;
    let data_hash = match &scoring {
        // Infinite range ends are written `null`, each in its own place.
        Some(s) => data_hash.and(
            "scoring",
            &serde_json::to_vec(s).map_err(|e| invalid(dir, format!("the score rules: {e}")))?,
        ),
        None => data_hash,
    };
    Ok(Problem {
        id,
        title,
        time_limit_ms,
        memory_limit_mb,
        output_limit_mb,
        validator,
        gen_profile: None,
        statement: statement.markdown,
        tests,
        dir: dir.to_path_buf(),
        file_io: super::FileIo::default(),
        data_hash,
        kattis: Some(KattisInfo {
            version: meta.version.name(),
            timing: meta.timing,
            time_limit_source,
            statement_pdf: statement.pdf,
            input_validators: input_validators(dir)?,
            scoring,
        }),
    })
}

/// The folder of output validators the version uses, and the one it does not.
fn validator_folders(version: Version) -> (&'static str, &'static str) {
    match version {
        Version::Legacy => ("output_validators", "output_validator"),
        Version::Draft2023 | Version::V2025 => ("output_validator", "output_validators"),
    }
}

fn output_validator(dir: &Path, meta: &meta::Meta) -> Result<OutputValidator, ProblemError> {
    let (folder_name, other) = validator_folders(meta.version);
    let folder = dir.join(folder_name);
    if dir.join(other).exists() && !folder.exists() {
        return Err(invalid(
            &dir.join(other),
            format!(
                "format {} names this folder {folder_name}/",
                meta.version.name()
            ),
        ));
    }
    let custom = match meta.version {
        Version::Legacy => meta.custom_validation,
        _ => folder.exists(),
    };
    if !custom && !meta.interactive {
        return Ok(OutputValidator::Default);
    }
    if !folder.is_dir() {
        let what = if meta.interactive {
            "an interactive problem"
        } else {
            "validation: custom"
        };
        return Err(invalid(
            &dir.join("problem.yaml"),
            format!("{what}, but there is no {folder_name}/ folder"),
        ));
    }
    let path = program::program_in(&folder)?;
    let (language, source) = program::source_of(&path)?;
    Ok(OutputValidator::Program(ValidatorProgram {
        path,
        language: language.to_string(),
        source,
        protocol: if meta.interactive {
            Protocol::Interactive
        } else {
            Protocol::Kattis
        },
        time_limit_ms: meta.validation_time_s.unwrap_or(DEFAULT_VALIDATION_TIME_S) * 1000,
        memory_limit_mb: meta
            .validation_memory_mb
            .unwrap_or(DEFAULT_VALIDATION_MEMORY_MB),
        output_limit_mb: meta
            .validation_output_mb
            .unwrap_or(DEFAULT_VALIDATION_OUTPUT_MB),
    }))
}

/// The programs and `.ctd` scripts in `input_validators/` (2025-09: `input_validators/`
/// too; a single `input_validator/` is also read).
fn input_validators(dir: &Path) -> Result<Vec<PathBuf>, ProblemError> {
    let mut out = Vec::new();
    for name in ["input_validators", "input_validator"] {
        let folder = dir.join(name);
        if !folder.is_dir() {
            continue;
        }
        for e in std::fs::read_dir(&folder).map_err(|e| read_err(&folder, e))? {
            out.push(e.map_err(|e| read_err(&folder, e))?.path());
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests;
