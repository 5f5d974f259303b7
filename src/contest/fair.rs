//! Which queued submission a free worker takes, fairly between contestants.

use std::collections::HashMap;

/// A submission waiting in the queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Queued {
    /// The submission's id; smaller ids were queued earlier.
    pub id: u64,
    /// Who submitted it.
    pub user: String,
    /// Made to a contest (contest submissions go before plain ones).
    pub contest: bool,
}

/// The submission a free worker should take: a contest submission before any plain one
/// (practice waits while contests run, so no flood of plain submissions delays a contest's),
/// then the oldest one of the user with the least judging in flight (`in_flight`: user ->
/// submissions being judged now), ties going to the user whose oldest waiting submission is
/// oldest. So one contestant's fifty slow submissions hold at most the workers they already
/// have, and another contestant's first submission goes next (DOMjudge gives teams with work
/// in progress a lower priority).
pub fn pick<'a>(queued: &'a [Queued], in_flight: &HashMap<String, usize>) -> Option<&'a Queued> {
    // The oldest of each user's is the smallest id of theirs, so the minimum over every
    // waiting submission is the oldest of the least busy user.
    queued.iter().min_by_key(|q| {
        (
            !q.contest,
            in_flight.get(&q.user).copied().unwrap_or(0),
            q.id,
        )
    })
}

#[cfg(test)]
mod tests;
