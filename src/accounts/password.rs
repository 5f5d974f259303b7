//! Passwords: hashed with argon2id (the `argon2` crate's defaults, a random salt per hash, the
//! PHC string stored), checked in the crate's constant-time comparison, generated from a
//! CSPRNG for `user add` and `user import`.

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use rand::Rng;

use super::AccountError;

/// Shortest password accepted (NIST SP 800-63B's minimum for user-chosen secrets).
pub const MIN_PASSWORD_LEN: usize = 8;
/// Longest password accepted, in bytes (bounds the hashing work a login can ask for).
pub const MAX_PASSWORD_LEN: usize = 1024;
/// Length of generated passwords: 16 characters of a 55-symbol alphabet, about 92 bits.
pub const GENERATED_LEN: usize = 16;
/// Letters and digits without the look-alikes (0/O/o, 1/l/I) hosts must read out or print.
const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789";

/// Checks a chosen password's length (the only rule: long enough, not absurdly long).
pub fn check_strength(password: &str) -> Result<(), AccountError> {
    if password.is_empty() {
        return Err(AccountError::BadPassword("the password is empty".into()));
    }
    if password.chars().count() < MIN_PASSWORD_LEN {
        return Err(AccountError::BadPassword(format!(
            "the password is too short: at least {MIN_PASSWORD_LEN} characters"
        )));
    }
    if password.len() > MAX_PASSWORD_LEN {
        return Err(AccountError::BadPassword(format!(
            "the password is too long: at most {MAX_PASSWORD_LEN} bytes"
        )));
    }
    Ok(())
}

/// A new random password for a user who did not choose one.
pub fn generate() -> String {
    let mut rng = rand::rngs::OsRng;
    (0..GENERATED_LEN)
        .map(|_| char::from(ALPHABET[rng.gen_range(0..ALPHABET.len())]))
        .collect()
}

/// The argon2id PHC string of a password (`$argon2id$v=19$...`), with a fresh salt.
pub fn hash(password: &str) -> Result<String, AccountError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| AccountError::Hash(e.to_string()))
}

/// Whether `password` matches a stored PHC string. A corrupt stored hash never matches.
pub fn verify(password: &str, stored: &str) -> bool {
    if password.len() > MAX_PASSWORD_LEN {
        return false;
    }
    match PasswordHash::new(stored) {
        Ok(parsed) => Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    }
}

/// Spends the time of one real check, for logins of names that do not exist, so the answer's
/// timing does not tell whether an account exists.
pub fn verify_dummy(password: &str) {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let stored = DUMMY.get_or_init(|| hash("not a password of anyone").unwrap_or_default());
    let _ = verify(password, stored);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_argon2id_salted_and_verifies() {
        let a = hash("correct horse").unwrap();
        let b = hash("correct horse").unwrap();
        assert!(a.starts_with("$argon2id$"), "{a}");
        assert_ne!(a, b, "a fresh salt per hash");
        assert!(verify("correct horse", &a));
        assert!(!verify("correct horsE", &a));
        assert!(!verify("correct horse", "not a phc string"));
    }

    #[test]
    fn strength_rules() {
        assert!(check_strength("")
            .unwrap_err()
            .to_string()
            .contains("empty"));
        assert!(check_strength("short")
            .unwrap_err()
            .to_string()
            .contains("too short"));
        assert!(check_strength(&"x".repeat(1025)).is_err());
        check_strength("eight ch").unwrap();
    }

    #[test]
    fn generated_passwords_are_long_and_differ() {
        let a = generate();
        assert_eq!(a.len(), GENERATED_LEN);
        assert!(a.bytes().all(|b| ALPHABET.contains(&b)));
        assert_ne!(a, generate());
        check_strength(&a).unwrap();
    }
}
