//! [`OutputValidator`]: what decides whether a submission's output is right, as a package
//! describes it. The code that runs each kind lives in [`crate::validators`] (in-process
//! ones) and `crate::judge::validate` (programs run in the sandbox); this is only the
//! description, so packages, hashes and the API can name it.

use std::path::PathBuf;

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::CheckerKind;

/// The output validator of a problem: one abstraction for every package, whether its
/// validator is built into the judge (the Sudoku problems) or comes with the package.
#[derive(Debug, Clone, PartialEq)]
pub enum OutputValidator {
    /// A Sudoku kind's own checker, built in (the bundled `problem.toml` packages).
    Builtin(CheckerKind),
    /// The Kattis format's default validator: token comparison, its flags in each test's
    /// `validator_args` (`case_sensitive`, `float_tolerance 1e-6`, ...).
    Default,
    /// A program shipped with the package, compiled once and run in a sandbox of its own.
    Program(ValidatorProgram),
}

/// How a validator program is called and how its exit code reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Protocol {
    /// The Kattis format's: `validator input answer feedback_dir [args]`, the submission's
    /// output on stdin; 42 accepted, 43 wrong answer, anything else a judging error;
    /// `judgemessage.txt` for the jury, `teammessage.txt` for the contestant.
    Kattis,
    /// The Kattis protocol of an interactive problem: `validator input answer feedback_dir
    /// [args]` with its stdin and stdout connected to the submission's stdout and stdin,
    /// each in a box of its own; the same exit codes and feedback files.
    Interactive,
    /// testlib's: `checker input output answer`; 0 accepted, 1 wrong answer, 2
    /// presentation error (wrong answer), 3 and anything else a judging error (7: points,
    /// not used by pass-fail problems: a judging error too).
    Testlib,
}

/// A validator program of a package: its source (local `#include "..."` files inlined,
/// so it compiles as one file through the compile cache) and how it is run.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidatorProgram {
    /// The file or folder it came from, named in every message about it.
    pub path: PathBuf,
    /// The language id of the language table (`c`, `cpp`, `python`).
    pub language: String,
    /// The source, one file.
    pub source: Vec<u8>,
    /// Its calling convention.
    pub protocol: Protocol,
    /// CPU time per call.
    pub time_limit_ms: u64,
    /// Memory per call.
    pub memory_limit_mb: u64,
    /// Output (stdout, stderr, each feedback file) per call.
    pub output_limit_mb: u64,
}

impl OutputValidator {
    /// The validator program of an interactive problem, which the submission talks to.
    pub fn interactive(&self) -> Option<&ValidatorProgram> {
        match self {
            OutputValidator::Program(p) if p.protocol == Protocol::Interactive => Some(p),
            _ => None,
        }
    }

    /// The name the API and `problem.toml` use (`sudoku`, `target-sudoku`, `binary-sudoku`,
    /// `default`, `kattis`, `testlib`; `interactive` for an interactive Kattis package).
    pub fn name(&self) -> &'static str {
        match self {
            OutputValidator::Builtin(kind) => kind.name(),
            OutputValidator::Default => "default",
            OutputValidator::Program(p) => match p.protocol {
                Protocol::Kattis => "kattis",
                Protocol::Interactive => "interactive",
                Protocol::Testlib => "testlib",
            },
        }
    }

    /// The built-in Sudoku kind, for the commands that only those have (`solve`, `gen`,
    /// the reference answers of `verify`).
    pub fn builtin(&self) -> Option<CheckerKind> {
        match self {
            OutputValidator::Builtin(kind) => Some(*kind),
            _ => None,
        }
    }

    /// How the grade cache's key names this validator (a built-in kind as it always has).
    pub fn cache_label(&self) -> String {
        match self {
            OutputValidator::Builtin(kind) => format!("{kind:?}"),
            _ => format!("validator {}", hex::encode(self.hash_identity())),
        }
    }

    /// The bytes that stand for this validator in the package's data hash: a built-in
    /// kind is its name (so the bundled packages keep the hashes they had); a program is
    /// its protocol, language, limits and the SHA-256 of its source.
    pub fn hash_identity(&self) -> Vec<u8> {
        match self {
            OutputValidator::Builtin(kind) => kind.name().as_bytes().to_vec(),
            OutputValidator::Default => b"default".to_vec(),
            OutputValidator::Program(p) => {
                let mut h = Sha256::new();
                h.update(self.name().as_bytes());
                h.update([0]);
                h.update(p.language.as_bytes());
                h.update([0]);
                for value in [p.time_limit_ms, p.memory_limit_mb, p.output_limit_mb] {
                    h.update(value.to_be_bytes());
                }
                h.update(Sha256::digest(&p.source));
                h.finalize().to_vec()
            }
        }
    }
}

impl Serialize for OutputValidator {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// The default validator's flags, parsed from a test's validator arguments (the problem's
/// `validator_flags` first, then its group's), as problemtools' default validator reads them.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct DefaultFlags {
    /// `case_sensitive`: letters must match in case (by default they need not).
    pub case_sensitive: bool,
    /// `space_change_sensitive`: the whitespace between tokens must match exactly.
    pub space_change_sensitive: bool,
    /// `float_absolute_tolerance EPS` (or `float_tolerance EPS`).
    pub float_absolute_tolerance: Option<f64>,
    /// `float_relative_tolerance EPS` (or `float_tolerance EPS`).
    pub float_relative_tolerance: Option<f64>,
}

impl DefaultFlags {
    /// Parses the arguments; an unknown flag or a missing or bad number is an error naming it.
    pub fn parse(args: &[String]) -> Result<DefaultFlags, String> {
        let mut flags = DefaultFlags::default();
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let mut number = |name: &str| -> Result<f64, String> {
                let value = it
                    .next()
                    .ok_or_else(|| format!("`{name}` needs a number after it"))?;
                match value.parse::<f64>() {
                    Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
                    _ => Err(format!(
                        "`{name} {value}`: not a non-negative finite number"
                    )),
                }
            };
            match arg.as_str() {
                "case_sensitive" => flags.case_sensitive = true,
                "space_change_sensitive" => flags.space_change_sensitive = true,
                "float_absolute_tolerance" => {
                    flags.float_absolute_tolerance = Some(number("float_absolute_tolerance")?)
                }
                "float_relative_tolerance" => {
                    flags.float_relative_tolerance = Some(number("float_relative_tolerance")?)
                }
                "float_tolerance" => {
                    let eps = number("float_tolerance")?;
                    flags.float_absolute_tolerance = Some(eps);
                    flags.float_relative_tolerance = Some(eps);
                }
                other => {
                    return Err(format!(
                        "unknown default-validator flag `{other}` (known: case_sensitive, \
                         space_change_sensitive, float_tolerance, float_absolute_tolerance, \
                         float_relative_tolerance)"
                    ))
                }
            }
        }
        Ok(flags)
    }
}

/// Splits a flags string (`"float_tolerance 1e-6"`) into arguments at whitespace.
pub fn split_flags(flags: &str) -> Vec<String> {
    flags.split_whitespace().map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<DefaultFlags, String> {
        DefaultFlags::parse(&split_flags(s))
    }

    #[test]
    fn flags_parse_as_problemtools_reads_them() {
        assert_eq!(parse("").unwrap(), DefaultFlags::default());
        let f = parse("case_sensitive float_tolerance 1e-6").unwrap();
        assert!(f.case_sensitive && !f.space_change_sensitive);
        assert_eq!(f.float_absolute_tolerance, Some(1e-6));
        assert_eq!(f.float_relative_tolerance, Some(1e-6));
        let f = parse("float_relative_tolerance 0.5 space_change_sensitive").unwrap();
        assert_eq!(f.float_absolute_tolerance, None);
        assert!(f.space_change_sensitive);
        assert!(parse("float_tolerance")
            .unwrap_err()
            .contains("needs a number"));
        assert!(parse("float_tolerance x")
            .unwrap_err()
            .contains("`float_tolerance x`"));
        assert!(parse("float_tolerance -1").is_err());
        assert!(parse("ignore_case").unwrap_err().contains("`ignore_case`"));
    }
}
