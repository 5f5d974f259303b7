//! Where contest time comes from: the real clock in the daemon, a fake one in tests.

use std::sync::Mutex;

use jiff::{SignedDuration, Timestamp};

/// The time source of every contest rule, so the rules are tested without sleeping.
pub trait Clock: Send + Sync {
    /// The current instant.
    fn now(&self) -> Timestamp;
}

/// The system's wall clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::now()
    }
}

/// A clock that stands still until a test moves it.
#[derive(Debug)]
pub struct FakeClock {
    now: Mutex<Timestamp>,
}

impl FakeClock {
    /// A clock showing `now`.
    pub fn new(now: Timestamp) -> FakeClock {
        FakeClock {
            now: Mutex::new(now),
        }
    }

    /// Moves the clock to `now`.
    pub fn set(&self, now: Timestamp) {
        *self.now.lock().unwrap_or_else(|e| e.into_inner()) = now;
    }

    /// Moves the clock forward (or back, with a negative span) by `by`.
    pub fn advance(&self, by: SignedDuration) {
        let mut now = self.now.lock().unwrap_or_else(|e| e.into_inner());
        *now = now.saturating_add(by).unwrap_or(*now);
    }
}

impl Clock for FakeClock {
    fn now(&self) -> Timestamp {
        *self.now.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fake_clock_moves_only_when_told() {
        let start: Timestamp = "2009-11-21T00:30:00Z".parse().unwrap();
        let clock = FakeClock::new(start);
        assert_eq!(clock.now(), start);
        clock.advance(SignedDuration::from_mins(90));
        assert_eq!(clock.now().to_string(), "2009-11-21T02:00:00Z");
        clock.set(start);
        assert_eq!(clock.now(), start);
        assert!(SystemClock.now() > start);
    }
}
