//! Keeping this node's contests current (issue 30, point 2):
//!
//! - **The database's contests** (made or edited on the admin page or through the API, on any
//!   node): before each request that may read a contest, [`sync`] reads their version (the
//!   sum of the revisions; one read shared by the requests that arrive while it runs) and,
//!   when it moved, reads them all again. So a request that arrives after an edit committed
//!   on another node is served the edited contest: no notification to miss, no poll delay.
//! - **The contest files**: [`watch_files`] looks at the folder every
//!   [`FILE_POLL`] (names, sizes and modification times of its `*.toml`) and reads it again
//!   when it changed. A file that became broken, or whose change would rewrite the contest's
//!   history (the rules of [`crate::contest::edit`]), is refused with the reason in the log
//!   and on the admin page, and its last sound version stays served.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use crate::contest::{self, edit, Contest};
use crate::server::state::AppState;
use crate::store::contest_removal::TOMBSTONE;
use crate::store::{ContestDefStore, Store, StoreError};
use crate::worker::Problems;

use super::loaded::{Contests, SourceRead};

/// How often the contest folder is looked at.
pub const FILE_POLL: Duration = Duration::from_secs(1);

/// The path a database contest's messages name.
pub fn database_origin(id: &str) -> PathBuf {
    PathBuf::from(format!("database:{id}"))
}

/// Whether a request to `path` may read a contest (the assets, health and metrics do not).
pub fn reads_contests(path: &str) -> bool {
    !(path.starts_with("/static/") || path == "/api/health" || path == "/metrics")
}

/// Brings this node's database contests up to date (see the module's notes).
pub async fn sync(state: &AppState) -> Result<(), StoreError> {
    let version = state.contests.defs_reads.read(&state.store).await?;
    if state.contests.db_version() == Some(version) {
        return Ok(());
    }
    reload_database(state).await
}

/// Reads every database contest again (after this node's own edit, or when [`sync`] saw the
/// version move).
pub async fn reload_database(state: &AppState) -> Result<(), StoreError> {
    load_database(&state.store, &state.contests, &known_problems(state)).await
}

/// Reads every database contest of `store` into `contests` (the problems being `known`).
pub async fn load_database(
    store: &Store,
    contests: &Contests,
    known: &[String],
) -> Result<(), StoreError> {
    let _one = contests.reloading.lock().await;
    let stored = store.contest_defs().await?;
    let version: u64 = stored.iter().map(|s| s.revision).sum();
    if contests.db_version() == Some(version) {
        return Ok(());
    }
    let mut read = SourceRead::default();
    // A deleted contest's tombstone counts in the version, and is not served.
    for s in stored.into_iter().filter(|s| s.definition != TOMBSTONE) {
        let loaded = Contest::from_text(&s.id, &database_origin(&s.id), &s.definition)
            .map_err(|errors| {
                errors
                    .iter()
                    .map(|e| format!("{}: {}", e.field, e.message))
                    .collect::<Vec<_>>()
                    .join("; ")
            })
            .and_then(|c| contest::check_problems(c, known).map_err(|e| e.to_string()));
        match loaded {
            Ok(c) => read.contests.push((c, s.revision)),
            Err(why) => {
                tracing::error!(contest = %s.id, %why, "a stored contest no longer loads");
                read.refused
                    .push(format!("contest {:?} (database): {why}", s.id));
            }
        }
    }
    contests.install_database(version, read);
    Ok(())
}

/// How often a judge-only node (`sudojudge worker`, no requests to check at) reads the
/// database contests' version, to judge a contest made or edited at runtime in its mode.
pub const WORKER_POLL: Duration = Duration::from_secs(2);

/// Keeps a judge-only node's contests (and so its workers' judge modes) current with the
/// database, every [`WORKER_POLL`], until the process ends.
pub async fn follow_database(store: Store, contests: Arc<Contests>, problems: Arc<Problems>) {
    loop {
        // Read each pass: a package uploaded to another node arrives here while we run.
        let known = problems.keys();
        let current = store.defs_version().await;
        match current {
            Ok(v) if contests.db_version() != Some(v) => {
                if let Err(e) = load_database(&store, &contests, &known).await {
                    tracing::warn!(error = %e, "cannot read the database's contests");
                }
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "cannot read the database contests' version"),
        }
        tokio::time::sleep(WORKER_POLL).await;
    }
}

/// The problem ids this node has.
pub fn known_problems(state: &AppState) -> Vec<String> {
    state.problems.keys()
}

/// What identifies the folder's contest files as they are on disk.
type Stamp = Vec<(PathBuf, u64, Option<SystemTime>)>;

fn stamp(dir: &Path) -> Stamp {
    let mut out: Stamp = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "toml"))
        .map(|e| {
            let meta = e.metadata().ok();
            (
                e.path(),
                meta.as_ref().map_or(0, |m| m.len()),
                meta.and_then(|m| m.modified().ok()),
            )
        })
        .collect();
    out.sort();
    out
}

/// Reads the contest files again whenever the folder changes, until `stop` turns true.
pub async fn watch_files(state: AppState, mut stop: tokio::sync::watch::Receiver<bool>) {
    let Some(dir) = state.contests.files_dir().cloned() else {
        return;
    };
    let mut last = stamp(&dir);
    loop {
        tokio::select! {
            _ = tokio::time::sleep(FILE_POLL) => {}
            _ = stop.changed() => {}
        }
        if *stop.borrow() {
            return;
        }
        let now = stamp(&dir);
        if now == last {
            continue;
        }
        last = now;
        if let Err(e) = reload_files(&state, &dir).await {
            tracing::error!(error = %e, "reading the contest files again failed");
        }
    }
}

/// Reads the contest files of `dir` again: sound ones replace their old version unless the
/// change would rewrite history; broken or refused ones keep their last sound version.
pub async fn reload_files(state: &AppState, dir: &Path) -> Result<(), StoreError> {
    let known = known_problems(state);
    let (fresh, errors) = match contest::load_all(dir, &known) {
        Ok(read) => read,
        Err(e) => {
            tracing::error!(error = %e, "cannot list the contest files");
            return Ok(());
        }
    };
    let old = state.contests.file_contests();
    let mut read = SourceRead::default();
    for e in errors {
        let why = format!("contest {e} (the last sound version stays served)");
        tracing::error!(%why, "a contest file is refused");
        read.refused.push(why);
        let (contest::ContestError::Invalid { file, .. }
        | contest::ContestError::Syntax { file, .. }
        | contest::ContestError::Read { file, .. }) = &e;
        if let Some(o) = old.iter().find(|o| &o.path == file) {
            read.contests.push((o.clone(), 0));
        }
    }
    let now = state.contests.now();
    for c in fresh {
        let Some(before) = old.iter().find(|o| o.id == c.id) else {
            tracing::info!(contest = %c.id, "contest file added");
            read.contests.push((c, 0));
            continue;
        };
        if contest::definition::ContestDefinition::of(before)
            == contest::definition::ContestDefinition::of(&c)
        {
            read.contests.push((c, 0));
            continue;
        }
        let history = edit::History {
            now: Some(now),
            labels_with_submissions: state
                .store
                .labels_with_submissions(c.id.as_str())
                .await?
                .into_iter()
                .collect(),
        };
        let refusals = edit::refusals(before, &c, &history);
        if refusals.is_empty() {
            tracing::info!(contest = %c.id, "contest file changed: reloaded");
            state.store.touch_contest(c.id.as_str()).await?;
            read.contests.push((c, 0));
        } else {
            let why = format!(
                "contest {}: the change would rewrite the contest's history, refused ({}); \
                 the last sound version stays served",
                c.path.display(),
                refusals
                    .iter()
                    .map(|r| format!("key `{}`: {}", r.field, r.message))
                    .collect::<Vec<_>>()
                    .join("; ")
            );
            tracing::error!(%why, "a contest file change is refused");
            read.refused.push(why);
            read.contests.push((before.clone(), 0));
        }
    }
    // A file removed from the folder: its contest is no longer served (its records stay).
    let before = state.contests.refused();
    state.contests.install_files(read);
    for why in state.contests.refused() {
        if !before.contains(&why) && why.contains("is taken") {
            tracing::error!(%why, "a contest file is not served");
        }
    }
    Ok(())
}
