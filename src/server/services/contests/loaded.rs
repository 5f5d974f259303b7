//! The contests the daemon loaded, its contest clock and its cached boards: what the
//! [`AppState`](crate::server::AppState) holds of the contests (the services that read it are
//! beside this file; this one knows no state).

use std::collections::BTreeMap;
use std::sync::Arc;

use jiff::Timestamp;

use crate::contest::{Clock, Contest};
use crate::judge::JudgeMode;

use super::board_cache::BoardCache;

/// The contests the daemon loaded, its contest clock and its cached boards.
pub struct Contests {
    by_id: BTreeMap<String, Contest>,
    clock: Arc<dyn Clock>,
    pub(super) boards: BoardCache,
}

impl Contests {
    /// The daemon's contests on `clock`.
    pub fn new(contests: Vec<Contest>, clock: Arc<dyn Clock>) -> Contests {
        Contests {
            by_id: contests
                .into_iter()
                .map(|c| (c.id.as_str().to_string(), c))
                .collect(),
            clock,
            boards: BoardCache::default(),
        }
    }

    /// The contest `id`, if loaded.
    pub fn get(&self, id: &str) -> Option<&Contest> {
        self.by_id.get(id)
    }

    /// Every contest, by id.
    pub fn all(&self) -> impl Iterator<Item = &Contest> {
        self.by_id.values()
    }

    /// Now, on the contest clock.
    pub fn now(&self) -> Timestamp {
        self.clock.now()
    }

    /// How much each contest's submissions are judged (its format's mode), for the workers.
    pub fn judge_modes(&self) -> BTreeMap<String, JudgeMode> {
        self.by_id
            .iter()
            .map(|(id, c)| (id.clone(), c.format.judge_mode()))
            .collect()
    }
}
