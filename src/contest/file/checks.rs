//! One check per key of a contest file: the raw values (`raw.rs`) to the typed ones, each
//! error naming the key at fault.

use std::collections::BTreeSet;

use jiff::{SignedDuration, Timestamp};

use super::raw::{RawProblem, RawRate, RawTiming};
use super::{ContestError, ContestProblem, Participants, Rate};
use crate::contest::format::Format;
use crate::contest::ids::Label;
use crate::contest::timing::Timing;
use crate::user_name::UserName;

/// How a check builds its error: the key at fault and what is wrong with it.
type Invalid<'a> = dyn Fn(&str, String) -> ContestError + 'a;

/// `languages`: absent, or a list of distinct non-blank ids (checked against the language
/// table by `verify`, which knows the configuration).
pub(super) fn languages(
    raw: Option<Vec<String>>,
    invalid: &Invalid,
) -> Result<Option<Vec<String>>, ContestError> {
    let Some(list) = raw else {
        return Ok(None);
    };
    if list.is_empty() {
        return Err(invalid(
            "languages",
            "an empty list would refuse every submission; leave it out to accept every language"
                .into(),
        ));
    }
    for (i, id) in list.iter().enumerate() {
        if id.trim().is_empty() || id.len() > 32 {
            return Err(invalid("languages", format!("{id:?} is not a language id")));
        }
        if list[..i].contains(id) {
            return Err(invalid("languages", format!("{id:?} is listed twice")));
        }
    }
    Ok(Some(list))
}

/// A date and time with an offset, as a TOML datetime or a string.
fn timestamp(
    value: Option<&toml::Value>,
    key: &str,
    invalid: &Invalid,
) -> Result<Timestamp, ContestError> {
    let text = match value {
        None => return Err(invalid(key, "missing".into())),
        Some(toml::Value::Datetime(d)) => d.to_string(),
        Some(toml::Value::String(s)) => s.clone(),
        Some(other) => {
            return Err(invalid(
                key,
                format!("expected a date and time, found {}", other.type_str()),
            ))
        }
    };
    text.parse::<Timestamp>().map_err(|e| {
        invalid(
            key,
            format!("{text:?} is not a date and time with an offset (like 2009-11-21T08:30:00+08:00 or ...Z): {e}"),
        )
    })
}

/// A positive duration (`"5h"`, `"3h 30m"`).
fn duration(
    value: Option<&String>,
    key: &str,
    invalid: &Invalid,
) -> Result<SignedDuration, ContestError> {
    let text = value.ok_or_else(|| invalid(key, "missing".into()))?;
    let d: SignedDuration = text.parse().map_err(|e| {
        invalid(
            key,
            format!("{text:?} is not a duration (like \"5h\" or \"3h 30m\"): {e}"),
        )
    })?;
    if d <= SignedDuration::ZERO {
        return Err(invalid(
            key,
            format!("{text:?}: a duration must be positive"),
        ));
    }
    Ok(d)
}

/// `[timing]`: `fixed`, `window` or `open`, with only the keys that kind uses.
pub(super) fn timing(raw: &RawTiming, invalid: &Invalid) -> Result<Timing, ContestError> {
    let unused = |keys: &[(&str, bool)]| -> Result<(), ContestError> {
        match keys.iter().find(|(_, present)| *present) {
            Some((key, _)) => Err(invalid(
                &format!("timing.{key}"),
                format!("not used by {} timing", raw.kind),
            )),
            None => Ok(()),
        }
    };
    match raw.kind.as_str() {
        "fixed" => {
            unused(&[
                ("window_start", raw.window_start.is_some()),
                ("window_end", raw.window_end.is_some()),
            ])?;
            Ok(Timing::Fixed {
                start: timestamp(raw.start.as_ref(), "timing.start", invalid)?,
                duration: duration(raw.duration.as_ref(), "timing.duration", invalid)?,
            })
        }
        "window" => {
            unused(&[("start", raw.start.is_some())])?;
            let window_start =
                timestamp(raw.window_start.as_ref(), "timing.window_start", invalid)?;
            let window_end = timestamp(raw.window_end.as_ref(), "timing.window_end", invalid)?;
            if window_end <= window_start {
                return Err(invalid(
                    "timing.window_end",
                    format!("{window_end} is not after window_start {window_start}: the window ends before it starts"),
                ));
            }
            Ok(Timing::Window {
                window_start,
                window_end,
                duration: duration(raw.duration.as_ref(), "timing.duration", invalid)?,
            })
        }
        "open" => {
            unused(&[
                ("start", raw.start.is_some()),
                ("duration", raw.duration.is_some()),
                ("window_start", raw.window_start.is_some()),
                ("window_end", raw.window_end.is_some()),
            ])?;
            Ok(Timing::Open)
        }
        other => Err(invalid(
            "timing.kind",
            format!("{other:?} is not a timing: fixed, window or open"),
        )),
    }
}

/// `freeze_minutes`: zero, or an icpc contest's last minutes before a known end.
pub(super) fn freeze(
    minutes: i64,
    format: Format,
    timing: &Timing,
    invalid: &Invalid,
) -> Result<SignedDuration, ContestError> {
    const KEY: &str = "freeze_minutes";
    if minutes == 0 {
        return Ok(SignedDuration::ZERO);
    }
    if minutes < 0 {
        return Err(invalid(KEY, format!("{minutes} is negative")));
    }
    if format != Format::Icpc {
        return Err(invalid(
            KEY,
            format!("only icpc contests freeze, this one is {}", format.as_str()),
        ));
    }
    let freeze = SignedDuration::from_mins(minutes);
    match timing.duration() {
        None => Err(invalid(
            KEY,
            "an open contest has no end to freeze before".into(),
        )),
        Some(d) if freeze >= d => Err(invalid(
            KEY,
            format!("{minutes} minutes is not shorter than the contest ({d:#})"),
        )),
        Some(_) => Ok(freeze),
    }
}

/// `[[problems]]`: at least one, labels and problem ids distinct.
pub(super) fn problems(
    raw: &[RawProblem],
    invalid: &Invalid,
) -> Result<Vec<ContestProblem>, ContestError> {
    if raw.is_empty() {
        return Err(invalid(
            "problems",
            "a contest needs at least one [[problems]]".into(),
        ));
    }
    let (mut labels, mut ids) = (BTreeSet::new(), BTreeSet::new());
    let mut out = Vec::with_capacity(raw.len());
    for (i, p) in raw.iter().enumerate() {
        let label = Label::parse(&p.label)
            .map_err(|e| invalid(&format!("problems[{i}].label"), e.to_string()))?;
        if !labels.insert(label.clone()) {
            return Err(invalid(
                &format!("problems[{i}].label"),
                format!("duplicate label {label}"),
            ));
        }
        if !ids.insert(p.problem.as_str()) {
            return Err(invalid(
                &format!("problems[{i}].problem"),
                format!("{:?} is listed twice", p.problem),
            ));
        }
        out.push(ContestProblem {
            label,
            problem: p.problem.clone(),
        });
    }
    Ok(out)
}

/// The `participants` key: `"anyone"`, or a list of user names and `"group:NAME"` entries
/// (roster groups), mixed.
pub(super) fn participants(
    raw: Option<&toml::Value>,
    invalid: &Invalid,
) -> Result<(Participants, BTreeSet<String>), ContestError> {
    const KEY: &str = "participants";
    let list = match raw {
        None => return Ok((Participants::Anyone, BTreeSet::new())),
        Some(toml::Value::String(s)) if s == "anyone" => {
            return Ok((Participants::Anyone, BTreeSet::new()))
        }
        Some(toml::Value::Array(list)) => list,
        Some(_) => {
            return Err(invalid(
                KEY,
                "expected \"anyone\" or a list of user names and \"group:NAME\" entries".into(),
            ))
        }
    };
    let mut users = BTreeSet::new();
    let mut groups = BTreeSet::new();
    for (i, user) in list.iter().enumerate() {
        let key = format!("{KEY}[{i}]");
        let Some(name) = user.as_str() else {
            return Err(invalid(
                &key,
                "expected a user name or \"group:NAME\"".into(),
            ));
        };
        if let Some(group) = name.strip_prefix("group:") {
            // A roster's own rule, so a group no roster can give is caught here.
            crate::user_name::check_group(group).map_err(|e| invalid(&key, e))?;
            if !groups.insert(group.to_string()) {
                return Err(invalid(&key, format!("{name:?} is listed twice")));
            }
            continue;
        }
        // The accounts' own rule, so a name no account can have is caught here.
        UserName::parse(name).map_err(|e| invalid(&key, e.to_string()))?;
        if !users.insert(name.to_string()) {
            return Err(invalid(&key, format!("{name:?} is listed twice")));
        }
    }
    Ok((Participants::Listed(users), groups))
}

/// `rate`: a positive count per 1 minute to one week.
pub(super) fn rate(raw: &RawRate, invalid: &Invalid) -> Result<Rate, ContestError> {
    let submissions = u32::try_from(raw.submissions)
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| {
            invalid(
                "rate.submissions",
                format!("{} is not a positive count", raw.submissions),
            )
        })?;
    if !(1..=7 * 24 * 60).contains(&raw.per_minutes) {
        return Err(invalid(
            "rate.per_minutes",
            format!("{} is not 1 to 10080 minutes", raw.per_minutes),
        ));
    }
    Ok(Rate {
        submissions,
        per: SignedDuration::from_mins(raw.per_minutes),
    })
}
