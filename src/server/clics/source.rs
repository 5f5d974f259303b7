//! Where the Contest API's objects come from: the contest and the store's records, read
//! into a [`Log`] per contest and audience, kept while the contest's data version is the
//! same (every change a board shows bumps it, by trigger); and the bounds on event-feed
//! connections.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::accounts::{access, Caller};
use crate::contest::{Audience, Contest};
use crate::store::{ContestStore, GroupStore, JudgementStore, JudgingStore};

use super::super::auth::allow;
use super::super::contests::find;
use super::super::contests::full_scores::max_scores;
use super::super::error::{ApiError, ApiResult};
use super::super::state::AppState;
use super::log::{build, Inputs, Log};
use super::mapping::{self, LanguageInfo, ProblemInfo};
use super::rejudged;

/// Event-feed connections one caller may hold at once.
pub const FEEDS_PER_CALLER: usize = 4;
/// Event-feed connections the daemon serves at once.
pub const FEEDS_TOTAL: usize = 64;
/// Objects in one answer of a collection at most (`?after=` asks for the next ones).
pub const PAGE_MAX: usize = 10_000;

/// Computed logs by contest and audience (the jury's or not), each with the data version it
/// was computed from.
type Logs = HashMap<(String, bool), (u64, Arc<Log>)>;

/// The Contest API's shared state: computed logs and the open feeds.
#[derive(Default)]
pub struct Clics {
    logs: Mutex<Logs>,
    feeds: Mutex<Feeds>,
}

#[derive(Default)]
struct Feeds {
    by_caller: HashMap<String, usize>,
    total: usize,
}

/// An open feed connection; dropping it frees its place.
pub struct FeedSlot {
    clics: Arc<Clics>,
    caller: String,
}

impl Drop for FeedSlot {
    fn drop(&mut self) {
        let mut f = self.clics.feeds.lock().unwrap_or_else(|e| e.into_inner());
        f.total = f.total.saturating_sub(1);
        if let Some(n) = f.by_caller.get_mut(&self.caller) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                f.by_caller.remove(&self.caller);
            }
        }
    }
}

impl Clics {
    /// A place for one more feed of `caller`: 429 past [`FEEDS_PER_CALLER`], 503 past
    /// [`FEEDS_TOTAL`].
    pub fn open_feed(self: &Arc<Self>, caller: &Caller) -> ApiResult<FeedSlot> {
        let who = match caller {
            Caller::User(u) => u.name.as_str().to_string(),
            Caller::Open => String::from("(open mode)"),
            Caller::Anonymous => String::from("(anonymous)"),
        };
        let mut f = self.feeds.lock().unwrap_or_else(|e| e.into_inner());
        if f.by_caller.get(&who).copied().unwrap_or(0) >= FEEDS_PER_CALLER {
            return Err(ApiError::RateLimited {
                retry_after_secs: 10,
                message: format!(
                    "{who} holds {FEEDS_PER_CALLER} event feeds already, the most one caller may"
                ),
            });
        }
        if f.total >= FEEDS_TOTAL {
            return Err(ApiError::Busy {
                message: format!("{FEEDS_TOTAL} event feeds are open, the most this server serves"),
                retry_after_s: 10,
            });
        }
        f.total += 1;
        *f.by_caller.entry(who.clone()).or_insert(0) += 1;
        Ok(FeedSlot {
            clics: Arc::clone(self),
            caller: who,
        })
    }

    fn cached(&self, id: &str, jury: bool, version: u64) -> Option<Arc<Log>> {
        let logs = self.logs.lock().unwrap_or_else(|e| e.into_inner());
        logs.get(&(id.to_string(), jury))
            .filter(|(v, _)| *v == version)
            .map(|(_, l)| Arc::clone(l))
    }

    fn keep(&self, id: &str, jury: bool, version: u64, log: Arc<Log>) {
        let mut logs = self.logs.lock().unwrap_or_else(|e| e.into_inner());
        let slot = logs
            .entry((id.to_string(), jury))
            .or_insert((version, Arc::clone(&log)));
        if slot.0 <= version {
            *slot = (version, log);
        }
    }
}

/// The contest `id` if `caller` may read it through the Contest API: signed in (as every
/// contest route), and a contest with a start and a duration (404 for open timing).
pub fn contest(state: &AppState, caller: &Caller, id: &str) -> ApiResult<Arc<Contest>> {
    allow(access::read_contest(caller), String::new)?;
    let c = find(state, id)?;
    if !mapping::served(&c) {
        return Err(ApiError::NotFound(format!(
            "contest {id:?} has open timing: the Contest API describes contests with a start \
             and a duration"
        )));
    }
    Ok(c)
}

/// The log of contest `id` as `caller` may read it (the jury's whole, the public's with
/// what the format hides held back).
pub async fn log(
    state: &AppState,
    clics: &Clics,
    caller: &Caller,
    id: &str,
) -> ApiResult<Arc<Log>> {
    let c = contest(state, caller, id)?;
    let audience = access::contest_audience(caller);
    let jury = audience == Audience::Admin;
    let version = state.store.contest_state(id).await?.version;
    if let Some(l) = clics.cached(id, jury, version) {
        return Ok(l);
    }
    if version == 0 {
        // No counters row yet: made now, so a user grouped later moves this log's version.
        state.store.track_contest(id).await?;
    }
    let data = state.store.board_data(id).await?;
    let mut members = Vec::new();
    for group in &c.groups {
        members.extend(state.store.members(group).await?);
    }
    let language_of = state.store.contest_languages(id).await?;
    let rejudged = rejudged::by_submission(
        &state.store.rejudged(id).await?,
        &state.store.immediate_rejudges(id).await?,
    );
    let full = max_scores(state, &c);
    let problems: Vec<ProblemInfo> = c
        .problems
        .iter()
        .enumerate()
        .map(|(n, p)| {
            let pkg = state.problems.get(&p.problem);
            let pkg = pkg.as_deref();
            ProblemInfo {
                label: p.label.to_string(),
                name: pkg.map_or_else(|| p.problem.clone(), |x| x.title.clone()),
                ordinal: n + 1,
                time_limit_ms: pkg.map_or(0, |x| x.time_limit_ms),
                tests: pkg.map_or(0, |x| x.tests.len()),
                max_score: full[n],
            }
        })
        .collect();
    let languages: Vec<LanguageInfo> = state
        .language_table
        .iter()
        .map(|l| LanguageInfo {
            id: l.id.clone(),
            name: l.name.clone(),
            extensions: l.extensions.clone(),
        })
        .collect();
    let log = Arc::new(build(&Inputs {
        contest: &c,
        problems: &problems,
        languages: &languages,
        participants: &data.participants,
        members: &members,
        submissions: &data.submissions,
        language_of: &language_of,
        rejudged: &rejudged,
        unfrozen: data.state.unfrozen,
        audience,
    }));
    clics.keep(id, jury, data.state.version, Arc::clone(&log));
    Ok(log)
}
