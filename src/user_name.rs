//! User names: 1 to 32 characters from `a-z`, `0-9`, `_`, `-` and `.`, starting with a letter
//! or a digit. Lowercase only, so `Alice` and `alice` can never be two accounts; the display
//! name carries any spelling.
//!
//! Below both the accounts (which store users by name) and the contest files (which list
//! their participants by name), so each can use it without the other.

use std::fmt;

/// Longest roster group name, in characters (all ASCII).
pub const MAX_GROUP_LEN: usize = 32;

/// Checks a roster group's name (`class-7b`): 1 to [`MAX_GROUP_LEN`] of `a-z 0-9 _ - .`, so
/// a contest file's `"group:NAME"` and a roster's `group` column follow one rule.
pub fn check_group(group: &str) -> Result<(), String> {
    let ok = !group.is_empty()
        && group.len() <= MAX_GROUP_LEN
        && group
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"_-.".contains(&b));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "group {:?}: a group is 1 to {MAX_GROUP_LEN} of a-z, 0-9, _ - .",
            group.chars().take(64).collect::<String>()
        ))
    }
}

/// A name that breaks the rules above, and which rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid user name {name:?}: {why}")]
pub struct BadUserName {
    /// The name given (at most its first 64 characters).
    pub name: String,
    /// Which rule it breaks.
    pub why: String,
}

/// Longest user name, in characters (all ASCII).
pub const MAX_NAME_LEN: usize = 32;

/// A user name that follows the rules above; the only way to make one is [`UserName::parse`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UserName(String);

impl UserName {
    /// Parses a name, saying which rule a bad one breaks.
    pub fn parse(name: &str) -> Result<UserName, BadUserName> {
        let bad = |why: &str| BadUserName {
            name: name.chars().take(64).collect(),
            why: why.to_string(),
        };
        if name.is_empty() {
            return Err(bad("a name is 1 to 32 characters; this one is empty"));
        }
        if name.len() > MAX_NAME_LEN {
            return Err(bad("a name is at most 32 characters"));
        }
        if let Some(c) = name
            .chars()
            .find(|c| !matches!(c, 'a'..='z' | '0'..='9' | '_' | '-' | '.'))
        {
            let hint = if c.is_ascii_uppercase() {
                " (names are lowercase)"
            } else {
                ""
            };
            return Err(bad(&format!(
                "{c:?} is not allowed; use a-z, 0-9, '_', '-' and '.'{hint}"
            )));
        }
        if !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
            return Err(bad("a name starts with a letter or a digit"));
        }
        Ok(UserName(name.to_string()))
    }

    /// The name as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for UserName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_names_parse() {
        for n in ["alice", "a", "bob-2", "team_7.b", "0day", &"x".repeat(32)] {
            assert_eq!(UserName::parse(n).unwrap().as_str(), n);
        }
    }

    #[test]
    fn bad_names_say_why() {
        for (n, why) in [
            ("", "empty"),
            ("Alice", "lowercase"),
            ("al ice", "not allowed"),
            ("ålice", "not allowed"),
            ("-alice", "starts with"),
            (".x", "starts with"),
            (&"x".repeat(33), "at most 32"),
            ("a/b", "not allowed"),
        ] {
            let err = UserName::parse(n).unwrap_err().to_string();
            assert!(err.contains(why), "{n:?}: {err}");
        }
    }
}
