//! A score a package gives (a test's `score.txt`, a group's aggregate): a finite number that
//! reports can compare for equality.

use serde::{Deserialize, Serialize};

/// A finite score; equal when the numbers are (so reports stay `Eq`).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Points(pub f64);

impl Eq for Points {}

impl Points {
    /// Reads a `score.txt`: one finite number (surrounding white space allowed).
    pub fn parse(text: &str) -> Result<Points, String> {
        let t = text.trim();
        t.parse::<f64>()
            .ok()
            .filter(|n| n.is_finite())
            .map(Points)
            .ok_or_else(|| {
                let shown: String = t.chars().take(40).collect();
                format!("score.txt `{shown}` is not a number")
            })
    }

    /// The score shown to people: whole numbers without a fraction, else two decimals.
    pub fn shown(self) -> String {
        if self.0 == self.0.trunc() && self.0.abs() < 1e15 {
            format!("{}", self.0 as i64)
        } else {
            format!("{:.2}", self.0)
        }
    }

    /// The whole points stored with a submission and summed on boards: rounded to the
    /// nearest, kept below zero (a package's range may go there), saturating at the ends.
    pub fn whole(self) -> i64 {
        // `as` saturates a finite float at i64's ends.
        self.0.round() as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_files_parse_and_show() {
        assert_eq!(Points::parse(" 42\n"), Ok(Points(42.0)));
        assert_eq!(Points::parse("2.5").unwrap().shown(), "2.50");
        assert_eq!(Points(50.0).shown(), "50");
        assert!(Points::parse("nan").is_err());
        assert!(Points::parse("inf").is_err());
        assert!(Points::parse("lots").is_err());
        assert_eq!(Points(49.6).whole(), 50);
        assert_eq!(Points(-3.0).whole(), -3);
        assert_eq!(Points(-2.6).whole(), -3);
        assert_eq!(Points(1e300).whole(), i64::MAX);
    }
}
