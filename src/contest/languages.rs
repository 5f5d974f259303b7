//! The one rule of a contest's `languages = [...]`: which languages its contestants may
//! submit in. Every route that submits into a contest (the API, the web form) asks
//! [`check`]; nothing else decides it.

use super::Contest;

/// A contest refused a submission's language: the reason the caller reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "this contest accepts only {}: {language} is not one of them",
    allowed.join(", ")
)]
pub struct LanguageRefused {
    /// The id the source would be compiled as (`cpp17`).
    pub language: String,
    /// The contest's list, as written.
    pub allowed: Vec<String>,
}

/// Whether `contest` accepts a source compiled as the language `id` (an entry of the
/// language table) whose other names are `aliases`: a contest without a list accepts every
/// language; a list accepts an entry named by its id or one of its aliases (`cpp` names
/// `cpp17`), never another standard (`cpp98` is not `cpp`).
pub fn check(contest: &Contest, id: &str, aliases: &[String]) -> Result<(), LanguageRefused> {
    let Some(allowed) = &contest.languages else {
        return Ok(());
    };
    if allowed
        .iter()
        .any(|a| a == id || aliases.iter().any(|alias| alias == a))
    {
        return Ok(());
    }
    Err(LanguageRefused {
        language: id.to_string(),
        allowed: allowed.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contest(languages: &str) -> Contest {
        let text = format!(
            "title = \"t\"\nformat = \"icpc\"\n{languages}\n[timing]\nkind = \"open\"\n\
             [[problems]]\nlabel = \"A\"\nproblem = \"sudoku\"\n"
        );
        Contest::parse(std::path::Path::new("c.toml"), &text).unwrap()
    }

    #[test]
    fn a_list_accepts_its_entries_and_their_aliases_only() {
        let any = contest("");
        assert_eq!(check(&any, "cpp20", &[]), Ok(()));
        let era = contest("languages = [\"cpp98\", \"c\"]");
        assert_eq!(check(&era, "cpp98", &[]), Ok(()));
        assert_eq!(check(&era, "c17", &["c".to_string()]), Ok(()));
        let refused = check(&era, "cpp17", &["cpp".to_string()]).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "this contest accepts only cpp98, c: cpp17 is not one of them"
        );
        assert!(check(&era, "python", &[]).is_err());
    }

    #[test]
    fn an_empty_or_blank_list_is_refused_when_the_file_is_read() {
        for bad in [
            "languages = []",
            "languages = [\"\"]",
            "languages = [\"c\", \"c\"]",
        ] {
            let text = format!(
                "title = \"t\"\nformat = \"icpc\"\n{bad}\n[timing]\nkind = \"open\"\n\
                 [[problems]]\nlabel = \"A\"\nproblem = \"sudoku\"\n"
            );
            let err = Contest::parse(std::path::Path::new("c.toml"), &text).unwrap_err();
            assert!(err.to_string().contains("languages"), "{bad}: {err}");
        }
    }
}
