//! What a reader is shown of the log at an instant ([`Log::visible`]), and the events as
//! written to the feed.

use std::collections::HashMap;

use jiff::{SignedDuration, Timestamp};
use serde_json::{json, Value};

use super::key::{ms, Key};

/// How far behind the contest clock the feed stays, so a submission whose instant was read
/// just before it was stored is not passed by a reader.
pub const GRACE: SignedDuration = SignedDuration::from_secs(5);

/// One notification: `{"type","id","data","token"}`.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Its place.
    pub key: Key,
    /// The endpoint type (`contest`, `teams`, `submissions`...).
    pub kind: &'static str,
    /// The object's id, `None` for the contest and the state.
    pub id: Option<String>,
    /// The object.
    pub data: Value,
}

impl Event {
    /// The NDJSON line of this event (without the newline).
    pub fn line(&self) -> String {
        json!({"type": self.kind, "id": self.id, "data": self.data, "token": self.key.token()})
            .to_string()
    }
}

/// A contest's events in key order, and where a reader must stop while judging goes on.
#[derive(Debug, Clone, Default)]
pub struct Log {
    /// Every event, by key.
    pub events: Vec<Event>,
    /// Nothing at or after this key may be shown yet: a pending judgement goes there.
    pub blocked_at: Option<Key>,
}

impl Log {
    /// The events a reader may see at `now` (a prefix of [`Log::events`]).
    pub fn visible(&self, now: Timestamp) -> &[Event] {
        let horizon = Key::at(ms(now - GRACE).saturating_add(1), 0, i64::MIN);
        let limit = self.blocked_at.map_or(horizon, |b| b.min(horizon));
        let n = self.events.partition_point(|e| e.key < limit);
        &self.events[..n]
    }

    /// The visible events after `since` (all of them for `None`).
    pub fn since(&self, now: Timestamp, since: Option<Key>) -> &[Event] {
        let seen = self.visible(now);
        let from = since.map_or(0, |k| seen.partition_point(|e| e.key <= k));
        &seen[from..]
    }

    /// The current object of each id of `kind` among the visible events, by first
    /// appearance.
    pub fn objects(&self, now: Timestamp, kind: &str) -> Vec<Value> {
        let mut order: Vec<String> = Vec::new();
        let mut latest: HashMap<String, &Value> = HashMap::new();
        for e in self.visible(now).iter().filter(|e| e.kind == kind) {
            let id = e.id.clone().unwrap_or_default();
            if latest.insert(id.clone(), &e.data).is_none() {
                order.push(id);
            }
        }
        order.iter().map(|id| latest[id].clone()).collect()
    }

    /// The latest visible object of `kind` with no id (the contest, the state).
    pub fn singleton(&self, now: Timestamp, kind: &str) -> Option<Value> {
        self.visible(now)
            .iter()
            .rev()
            .find(|e| e.kind == kind)
            .map(|e| e.data.clone())
    }
}
