//! Fixed-window counters keyed by anything (an account name, an address, a user id): at most
//! `max` events per `window`; past that, refused until the window ends, with the wait to send
//! as `Retry-After`. Used for login attempts (per network and name, per network; see
//! [`network_of`]) and custom runs (per user). Memory is bounded: a full table first drops
//! finished windows, then the oldest.
//!
//! A login attempt is [`Limiter::reserve`]d *before* its password is checked and
//! [`Limiter::release`]d when it succeeds: counting only after a failed check let every
//! request in flight pass (200 parallel guesses were all checked against a limit of 5).

use std::collections::HashMap;
use std::hash::Hash;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
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
        self.reserve(key, now)
    }

    /// Takes one event of the key's window before the work it stands for (a password check),
    /// so concurrent requests cannot all pass a check made before any of them is counted:
    /// `Err(wait)` (and nothing counted) when the window is used up. Give it back with
    /// [`Limiter::release`] when the work turns out not to count (a successful login, a
    /// refusal for another reason).
    pub fn reserve(&self, key: &K, now: Instant) -> Result<(), Duration> {
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

    /// Gives back one event taken by [`Limiter::reserve`] (nothing when the key's window has
    /// since been dropped or restarted at zero).
    pub fn release(&self, key: &K) {
        if let Some(w) = self.lock().get_mut(key) {
            w.count = w.count.saturating_sub(1);
        }
    }

    /// Events counted in the key's window (0 for an unknown key; for tests).
    pub fn count(&self, key: &K) -> u32 {
        self.lock().get(key).map_or(0, |w| w.count)
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

/// The network a client address belongs to, as the key of per-network limits: its /24 for
/// IPv4 and its /64 for IPv6 (an IPv4-mapped IPv6 address counts as the IPv4 one). One host
/// commonly holds a whole /64, and a /24 is the smallest block routed on the Internet, so a
/// client cannot multiply its allowance by changing its own address within them.
pub fn network_of(addr: IpAddr) -> IpAddr {
    match addr {
        IpAddr::V4(v4) => {
            let [a, b, c, _] = v4.octets();
            IpAddr::V4(Ipv4Addr::new(a, b, c, 0))
        }
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => network_of(IpAddr::V4(v4)),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
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
    fn reservations_are_counted_at_once_and_given_back() {
        let l = Limiter::new(2, Duration::from_secs(60));
        let t0 = Instant::now();
        l.reserve(&"a", t0).unwrap();
        l.reserve(&"a", t0).unwrap();
        // Both are in flight: a third is refused before any of them finishes.
        assert!(l.reserve(&"a", t0).is_err());
        assert_eq!(l.count(&"a"), 2);
        l.release(&"a");
        assert_eq!(l.count(&"a"), 1);
        l.reserve(&"a", t0).unwrap();
        l.release(&"nobody");
        assert_eq!(l.count(&"nobody"), 0);
    }

    #[test]
    fn networks_are_slash_24_and_slash_64() {
        let net = |s: &str| network_of(s.parse().unwrap()).to_string();
        assert_eq!(net("127.0.0.1"), "127.0.0.0");
        assert_eq!(net("127.3.9.200"), "127.3.9.0");
        assert_eq!(net("::ffff:10.1.2.3"), "10.1.2.0");
        assert_eq!(net("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::");
        assert_eq!(net("::1"), "::");
        assert_eq!(
            network_of("192.0.2.1".parse().unwrap()),
            network_of("192.0.2.254".parse().unwrap())
        );
    }

    #[test]
    fn retry_after_rounds_up() {
        assert_eq!(retry_after_secs(Duration::from_millis(1)), 1);
        assert_eq!(retry_after_secs(Duration::from_millis(1500)), 2);
        assert_eq!(retry_after_secs(Duration::from_secs(3)), 3);
    }
}
