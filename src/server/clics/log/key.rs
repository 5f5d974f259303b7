//! Where an event sits in the log ([`Key`]) and the token written from it.

use jiff::Timestamp;

/// Where an event sits in the log; its token is this written out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    /// Milliseconds since the epoch on the contest clock (`i64::MIN`: configuration).
    pub t: i64,
    /// The kind of event at that instant (see the `K_*` constants).
    pub kind: u8,
    /// The object's number within its kind.
    pub id: i64,
    /// 0 for a submission, 1 for its judgement.
    pub sub: u8,
}

pub(super) const K_STATE: u8 = 0;
pub(super) const K_TYPES: u8 = 1;
pub(super) const K_LANGUAGES: u8 = 2;
pub(super) const K_PROBLEMS: u8 = 3;
pub(super) const K_TEAMS: u8 = 4;
pub(super) const K_SUBMISSIONS: u8 = 6;
pub(super) const K_FINALIZED: u8 = 7;
pub(super) const K_REVEALED: u8 = 8;
pub(super) const K_THAWED: u8 = 9;
/// The judgements applied rejudgings made, at their apply instants ([`super::super::rejudged`]).
pub(super) const K_REJUDGED: u8 = 10;
/// An immediate rejudge's new judgement again when its judging ended, after every
/// judgement made at the rejudge's instant.
pub(super) const K_JUDGED_AGAIN: u8 = 11;

impl Key {
    pub(super) const fn at(t: i64, kind: u8, id: i64) -> Key {
        Key {
            t,
            kind,
            id,
            sub: 0,
        }
    }

    /// The token of this key (opaque to clients).
    pub fn token(&self) -> String {
        format!(
            "{:x}-{:x}-{:x}-{:x}",
            (self.t as u64) ^ (1 << 63),
            self.kind,
            self.id as u64,
            self.sub
        )
    }

    /// The key of a token, `None` for anything [`Key::token`] does not write.
    pub fn parse(token: &str) -> Option<Key> {
        let parts: Vec<&str> = token.split('-').collect();
        let [t, kind, id, sub] = parts.as_slice() else {
            return None;
        };
        let hex = |s: &str| {
            (!s.is_empty() && s.len() <= 16)
                .then(|| u64::from_str_radix(s, 16).ok())
                .flatten()
        };
        let key = Key {
            t: (hex(t)? ^ (1 << 63)) as i64,
            kind: u8::try_from(hex(kind)?).ok()?,
            id: hex(id)? as i64,
            sub: u8::try_from(hex(sub)?).ok()?,
        };
        (key.token() == token).then_some(key)
    }
}

/// An instant as a key's `t`: milliseconds since the epoch.
pub(super) fn ms(t: Timestamp) -> i64 {
    t.as_millisecond()
}
