//! `problem.yaml` of a Kattis package: the legacy format and the current ones
//! (`2023-07-draft`, `2025-09`), read strictly (an unknown key is an error naming it), and
//! reduced to what this judge uses.

use serde::Deserialize;
use serde_norway::Value;

/// The format versions this judge reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// No `problem_format_version`, or `legacy` / `legacy-icpc`.
    Legacy,
    /// `2023-07-draft` (problemtools' name for the draft that became 2025-09).
    Draft2023,
    /// `2025-09`.
    V2025,
}

impl Version {
    /// The name `problem.yaml` uses.
    pub fn name(self) -> &'static str {
        match self {
            Version::Legacy => "legacy",
            Version::Draft2023 => "2023-07-draft",
            Version::V2025 => "2025-09",
        }
    }
}

/// What this judge takes from `problem.yaml`.
#[derive(Debug, Clone)]
pub struct Meta {
    /// The format version.
    pub version: Version,
    /// The problem's name (English, or the first language's), if given.
    pub name: Option<String>,
    /// `limits.time_limit` in ms (the current formats); `None`: derived by `verify`.
    pub time_limit_ms: Option<u64>,
    /// `limits.memory` in MiB.
    pub memory_mb: Option<u64>,
    /// `limits.output` in MiB.
    pub output_mb: Option<u64>,
    /// `limits.validation_time` in seconds.
    pub validation_time_s: Option<u64>,
    /// `limits.validation_memory` in MiB.
    pub validation_memory_mb: Option<u64>,
    /// `limits.validation_output` in MiB.
    pub validation_output_mb: Option<u64>,
    /// How the time limit follows from the slowest accepted submission.
    pub timing: Timing,
    /// Legacy `validation: custom` (the current formats: an `output_validator/` folder).
    pub custom_validation: bool,
    /// Legacy `validator_flags`, split at whitespace.
    pub validator_flags: Vec<String>,
    /// An interactive problem (`type: interactive`; legacy `validation: custom
    /// interactive`): the submission talks to the output validator.
    pub interactive: bool,
    /// A scoring problem (`type: scoring`): accepted submissions get a score from the
    /// test groups (read by the scoring module beside this one).
    pub scoring: bool,
    /// Legacy `grading:` keys that override every group's.
    pub legacy_grading: LegacyGrading,
}

/// The legacy `grading:` map of `problem.yaml` (problemtools also reads the group keys
/// there and lets them override every `testdata.yaml`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LegacyGrading {
    /// `accept_score`.
    pub accept_score: Option<f64>,
    /// `reject_score`.
    pub reject_score: Option<f64>,
    /// `range`, as written (checked where the groups are read).
    pub range: Option<String>,
    /// `on_reject`: `first_error` (break) or `grade` (continue).
    pub on_reject: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct GradingYaml {
    objective: Option<String>,
    #[allow(dead_code)]
    show_test_data_groups: Option<bool>,
    accept_score: Option<f64>,
    reject_score: Option<f64>,
    range: Option<String>,
    on_reject: Option<String>,
}

fn legacy_grading(g: Option<GradingYaml>, scoring: bool) -> Result<LegacyGrading, String> {
    let Some(g) = g else {
        return Ok(LegacyGrading::default());
    };
    if !scoring {
        return Err("grading: only a scoring problem (type: scoring) has grading".into());
    }
    match g.objective.as_deref() {
        None | Some("max") => {}
        Some("min") => return Err("grading.objective: min is not supported (max only)".into()),
        Some(other) => return Err(format!("grading.objective `{other}`: min or max expected")),
    }
    match g.on_reject.as_deref() {
        None | Some("first_error") | Some("grade") => {}
        Some(other) => {
            return Err(format!(
                "grading.on_reject `{other}`: first_error or grade expected"
            ))
        }
    }
    Ok(LegacyGrading {
        accept_score: g.accept_score,
        reject_score: g.reject_score,
        range: g.range,
        on_reject: g.on_reject,
    })
}

/// The format's margins between the slowest accepted submission, the time limit and the
/// time-limit-exceeded submissions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Timing {
    /// Legacy: limit = slowest AC x `time_multiplier` (default 5), rounded up to a whole
    /// second; TLE submissions must still time out at limit x `time_safety_margin` (2).
    Legacy {
        /// `limits.time_multiplier`.
        time_multiplier: f64,
        /// `limits.time_safety_margin`.
        time_safety_margin: f64,
    },
    /// 2023-07 / 2025-09: limit = the smallest multiple of `time_resolution` at least
    /// slowest AC x `ac_to_time_limit` (2); TLE submissions take limit x
    /// `time_limit_to_tle` (1.5) or more.
    Multipliers {
        /// `limits.time_multipliers.ac_to_time_limit`.
        ac_to_time_limit: f64,
        /// `limits.time_multipliers.time_limit_to_tle`.
        time_limit_to_tle: f64,
        /// `limits.time_resolution`, in seconds.
        time_resolution: f64,
    },
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LegacyYaml {
    #[allow(dead_code)]
    problem_format_version: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    name: Option<String>,
    #[allow(dead_code)]
    uuid: Option<String>,
    #[allow(dead_code)]
    author: Option<String>,
    #[allow(dead_code)]
    source: Option<String>,
    #[allow(dead_code)]
    source_url: Option<String>,
    #[allow(dead_code)]
    license: Option<String>,
    #[allow(dead_code)]
    rights_owner: Option<String>,
    #[serde(default)]
    limits: LegacyLimits,
    validation: Option<String>,
    validator_flags: Option<String>,
    grading: Option<GradingYaml>,
    #[allow(dead_code)]
    keywords: Option<Value>,
    #[allow(dead_code)]
    languages: Option<Value>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct LegacyLimits {
    time_multiplier: Option<f64>,
    time_safety_margin: Option<f64>,
    memory: Option<u64>,
    output: Option<u64>,
    #[allow(dead_code)]
    code: Option<u64>,
    #[allow(dead_code)]
    compilation_time: Option<u64>,
    #[allow(dead_code)]
    compilation_memory: Option<u64>,
    validation_time: Option<u64>,
    validation_memory: Option<u64>,
    validation_output: Option<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ModernYaml {
    #[allow(dead_code)]
    problem_format_version: String,
    #[serde(rename = "type")]
    kind: Option<Value>,
    name: Option<Value>,
    #[allow(dead_code)]
    uuid: Option<String>,
    #[allow(dead_code)]
    version: Option<String>,
    #[allow(dead_code)]
    credits: Option<Value>,
    #[allow(dead_code)]
    source: Option<Value>,
    #[allow(dead_code)]
    license: Option<String>,
    #[allow(dead_code)]
    rights_owner: Option<Value>,
    #[allow(dead_code)]
    embargo_until: Option<Value>,
    #[serde(default)]
    limits: ModernLimits,
    #[allow(dead_code)]
    keywords: Option<Value>,
    #[allow(dead_code)]
    languages: Option<Value>,
    allow_file_writing: Option<bool>,
    #[allow(dead_code)]
    constants: Option<Value>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ModernLimits {
    #[serde(default)]
    time_multipliers: TimeMultipliers,
    time_limit: Option<f64>,
    time_resolution: Option<f64>,
    memory: Option<u64>,
    output: Option<u64>,
    #[allow(dead_code)]
    code: Option<u64>,
    #[allow(dead_code)]
    compilation_time: Option<u64>,
    #[allow(dead_code)]
    compilation_memory: Option<u64>,
    validation_time: Option<u64>,
    validation_memory: Option<u64>,
    validation_output: Option<u64>,
    #[allow(dead_code)]
    validation_passes: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct TimeMultipliers {
    ac_to_time_limit: Option<f64>,
    time_limit_to_tle: Option<f64>,
}

/// Reads `problem.yaml`'s text; the error says which key is wrong and why.
pub fn parse(text: &str) -> Result<Meta, String> {
    let value: Value = serde_norway::from_str(text).map_err(|e| e.to_string())?;
    let value = match value {
        Value::Null => Value::Mapping(Default::default()),
        v @ Value::Mapping(_) => v,
        _ => return Err("not a map of keys".into()),
    };
    let version = match value.get("problem_format_version") {
        None => Version::Legacy,
        Some(Value::String(v)) => match v.as_str() {
            "legacy" | "legacy-icpc" => Version::Legacy,
            "2023-07-draft" | "2023-07" => Version::Draft2023,
            "2025-09" => Version::V2025,
            other => {
                return Err(format!(
                    "problem_format_version `{other}` is not one this judge reads \
                     (legacy, legacy-icpc, 2023-07-draft, 2025-09)"
                ))
            }
        },
        Some(_) => return Err("problem_format_version: not a string".into()),
    };
    // Read again from the text (not the value): the errors then name the key's path and line.
    let text = if value.as_mapping().is_some_and(|m| m.is_empty()) {
        "{}"
    } else {
        text
    };
    if version == Version::Legacy {
        legacy(text)
    } else {
        modern(version, text)
    }
}

fn positive(key: &str, value: Option<f64>, at_least: f64) -> Result<Option<f64>, String> {
    match value {
        Some(v) if !(v.is_finite() && v >= at_least && v > 0.0) => Err(format!(
            "{key}: {v} must be a number of at least {at_least}"
        )),
        other => Ok(other),
    }
}

fn nonzero(key: &str, value: Option<u64>) -> Result<Option<u64>, String> {
    if value == Some(0) {
        return Err(format!("{key}: must be positive"));
    }
    Ok(value)
}

fn legacy(text: &str) -> Result<Meta, String> {
    let y: LegacyYaml = serde_norway::from_str(text).map_err(|e| e.to_string())?;
    let scoring = match y.kind.as_deref() {
        None | Some("pass-fail") => false,
        Some("scoring") => true,
        Some(other) => return Err(format!("type `{other}`: pass-fail or scoring expected")),
    };
    let validation = y.validation.as_deref().unwrap_or("default");
    let words: Vec<&str> = validation.split_whitespace().collect();
    let (custom_validation, interactive) = match words.as_slice() {
        ["default"] => (false, false),
        ["custom"] => (true, false),
        ["custom", "interactive"] => (true, true),
        ["custom", "score"] if scoring => (true, false),
        ["custom", "interactive", "score"] | ["custom", "score", "interactive"] if scoring => {
            (true, true)
        }
        _ => {
            return Err(format!(
                "validation `{validation}`: `default`, `custom`, `custom interactive` (and \
                 with `score` for a scoring problem) expected"
            ))
        }
    };
    let legacy_grading = legacy_grading(y.grading, scoring)?;
    let l = y.limits;
    Ok(Meta {
        version: Version::Legacy,
        name: y.name,
        time_limit_ms: None,
        memory_mb: nonzero("limits.memory", l.memory)?,
        output_mb: nonzero("limits.output", l.output)?,
        validation_time_s: nonzero("limits.validation_time", l.validation_time)?,
        validation_memory_mb: nonzero("limits.validation_memory", l.validation_memory)?,
        validation_output_mb: nonzero("limits.validation_output", l.validation_output)?,
        timing: Timing::Legacy {
            time_multiplier: positive("limits.time_multiplier", l.time_multiplier, 1.0)?
                .unwrap_or(5.0),
            time_safety_margin: positive("limits.time_safety_margin", l.time_safety_margin, 1.0)?
                .unwrap_or(2.0),
        },
        custom_validation,
        validator_flags: super::super::validator::split_flags(
            y.validator_flags.as_deref().unwrap_or(""),
        ),
        interactive,
        scoring,
        legacy_grading,
    })
}

fn modern(version: Version, text: &str) -> Result<Meta, String> {
    let y: ModernYaml = serde_norway::from_str(text).map_err(|e| e.to_string())?;
    let kinds: Vec<String> = match &y.kind {
        None => Vec::new(),
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Sequence(seq)) => seq
            .iter()
            .map(|v| v.as_str().map(str::to_string))
            .collect::<Option<_>>()
            .ok_or("type: a sequence of strings expected")?,
        Some(_) => return Err("type: a string or a sequence of strings expected".into()),
    };
    if let Some(other) = kinds
        .iter()
        .find(|k| !matches!(k.as_str(), "pass-fail" | "interactive" | "scoring"))
    {
        return Err(format!(
            "type `{other}`: only pass-fail, scoring and interactive problems are judged here \
             (multi-pass and submit-answer are not supported)"
        ));
    }
    let interactive = kinds.iter().any(|k| k == "interactive");
    let scoring = kinds.iter().any(|k| k == "scoring");
    if scoring && kinds.iter().any(|k| k == "pass-fail") {
        return Err("type: pass-fail and scoring exclude each other".into());
    }
    if y.allow_file_writing == Some(true) {
        return Err("allow_file_writing: true is not supported".into());
    }
    let name = match &y.name {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Mapping(m)) => m
            .get("en")
            .or_else(|| m.values().next())
            .and_then(Value::as_str)
            .map(str::to_string),
        Some(_) => return Err("name: a string or a map of languages to strings expected".into()),
    };
    let l = y.limits;
    let time_limit = positive("limits.time_limit", l.time_limit, 0.0)?;
    let time_limit_ms = match time_limit {
        Some(s) if s * 1000.0 > 1e9 => return Err("limits.time_limit: too large".into()),
        Some(s) => Some(((s * 1000.0).round() as u64).max(1)),
        None => None,
    };
    Ok(Meta {
        version,
        name,
        time_limit_ms,
        memory_mb: nonzero("limits.memory", l.memory)?,
        output_mb: nonzero("limits.output", l.output)?,
        validation_time_s: nonzero("limits.validation_time", l.validation_time)?,
        validation_memory_mb: nonzero("limits.validation_memory", l.validation_memory)?,
        validation_output_mb: nonzero("limits.validation_output", l.validation_output)?,
        timing: Timing::Multipliers {
            ac_to_time_limit: positive(
                "limits.time_multipliers.ac_to_time_limit",
                l.time_multipliers.ac_to_time_limit,
                1.0,
            )?
            .unwrap_or(2.0),
            time_limit_to_tle: positive(
                "limits.time_multipliers.time_limit_to_tle",
                l.time_multipliers.time_limit_to_tle,
                1.0,
            )?
            .unwrap_or(1.5),
            time_resolution: positive("limits.time_resolution", l.time_resolution, 0.0)?
                .unwrap_or(1.0),
        },
        custom_validation: false,
        validator_flags: Vec::new(),
        interactive,
        scoring,
        legacy_grading: LegacyGrading::default(),
    })
}

#[cfg(test)]
mod tests;
