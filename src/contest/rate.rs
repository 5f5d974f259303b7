//! The per-user submission rate: whether one more submission fits, and when it will.

use jiff::{SignedDuration, Timestamp};

use super::file::Rate;

impl Rate {
    /// `None` when a submission at `now` fits the rate given the user's earlier submission
    /// times `recent` (any order; older ones are ignored), else how long until it fits (the
    /// `Retry-After` of a 429).
    pub fn retry_after(&self, recent: &[Timestamp], now: Timestamp) -> Option<SignedDuration> {
        let since = now.saturating_sub(self.per).unwrap_or(Timestamp::MIN);
        let mut inside: Vec<Timestamp> = recent
            .iter()
            .copied()
            .filter(|t| *t > since && *t <= now)
            .collect();
        let allowed = usize::try_from(self.submissions).unwrap_or(usize::MAX);
        if inside.len() < allowed {
            return None;
        }
        inside.sort_unstable();
        // A slot frees when the submission `allowed` places from the newest leaves the span.
        let frees = inside[inside.len() - allowed]
            .saturating_add(self.per)
            .unwrap_or(Timestamp::MAX);
        Some(now.duration_until(frees).max(SignedDuration::from_secs(1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_counts_a_sliding_span_and_says_when_to_retry() {
        let rate = Rate {
            submissions: 2,
            per: SignedDuration::from_mins(1),
        };
        let t0: Timestamp = "2026-03-01T09:00:00Z".parse().unwrap();
        let at = |s: i64| t0 + SignedDuration::from_secs(s);
        assert_eq!(rate.retry_after(&[], at(0)), None);
        assert_eq!(rate.retry_after(&[at(0)], at(10)), None);
        assert_eq!(
            rate.retry_after(&[at(10), at(0)], at(20)),
            Some(SignedDuration::from_secs(40))
        );
        assert_eq!(rate.retry_after(&[at(0), at(10)], at(60)), None);
        // Already over (accepted before a rate change): wait until only one is left in the
        // span: the one at 10 s leaves it at 70 s.
        assert_eq!(
            rate.retry_after(&[at(0), at(10), at(15)], at(20)),
            Some(SignedDuration::from_secs(50))
        );
    }
}
