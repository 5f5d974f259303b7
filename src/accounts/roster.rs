//! Display names and class rosters: the checks `sudojudge user add|import` and the admin web
//! page share, so both refuse the same rows with the same words.
//!
//! A roster is CSV of `name,display name,group` rows (the display name and the group may be
//! left out; a group links the user to the contests whose `participants` list
//! `"group:NAME"`); a first row whose first field is `name` is a header, blank rows are
//! skipped. Every bad row is reported with its line and nothing is
//! created (the caller writes all rows in one transaction).

use super::{password, AccountError, Role, UserName};

/// Longest display name, in characters.
pub const MAX_DISPLAY_NAME: usize = 100;

/// A display name trimmed and checked (at most [`MAX_DISPLAY_NAME`] characters, no control
/// characters); `None` is the empty name.
pub fn display_name(text: Option<&str>) -> Result<String, AccountError> {
    let text = text.unwrap_or_default().trim().to_string();
    if text.chars().count() > MAX_DISPLAY_NAME {
        return Err(AccountError::BadDisplayName(format!(
            "a display name is at most {MAX_DISPLAY_NAME} characters"
        )));
    }
    if text.chars().any(char::is_control) {
        return Err(AccountError::BadDisplayName(
            "a display name has no control characters".into(),
        ));
    }
    Ok(text)
}

/// A roster's group, checked ([`crate::user_name::check_group`]); an empty field is no
/// group.
pub fn group_name(text: Option<&str>) -> Result<Option<String>, AccountError> {
    let text = text.unwrap_or_default().trim();
    if text.is_empty() {
        return Ok(None);
    }
    crate::user_name::check_group(text).map_err(AccountError::BadGroup)?;
    Ok(Some(text.to_string()))
}

/// One roster row, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RosterRow {
    /// The login name.
    pub name: UserName,
    /// The display name (may be empty).
    pub display_name: String,
    /// The group (`class-7b`), if the roster gives one.
    pub group: Option<String>,
}

/// Why a roster was refused; nothing was created.
#[derive(Debug, thiserror::Error)]
pub enum RosterError {
    /// The CSV itself could not be read (bad quoting, not UTF-8) at a line.
    #[error("line {line}: {message}")]
    Csv {
        /// The line (1-based).
        line: u64,
        /// The reader's complaint.
        message: String,
    },
    /// Rows that break the rules, each `line N: why`.
    #[error("{} bad row(s), nothing was written:\n  {}", .0.len(), .0.join("\n  "))]
    BadRows(Vec<String>),
    /// No user in it.
    #[error("no users in the roster")]
    Empty,
}

/// The rows of a roster read from `input`; every bad row is reported (see the module).
pub fn parse(mut input: impl std::io::Read) -> Result<Vec<RosterRow>, RosterError> {
    let mut bytes = Vec::new();
    input
        .read_to_end(&mut bytes)
        .map_err(|e| RosterError::Csv {
            line: 1,
            message: e.to_string(),
        })?;
    // The file's line of a record: the reader counts no blank line, and a record's position
    // is where the reader started it, before the blank lines it skipped.
    let line_at = |byte: u64| {
        let mut end = usize::try_from(byte).unwrap_or(usize::MAX).min(bytes.len());
        while bytes.get(end).is_some_and(|b| *b == b'\n' || *b == b'\r') {
            end += 1;
        }
        bytes[..end].iter().filter(|b| **b == b'\n').count() as u64 + 1
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(bytes.as_slice());
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    let mut first_line: std::collections::HashMap<UserName, u64> = Default::default();
    for (i, record) in reader.records().enumerate() {
        let record = record.map_err(|e| RosterError::Csv {
            line: e.position().map_or(i as u64 + 1, |p| p.line()),
            message: e.to_string(),
        })?;
        let line = record
            .position()
            .map_or(i as u64 + 1, |p| line_at(p.byte()));
        let name = record.get(0).unwrap_or("");
        if record.iter().all(str::is_empty) {
            continue;
        }
        if line == 1 && name.eq_ignore_ascii_case("name") {
            continue;
        }
        let parsed = UserName::parse(name)
            .map_err(AccountError::from)
            .and_then(|n| Ok((n, display_name(record.get(1))?, group_name(record.get(2))?)));
        match parsed {
            Ok((name, display_name, group)) => match first_line.get(&name) {
                Some(first) => errors.push(format!(
                    "line {line}: user {:?} is given twice (first on line {first})",
                    name.as_str()
                )),
                None => {
                    first_line.insert(name.clone(), line);
                    rows.push(RosterRow {
                        name,
                        display_name,
                        group,
                    });
                }
            },
            Err(e) => errors.push(format!("line {line}: {e}")),
        }
    }
    if !errors.is_empty() {
        return Err(RosterError::BadRows(errors));
    }
    if rows.is_empty() {
        return Err(RosterError::Empty);
    }
    Ok(rows)
}

/// A contestant to create from a roster row, with the generated password shown once.
#[derive(Debug, Clone)]
pub struct NewContestant {
    /// The row.
    pub row: RosterRow,
    /// The generated password (clear text, to hand out once).
    pub password: String,
    /// Its argon2id PHC string (what the store keeps).
    pub password_hash: String,
}

/// Generates and hashes a password for every row (argon2id: slow on purpose; run it off the
/// async threads).
pub fn with_passwords(rows: Vec<RosterRow>) -> Result<Vec<NewContestant>, AccountError> {
    rows.into_iter()
        .map(|row| {
            let password = password::generate();
            Ok(NewContestant {
                password_hash: password::hash(&password)?,
                password,
                row,
            })
        })
        .collect()
}

/// The role roster imports create.
pub const ROSTER_ROLE: Role = Role::Contestant;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_headers_blanks_and_errors() {
        let rows = parse("name,display\nann,Ann Lee\n\n bob , Bob \n".as_bytes()).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].name.as_str(), "bob");
        assert_eq!(rows[1].display_name, "Bob");
        let err = parse("ann,A\nBad Name,B\nok,\u{7}\n".as_bytes()).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("line 2") && text.contains("line 3"), "{text}");
        assert!(matches!(parse("\n\n".as_bytes()), Err(RosterError::Empty)));
        let err = parse("name\nzed,Z\nann,A\n\nzed,Again\n".as_bytes()).unwrap_err();
        assert!(
            err.to_string()
                .contains("line 5: user \"zed\" is given twice (first on line 2)"),
            "{err}"
        );
        assert!(display_name(Some(&"x".repeat(101))).is_err());
        assert_eq!(display_name(None).unwrap(), "");
    }

    #[test]
    fn the_group_column() {
        let rows = parse(
            "name,display_name,group
ann,Ann,class-7b
bob,Bob
cy,, 7a 
"
            .as_bytes(),
        )
        .unwrap();
        let groups: Vec<_> = rows.iter().map(|r| r.group.as_deref()).collect();
        assert_eq!(groups, [Some("class-7b"), None, Some("7a")]);
        let err = parse(
            "ann,Ann,Class 7B
bob,Bob,ok
"
            .as_bytes(),
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("line 1: group \"Class 7B\""),
            "{err}"
        );
        assert!(group_name(Some(&"g".repeat(33))).is_err());
    }
}
