//! [`ContestStore`] for [`Store`] (the contest tables of migrations/sqlite/0004_contests.sql
//! and migrations/postgres/0001_schema.sql). A board's version is bumped by triggers on
//! `submissions`, so every writer (submit, claim, complete, rejudge, a crash's requeue)
//! invalidates cached boards without knowing about them. The per-user rates are counted under
//! a lock of (contest, user) held to the commit ([`Dialect::lock`]), so concurrent
//! submissions of one contestant through any API node are counted one after the other.

use std::collections::HashMap;

use jiff::Timestamp;

use super::queue::requeued;
use crate::contest::Rate;
use crate::store::any::each;
use crate::store::contest_rows::{assemble_board, rate_wait, ClarificationRow, UNANSWERED};
use crate::store::contests::{
    db_time, parse_db_time, BoardData, Clarification, ClarificationAdded, ClarificationPage,
    ContestEnqueue, ContestState, ContestStore, NewClarification, NewContestSubmission,
    RejudgeCount,
};
use crate::store::dialect::Dialect;
use crate::store::gauges::QUEUED;
use crate::store::node_data::NodeData;
use crate::store::queue::OWNER_QUEUED;
use crate::store::{Store, StoreError, StoreNode};

/// When a contestant's clock started, by contest (`$1`) and user (`$2`).
const STARTED: &str =
    "SELECT started_at FROM contest_participations WHERE contest = $1 AND user_id = $2";

/// Records a participant (`$1` contest, `$2` user, `$3` start) unless they take part already.
const PARTICIPATE: &str = "INSERT INTO contest_participations (contest, user_id, started_at)
     VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";

/// The contest-clock instants of `$2`'s submissions to contest `$1` after `$3`.
const RECENT_SUBMISSIONS: &str =
    "SELECT submitted_at FROM submissions WHERE contest = $1 AND user_id = $2 AND submitted_at > $3";

/// The contest-clock instants of `$2`'s questions in contest `$1` after `$3`.
const RECENT_QUESTIONS: &str = "SELECT created_at FROM clarifications
     WHERE contest = $1 AND author_id = $2 AND question IS NOT NULL AND created_at > $3";

/// A contest's counters.
const STATE: &str = "SELECT version, unfrozen FROM contest_state WHERE contest = $1";

impl ContestStore for Store {
    async fn participation(
        &self,
        contest: &str,
        user_id: i64,
    ) -> Result<Option<Timestamp>, StoreError> {
        let started: Option<String> = each!(self, |db| sqlx::query_scalar(STARTED)
            .bind(contest)
            .bind(user_id)
            .fetch_optional(db.read())
            .await?);
        started.as_deref().map(parse_db_time).transpose()
    }

    async fn start_participation(
        &self,
        contest: &str,
        user_id: i64,
        at: Timestamp,
    ) -> Result<(Timestamp, bool), StoreError> {
        each!(self, |db| {
            let mut tx = db.write().await?;
            let inserted = sqlx::query(PARTICIPATE)
                .bind(contest)
                .bind(user_id)
                .bind(db_time(at))
                .execute(&mut *tx)
                .await?
                .rows_affected();
            let started: String = sqlx::query_scalar(STARTED)
                .bind(contest)
                .bind(user_id)
                .fetch_one(&mut *tx)
                .await?;
            if inserted > 0 {
                // A change the board shows that no trigger sees.
                sqlx::query(
                    "INSERT INTO contest_state (contest, version) VALUES ($1, 1)
                     ON CONFLICT (contest) DO UPDATE SET version = contest_state.version + 1",
                )
                .bind(contest)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok((parse_db_time(&started)?, inserted > 0))
        })
    }

    async fn enqueue_contest(
        &self,
        new: NewContestSubmission,
    ) -> Result<ContestEnqueue, StoreError> {
        let s = &new.submission;
        each!(self, |db| {
            let mut tx = db.write().await?;
            if let (Some(owner), Some(per_user)) = (s.owner, new.max_per_user) {
                // Held to the commit, before the contest's lock (the plain route takes only
                // this one): the owner's count is exact on every node.
                db.lock(&mut tx, &format!("queued/{owner}")).await?;
                let mine: i64 = sqlx::query_scalar(OWNER_QUEUED)
                    .bind(owner)
                    .fetch_one(&mut *tx)
                    .await?;
                if u64::try_from(mine).unwrap_or(0) >= per_user {
                    tx.rollback().await?;
                    return Ok(ContestEnqueue::OwnerFull);
                }
            }
            let depth: i64 = sqlx::query_scalar(QUEUED).fetch_one(&mut *tx).await?;
            if u64::try_from(depth).unwrap_or(0) >= new.max_queued {
                tx.rollback().await?;
                return Ok(ContestEnqueue::QueueFull);
            }
            if let (Some(rate), Some(owner)) = (new.rate, s.owner) {
                // Held to the commit: the next submission of this contestant counts this one.
                db.lock(&mut tx, &format!("{}/{owner}", new.contest))
                    .await?;
                if let Some(wait) = rate_wait(
                    &mut tx,
                    RECENT_SUBMISSIONS,
                    &new.contest,
                    owner,
                    &rate,
                    new.at,
                )
                .await?
                {
                    tx.rollback().await?;
                    return Ok(ContestEnqueue::RateLimited(wait));
                }
            }
            if let (true, Some(owner)) = (new.register, s.owner) {
                sqlx::query(PARTICIPATE)
                    .bind(&new.contest)
                    .bind(owner)
                    .bind(db_time(new.at))
                    .execute(&mut *tx)
                    .await?;
            }
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO submissions (problem, language, source, user_id, contest, label,
                                          submitted_at, submitted_data_hash)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
            )
            .bind(&s.problem)
            .bind(&s.language)
            .bind(&s.source)
            .bind(s.owner)
            .bind(&new.contest)
            .bind(&new.label)
            .bind(db_time(new.at))
            .bind(&s.data_hash)
            .fetch_one(&mut *tx)
            .await?;
            db.queued(&mut tx).await?;
            tx.commit().await?;
            Ok(ContestEnqueue::Stored(id))
        })
    }

    async fn contest_state(&self, contest: &str) -> Result<ContestState, StoreError> {
        let row: Option<(i64, bool)> = each!(self, |db| sqlx::query_as(STATE)
            .bind(contest)
            .fetch_optional(db.read())
            .await?);
        Ok(row.map_or(ContestState::default(), |(version, unfrozen)| {
            ContestState {
                version: u64::try_from(version).unwrap_or(0),
                unfrozen,
            }
        }))
    }

    async fn board_data(&self, contest: &str) -> Result<BoardData, StoreError> {
        each!(self, |db| {
            // One snapshot: the version, the participants and the submissions agree.
            let mut tx = db.snapshot().await?;
            let state: Option<(i64, bool)> = sqlx::query_as(STATE)
                .bind(contest)
                .fetch_optional(&mut *tx)
                .await?;
            let participants: Vec<(i64, String, String)> = sqlx::query_as(
                "SELECT u.id, u.name, p.started_at FROM contest_participations p
                 JOIN users u ON u.id = p.user_id
                 WHERE p.contest = $1 AND u.role <> 'admin'",
            )
            .bind(contest)
            .fetch_all(&mut *tx)
            .await?;
            let packed: Vec<(i64, String)> = sqlx::query_as(db.packed_entries())
                .bind(contest)
                .fetch_all(&mut *tx)
                .await?;
            tx.commit().await?;
            assemble_board(state, participants, packed)
        })
    }

    async fn set_unfrozen(&self, contest: &str, unfrozen: bool) -> Result<(), StoreError> {
        const UNFREEZE: &str = "INSERT INTO contest_state (contest, version, unfrozen)
             VALUES ($1, 1, $2)
             ON CONFLICT (contest) DO UPDATE SET version = contest_state.version + 1, unfrozen = $2";
        each!(self, |db| db
            .execute(sqlx::query(UNFREEZE).bind(contest).bind(unfrozen))
            .await?);
        Ok(())
    }

    /// The results of the requeued submissions go once they are queued: a submission a worker
    /// completes meanwhile (PostgreSQL) is not requeued, and keeps its new results.
    async fn rejudge_label(&self, contest: &str, label: &str) -> Result<RejudgeCount, StoreError> {
        rejudge_problem(self, contest, label, None).await
    }

    async fn add_clarification(
        &self,
        new: NewClarification,
        rate: Option<Rate>,
    ) -> Result<ClarificationAdded, StoreError> {
        each!(self, |db| {
            let mut tx = db.write().await?;
            if let (Some(rate), Some(author), Some(_)) = (rate, new.author, &new.question) {
                // Held to the commit: this author's next question counts this one, on any node.
                db.lock(&mut tx, &format!("clar/{}/{author}", new.contest))
                    .await?;
                if let Some(wait) = rate_wait(
                    &mut tx,
                    RECENT_QUESTIONS,
                    &new.contest,
                    author,
                    &rate,
                    new.at,
                )
                .await?
                {
                    tx.rollback().await?;
                    return Ok(ClarificationAdded::RateLimited(wait));
                }
            }
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO clarifications
                   (contest, author_id, label, question, answer, public, created_at,
                    answered_at, answered_by)
                 VALUES ($1, $2, $3, $4, $5, $6, $7,
                         CASE WHEN CAST($5 AS TEXT) IS NULL THEN NULL ELSE $7 END,
                         CASE WHEN CAST($5 AS TEXT) IS NULL THEN NULL ELSE $2 END)
                 RETURNING id",
            )
            .bind(&new.contest)
            .bind(new.author)
            .bind(&new.label)
            .bind(&new.question)
            .bind(&new.answer)
            .bind(new.public)
            .bind(db_time(new.at))
            .fetch_one(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(ClarificationAdded::Stored(id))
        })
    }

    async fn unanswered(&self, contest: &str) -> Result<u64, StoreError> {
        let n: i64 = each!(self, |db| sqlx::query_scalar(UNANSWERED)
            .bind(contest)
            .fetch_one(db.read())
            .await?);
        Ok(u64::try_from(n).unwrap_or(0))
    }

    async fn answer_clarification(
        &self,
        contest: &str,
        id: i64,
        answer: &str,
        public: bool,
        by: Option<i64>,
        at: Timestamp,
    ) -> Result<bool, StoreError> {
        const ANSWER: &str = "UPDATE clarifications
             SET answer = $1, public = $2, answered_by = $3, answered_at = $4
             WHERE contest = $5 AND id = $6";
        let updated = each!(self, |db| {
            let answer = sqlx::query(ANSWER)
                .bind(answer)
                .bind(public)
                .bind(by)
                .bind(db_time(at))
                .bind(contest)
                .bind(id);
            db.execute(answer).await?
        });
        Ok(updated > 0)
    }

    async fn clarifications(
        &self,
        contest: &str,
        viewer: Option<i64>,
        page: ClarificationPage,
    ) -> Result<Vec<Clarification>, StoreError> {
        let order = if page.newest_first { "DESC" } else { "ASC" };
        let rows: Vec<ClarificationRow> = each!(self, |db| sqlx::query_as(&format!(
            "SELECT c.id, u.name AS author, c.author_id, c.label, c.question, c.answer, c.public,
                    c.created_at, c.answered_at
             FROM clarifications c LEFT JOIN users u ON u.id = c.author_id
             WHERE c.contest = $1 AND (CAST($2 AS BIGINT) IS NULL OR c.public OR c.author_id = $2)
               AND (CAST($3 AS BIGINT) IS NULL OR c.id > $3)
               AND (CAST($4 AS BIGINT) IS NULL OR c.id < $4)
             ORDER BY c.id {order} LIMIT $5"
        ))
        .bind(contest)
        .bind(viewer)
        .bind(page.after)
        .bind(page.before)
        .bind(i64::from(page.limit))
        .fetch_all(db.read())
        .await?);
        Ok(rows.into_iter().map(Clarification::from).collect())
    }

    async fn contest_languages(&self, contest: &str) -> Result<HashMap<i64, String>, StoreError> {
        let rows: Vec<(i64, String)> = each!(self, |db| sqlx::query_as(
            "SELECT id, language FROM submissions WHERE contest = $1"
        )
        .bind(contest)
        .fetch_all(db.read())
        .await?);
        Ok(rows.into_iter().collect())
    }
}

/// The results of the requeued submissions go once they are queued: a submission a worker
/// completes meanwhile (PostgreSQL) is not requeued, and keeps its new results.
/// With `clock` (the contest clock's instant), each judged submission's replaced verdict
/// and score are kept for the Contest API ([`crate::store::JudgingStore`]).
pub(super) async fn rejudge_problem(
    store: &Store,
    contest: &str,
    label: &str,
    clock: Option<&str>,
) -> Result<RejudgeCount, StoreError> {
    each!(store, |db| {
        let mut tx = db.write().await?;
        let pending: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM submissions
             WHERE contest = $1 AND label = $2 AND status NOT IN ('done', 'cancelled')",
        )
        .bind(contest)
        .bind(label)
        .fetch_one(&mut *tx)
        .await?;
        if let Some(clock) = clock {
            sqlx::query(crate::store::judgings::KEEP_PROBLEM)
                .bind(clock)
                .bind(contest)
                .bind(label)
                .execute(&mut *tx)
                .await?;
        }
        let requeued = sqlx::query(&format!(
            "UPDATE submissions SET {}
             WHERE contest = $2 AND label = $3 AND status = 'done'",
            requeued(db)
        ))
        .bind(NodeData::stamp(store.data()))
        .bind(contest)
        .bind(label)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        // Queued submissions have no results but these.
        sqlx::query(
            "DELETE FROM test_results WHERE submission_id IN
               (SELECT id FROM submissions
                WHERE contest = $1 AND label = $2 AND status = 'queued')",
        )
        .bind(contest)
        .bind(label)
        .execute(&mut *tx)
        .await?;
        if requeued > 0 {
            db.queued(&mut tx).await?;
        }
        tx.commit().await?;
        Ok(RejudgeCount {
            requeued,
            pending: u64::try_from(pending).unwrap_or(0),
        })
    })
}
