//! Which queued submission a free worker takes, fairly between contestants.

use std::collections::HashMap;

/// A submission waiting in the queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Queued {
    /// The submission's id; smaller ids were queued earlier.
    pub id: u64,
    /// Who submitted it.
    pub user: String,
}

/// The submission a free worker should take: the oldest one of the user with the least
/// judging in flight (`in_flight`: user -> submissions being judged now), ties going to the
/// user whose oldest waiting submission is oldest. So one contestant's fifty slow
/// submissions hold at most the workers they already have, and another contestant's first
/// submission goes next (DOMjudge gives teams with work in progress a lower priority).
pub fn pick<'a>(queued: &'a [Queued], in_flight: &HashMap<String, usize>) -> Option<&'a Queued> {
    let mut oldest: HashMap<&str, &Queued> = HashMap::new();
    for q in queued {
        oldest
            .entry(q.user.as_str())
            .and_modify(|o| {
                if q.id < o.id {
                    *o = q;
                }
            })
            .or_insert(q);
    }
    oldest
        .into_values()
        .min_by_key(|q| (in_flight.get(&q.user).copied().unwrap_or(0), q.id))
}

#[cfg(test)]
mod tests;
