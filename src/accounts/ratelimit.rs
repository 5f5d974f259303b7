//! Fixed-window counters keyed by anything (an account name, an address, a user id): at most
//! `max` events per `window`; past that, refused until the window ends, with the wait to send
//! as `Retry-After`. Used for login failures (per account and per address) and custom runs
//! (per user). Memory is bounded: a full table first drops finished windows, then the oldest.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Keys kept at most (a spray of made-up names cannot grow the table without bound).
pub const MAX_KEYS: usize = 100_000;

#[derive(Debug, Clone, Copy)]
struct Window {
    start: Instant,
    count: u32,
}

/// At most `max` events per key per `window`.
#[derive(Debug)]
pub struct Limiter<K> {
    max: u32,
    window: Duration,
    capacity: usize,
    entries: Mutex<HashMap<K, Window>>,
}

impl<K: Hash + Eq + Clone> Limiter<K> {
    /// A limiter allowing `max` events per `window` per key (`max` 0 refuses nothing).
    pub fn new(max: u32, window: Duration) -> Limiter<K> {
        Limiter::with_capacity(max, window, MAX_KEYS)
    }

    /// [`Limiter::new`] keeping at most `capacity` keys.
    pub fn with_capacity(max: u32, window: Duration, capacity: usize) -> Limiter<K> {
        Limiter {
            max,
            window,
            capacity: capacity.max(1),
            entries: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<K, Window>> {
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn wait(&self, w: &Window, now: Instant) -> Option<Duration> {
        let end = w.start + self.window;
        (self.max > 0 && w.count >= self.max && now < end).then(|| end - now)
    }

    /// `Err(wait)` when the key has used up its window, without counting anything.
    pub fn check(&self, key: &K, now: Instant) -> Result<(), Duration> {
        match self.lock().get(key).and_then(|w| self.wait(w, now)) {
            Some(wait) => Err(wait),
            None => Ok(()),
        }
    }

    /// Counts one event; `Err(wait)` (and nothing counted) when the window is used up.
    pub fn hit(&self, key: &K, now: Instant) -> Result<(), Duration> {
        if self.max == 0 {
            return Ok(());
        }
        let mut entries = self.lock();
        if let Some(w) = entries.get_mut(key) {
            if now >= w.start + self.window {
                *w = Window {
                    start: now,
                    count: 0,
                };
            }
            if let Some(wait) = self.wait(w, now) {
                return Err(wait);
            }
            w.count += 1;
            return Ok(());
        }
        if entries.len() >= self.capacity {
            let window = self.window;
            entries.retain(|_, w| now < w.start + window);
        }
        if entries.len() >= self.capacity {
            if let Some(oldest) = entries
                .iter()
                .min_by_key(|(_, w)| w.start)
                .map(|(k, _)| k.clone())
            {
                entries.remove(&oldest);
            }
        }
        entries.insert(
            key.clone(),
            Window {
                start: now,
                count: 1,
            },
        );
        Ok(())
    }

    /// Forgets a key (a successful login clears its account's failures).
    pub fn reset(&self, key: &K) {
        self.lock().remove(key);
    }

    /// Number of keys held (for tests).
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no key is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// `Retry-After` seconds for a wait: rounded up, at least 1.
pub fn retry_after_secs(wait: Duration) -> u64 {
    let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    secs.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_past_max_until_the_window_ends() {
        let l = Limiter::new(3, Duration::from_secs(60));
        let t0 = Instant::now();
        for _ in 0..3 {
            l.hit(&"a", t0).unwrap();
        }
        let wait = l.hit(&"a", t0 + Duration::from_secs(10)).unwrap_err();
        assert_eq!(wait, Duration::from_secs(50));
        assert_eq!(l.check(&"a", t0), Err(Duration::from_secs(60)));
        l.hit(&"b", t0).unwrap();
        l.hit(&"a", t0 + Duration::from_secs(60)).unwrap();
        l.check(&"a", t0 + Duration::from_secs(60)).unwrap();
    }

    #[test]
    fn reset_clears_and_zero_means_unlimited() {
        let l = Limiter::new(1, Duration::from_secs(60));
        let t0 = Instant::now();
        l.hit(&1, t0).unwrap();
        assert!(l.hit(&1, t0).is_err());
        l.reset(&1);
        l.hit(&1, t0).unwrap();
        let free = Limiter::new(0, Duration::from_secs(60));
        for _ in 0..100 {
            free.hit(&1, t0).unwrap();
        }
    }

    #[test]
    fn the_table_stays_bounded() {
        let l = Limiter::with_capacity(5, Duration::from_secs(60), 10);
        let t0 = Instant::now();
        for i in 0..1000 {
            l.hit(&i, t0 + Duration::from_millis(i)).unwrap();
        }
        assert_eq!(l.len(), 10);
    }

    #[test]
    fn retry_after_rounds_up() {
        assert_eq!(retry_after_secs(Duration::from_millis(1)), 1);
        assert_eq!(retry_after_secs(Duration::from_millis(1500)), 2);
        assert_eq!(retry_after_secs(Duration::from_secs(3)), 3);
    }
}
