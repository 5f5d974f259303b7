//! The contest id and the problem labels: newtypes that only hold valid values.

use std::fmt;

/// Why an id or a label was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdError {
    /// A contest id must be 1-64 of `a-z`, `0-9`, `-`, `_`, starting with a letter or digit.
    #[error(
        "{0:?} is not a contest id (1-64 of a-z, 0-9, '-', '_', not starting with '-' or '_')"
    )]
    ContestId(String),
    /// A label is one to three capital letters (A, B, ..., Z, AA...).
    #[error("{0:?} is not a problem label (1-3 capital letters: A, B, C...)")]
    Label(String),
}

/// A contest's id: the name of its file (`contests/<id>.toml`) and of its URLs.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(transparent)]
pub struct ContestId(String);

impl ContestId {
    /// Checks `text` is a contest id: safe in a path and a URL.
    pub fn parse(text: &str) -> Result<ContestId, IdError> {
        let ok = (1..=64).contains(&text.len())
            && text
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
            && !text.starts_with(['-', '_']);
        if ok {
            Ok(ContestId(text.to_string()))
        } else {
            Err(IdError::ContestId(text.to_string()))
        }
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ContestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A problem's label inside a contest (A, B, C...), the column of the scoreboard.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(transparent)]
pub struct Label(String);

impl Label {
    /// Checks `text` is a label.
    pub fn parse(text: &str) -> Result<Label, IdError> {
        if (1..=3).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_uppercase()) {
            Ok(Label(text.to_string()))
        } else {
            Err(IdError::Label(text.to_string()))
        }
    }

    /// The label as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_labels_accept_only_safe_text() {
        assert!(ContestId::parse("noip-2009").is_ok());
        assert!(ContestId::parse("practice").is_ok());
        for bad in [
            "",
            "-x",
            "_x",
            "Practice",
            "a/b",
            "..",
            "a b",
            &"x".repeat(65),
        ] {
            assert!(ContestId::parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(Label::parse("A").unwrap().as_str(), "A");
        assert!(Label::parse("AB").is_ok());
        for bad in ["", "a", "A1", "ABCD", "Ä"] {
            assert!(Label::parse(bad).is_err(), "{bad:?}");
        }
    }
}
