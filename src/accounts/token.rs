//! API tokens: 32 random bytes from the OS, shown once as `sj_` and 64 hex digits; the
//! database keeps only their SHA-256, so a leaked database leaks no usable token. A presented
//! token is hashed, looked up by hash, and the stored hash compared in constant time.

use std::fmt;

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// What every token starts with (tells a token from a password in logs and configs).
pub const PREFIX: &str = "sj_";

/// A token in clear: exists only between its creation and the moment it is shown.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

/// The stored form of a token: SHA-256, 64 lowercase hex digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenHash(String);

impl Token {
    /// A new random token.
    pub fn generate() -> Token {
        let bytes: [u8; 32] = rand::random();
        Token(format!("{PREFIX}{}", hex::encode(bytes)))
    }

    /// Parses a presented token; anything not shaped like one is refused without a lookup.
    pub fn parse(text: &str) -> Option<Token> {
        let hex = text.strip_prefix(PREFIX)?;
        (hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
            .then(|| Token(text.to_string()))
    }

    /// The token's text, to show once.
    pub fn reveal(&self) -> &str {
        &self.0
    }

    /// The form the database keeps.
    pub fn hash(&self) -> TokenHash {
        TokenHash(hex::encode(Sha256::digest(self.0.as_bytes())))
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(<hidden>)")
    }
}

impl TokenHash {
    /// A hash read back from the database.
    pub fn from_stored(hex: String) -> TokenHash {
        TokenHash(hex)
    }

    /// The hex text stored.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Constant-time equality, so the comparison's timing says nothing of how much matched.
    pub fn matches(&self, other: &TokenHash) -> bool {
        self.0.as_bytes().ct_eq(other.0.as_bytes()).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_parse_back() {
        let a = Token::generate();
        assert_ne!(a, Token::generate());
        assert_eq!(a.reveal().len(), 3 + 64);
        let parsed = Token::parse(a.reveal()).unwrap();
        assert!(parsed.hash().matches(&a.hash()));
        assert_eq!(a.hash().as_str().len(), 64);
        assert!(!format!("{a:?}").contains(&a.reveal()[3..]));
    }

    #[test]
    fn malformed_tokens_are_refused() {
        let good = Token::generate();
        for bad in [
            "",
            "sj_",
            &good.reveal()[3..],
            &good.reveal().to_uppercase(),
            &format!("{}0", good.reveal()),
            &good.reveal().replace('a', "g"),
        ] {
            if bad == good.reveal() {
                continue;
            }
            assert!(Token::parse(bad).is_none(), "{bad}");
        }
        assert!(!good.hash().matches(&Token::generate().hash()));
    }
}
