//! Passwords: hashed with argon2id (the `argon2` crate's defaults, a random salt per hash, the
//! PHC string stored), checked in constant time, generated from a CSPRNG for `user add` and
//! `user import`.
//!
//! [`verify_with`] checks a password in memory the caller keeps and reuses (19 MiB with the
//! defaults): the server's few hashing threads ([`super::checks`]) each own one such buffer,
//! so a flood of logins costs no new memory per check.

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use rand::Rng;
use subtle::ConstantTimeEq;

use super::AccountError;

/// Shortest password accepted (NIST SP 800-63B's minimum for user-chosen secrets).
pub const MIN_PASSWORD_LEN: usize = 8;
/// Longest password accepted, in bytes (bounds the hashing work a login can ask for).
pub const MAX_PASSWORD_LEN: usize = 1024;
/// Length of generated passwords: 16 characters of a 55-symbol alphabet, about 92 bits.
pub const GENERATED_LEN: usize = 16;
/// Most memory a stored hash may ask a check for, in KiB (argon2 blocks): 256 MiB, far above
/// the 19 MiB of the hashes made here; a corrupt or planted hash asking more never matches.
pub const MAX_CHECK_KIB: u32 = 256 * 1024;
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

/// Memory a check can be computed in, kept by its owner from one check to the next.
pub trait BlockMemory {
    /// At least `blocks` argon2 blocks (grown if needed), or `None` when they cannot be had.
    fn blocks(&mut self, blocks: usize) -> Option<&mut [Block]>;
}

impl BlockMemory for Vec<Block> {
    fn blocks(&mut self, blocks: usize) -> Option<&mut [Block]> {
        if self.len() < blocks {
            self.resize(blocks, Block::default());
        }
        self.get_mut(..blocks)
    }
}

/// [`verify`] computed in `memory`, which is grown to the hash's size if needed and kept by
/// the caller for the next check (argon2 overwrites every block it uses, so nothing of one
/// check leaks into the next's result).
pub fn verify_with(password: &str, stored: &str, memory: &mut impl BlockMemory) -> bool {
    if password.len() > MAX_PASSWORD_LEN {
        return false;
    }
    let Ok(parsed) = PasswordHash::new(stored) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
        return false;
    };
    let Ok(algorithm) = Algorithm::try_from(parsed.algorithm) else {
        return false;
    };
    let version = match parsed.version.map(Version::try_from) {
        None => Version::default(),
        Some(Ok(v)) => v,
        Some(Err(_)) => return false,
    };
    let Ok(params) = Params::try_from(&parsed) else {
        return false;
    };
    if params.m_cost() > MAX_CHECK_KIB {
        return false;
    }
    let mut salt_bytes = [0u8; 64];
    let Ok(salt) = salt.decode_b64(&mut salt_bytes) else {
        return false;
    };
    let mut out = [0u8; 64];
    let Some(out) = out.get_mut(..expected.len()) else {
        return false;
    };
    let Some(blocks) = memory.blocks(params.block_count()) else {
        return false;
    };
    Argon2::new(algorithm, version, params)
        .hash_password_into_with_memory(password.as_bytes(), salt, out, blocks)
        .is_ok_and(|()| bool::from(out.ct_eq(expected.as_bytes())))
}

/// The stored hash a login of a name that does not exist is checked against: made once, with
/// the parameters of every real hash, so such a login costs the time of a real check.
pub fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| hash("not a password of anyone").unwrap_or_default())
}

/// Spends the time of one real check, for logins of names that do not exist, so the answer's
/// timing does not tell whether an account exists.
pub fn verify_dummy(password: &str) {
    let _ = verify(password, dummy_hash());
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
    fn checks_in_reused_memory_agree_with_the_crate() {
        let stored = hash("correct horse").unwrap();
        let mut memory = Vec::new();
        for _ in 0..2 {
            assert!(verify_with("correct horse", &stored, &mut memory));
            assert!(!verify_with("correct horsE", &stored, &mut memory));
        }
        assert_eq!(
            memory.len(),
            19 * 1024,
            "the default 19 MiB, allocated once"
        );
        assert!(!verify_with(
            "correct horse",
            "not a phc string",
            &mut memory
        ));
        // Another algorithm and smaller parameters, from the PHC string alone.
        let small = Argon2::new(
            Algorithm::Argon2i,
            Version::V0x10,
            Params::new(64, 3, 1, Some(20)).unwrap(),
        );
        let salt = SaltString::generate(&mut OsRng);
        let other = small.hash_password(b"pw 2", &salt).unwrap().to_string();
        assert!(verify_with("pw 2", &other, &mut memory));
        assert!(!verify_with("pw 3", &other, &mut memory));
        // A hash asking for more memory than allowed is never computed.
        let greedy = other.replace("m=64", &format!("m={}", MAX_CHECK_KIB + 1));
        assert!(!verify_with("pw 2", &greedy, &mut memory));
        assert_eq!(memory.len(), 19 * 1024);
        // The dummy has the parameters of every real hash.
        let params = |h: &str| PasswordHash::new(h).unwrap().params.to_string();
        assert_eq!(params(dummy_hash()), params(&stored));
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
