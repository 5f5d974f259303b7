//! [`ContestStore`] on SQLite (tables of migrations/sqlite/0004_contests.sql). The board's version
//! is bumped by triggers on `submissions`, so every writer (submit, claim, complete, rejudge,
//! a crash's requeue) invalidates cached boards without knowing about them.

use jiff::Timestamp;

use super::{queue_refusal, SqliteStore, STAMP};
use crate::contest::Rate;
use crate::store::contest_rows::{assemble_board, rate_wait, ClarificationRow, UNANSWERED};
use crate::store::contests::{
    db_time, parse_db_time, BoardData, Clarification, ClarificationAdded, ClarificationPage,
    ContestEnqueue, ContestState, ContestStore, NewClarification, NewContestSubmission,
    RejudgeCount,
};
use crate::store::model::{Enqueued, QueueBounds};
use crate::store::node_data::NodeData;
use crate::store::StoreError;

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/// The submissions of one owner packed by SQLite into one text (see `contest_rows::unpack`).
const PACKED_ENTRIES: &str = "SELECT s.user_id, group_concat(
        s.id || ' ' || s.label || ' ' ||
        CAST(round(unixepoch(s.submitted_at, 'subsec') * 1000) AS INTEGER) || ' ' ||
        s.status || ' ' || coalesce(s.verdict, '-') || ' ' || coalesce(s.score, '-'), ',')
     FROM submissions s
     WHERE s.contest = ? AND s.user_id IS NOT NULL AND s.status <> 'cancelled'
     GROUP BY s.user_id";

impl ContestStore for SqliteStore {
    async fn participation(
        &self,
        contest: &str,
        user_id: i64,
    ) -> Result<Option<Timestamp>, StoreError> {
        let started: Option<String> = sqlx::query_scalar(
            "SELECT started_at FROM contest_participations WHERE contest = ? AND user_id = ?",
        )
        .bind(contest)
        .bind(user_id)
        .fetch_optional(&self.reader)
        .await?;
        started.as_deref().map(parse_db_time).transpose()
    }

    async fn start_participation(
        &self,
        contest: &str,
        user_id: i64,
        at: Timestamp,
    ) -> Result<(Timestamp, bool), StoreError> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let inserted = sqlx::query(
            "INSERT INTO contest_participations (contest, user_id, started_at) VALUES (?, ?, ?)
             ON CONFLICT DO NOTHING",
        )
        .bind(contest)
        .bind(user_id)
        .bind(db_time(at))
        .execute(&mut *tx)
        .await?
        .rows_affected();
        let started: String = sqlx::query_scalar(
            "SELECT started_at FROM contest_participations WHERE contest = ? AND user_id = ?",
        )
        .bind(contest)
        .bind(user_id)
        .fetch_one(&mut *tx)
        .await?;
        if inserted > 0 {
            bump(&mut tx, contest).await?;
        }
        tx.commit().await?;
        Ok((parse_db_time(&started)?, inserted > 0))
    }

    async fn enqueue_contest(
        &self,
        new: NewContestSubmission,
    ) -> Result<ContestEnqueue, StoreError> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let bounds = QueueBounds {
            max_queued: new.max_queued,
            per_user: new.max_per_user,
        };
        match queue_refusal(&mut tx, new.submission.owner, bounds).await? {
            None => {}
            Some(refused) => {
                tx.rollback().await?;
                return Ok(match refused {
                    Enqueued::OwnerFull => ContestEnqueue::OwnerFull,
                    _ => ContestEnqueue::QueueFull,
                });
            }
        }
        if let (Some(rate), Some(owner)) = (new.rate, new.submission.owner) {
            let since = new.at.saturating_sub(rate.per).unwrap_or(Timestamp::MIN);
            let recent: Vec<String> = sqlx::query_scalar(
                "SELECT submitted_at FROM submissions
                 WHERE contest = ? AND user_id = ? AND submitted_at > ?",
            )
            .bind(&new.contest)
            .bind(owner)
            .bind(db_time(since))
            .fetch_all(&mut *tx)
            .await?;
            if let Some(wait) = rate_wait(&rate, &recent, new.at)? {
                tx.rollback().await?;
                return Ok(ContestEnqueue::RateLimited(wait));
            }
        }
        if let (true, Some(owner)) = (new.register, new.submission.owner) {
            sqlx::query(
                "INSERT INTO contest_participations (contest, user_id, started_at)
                 VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            )
            .bind(&new.contest)
            .bind(owner)
            .bind(db_time(new.at))
            .execute(&mut *tx)
            .await?;
        }
        let s = &new.submission;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO submissions (problem, language, source, user_id, contest, label,
                                      submitted_at, submitted_data_hash)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
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
        tx.commit().await?;
        Ok(ContestEnqueue::Stored(id))
    }

    async fn contest_state(&self, contest: &str) -> Result<ContestState, StoreError> {
        let row: Option<(i64, bool)> =
            sqlx::query_as("SELECT version, unfrozen FROM contest_state WHERE contest = ?")
                .bind(contest)
                .fetch_optional(&self.reader)
                .await?;
        Ok(row.map_or(ContestState::default(), |(version, unfrozen)| {
            ContestState {
                version: u64::try_from(version).unwrap_or(0),
                unfrozen,
            }
        }))
    }

    async fn board_data(&self, contest: &str) -> Result<BoardData, StoreError> {
        // One read transaction: the version, the participants and the submissions agree.
        let mut tx = self.reader.begin().await?;
        let state: Option<(i64, bool)> =
            sqlx::query_as("SELECT version, unfrozen FROM contest_state WHERE contest = ?")
                .bind(contest)
                .fetch_optional(&mut *tx)
                .await?;
        let participants: Vec<(i64, String, String)> = sqlx::query_as(
            "SELECT u.id, u.name, p.started_at FROM contest_participations p
             JOIN users u ON u.id = p.user_id
             WHERE p.contest = ? AND u.role <> 'admin'",
        )
        .bind(contest)
        .fetch_all(&mut *tx)
        .await?;
        // Every contestant's submission registered them, so the participants name every
        // owner on the board; an admin's (jury) submissions have no participant and drop out.
        let packed: Vec<(i64, String)> = sqlx::query_as(PACKED_ENTRIES)
            .bind(contest)
            .fetch_all(&mut *tx)
            .await?;
        tx.commit().await?;
        assemble_board(state, participants, packed)
    }

    async fn set_unfrozen(&self, contest: &str, unfrozen: bool) -> Result<(), StoreError> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        sqlx::query(
            "INSERT INTO contest_state (contest, version, unfrozen) VALUES (?1, 1, ?2)
             ON CONFLICT (contest) DO UPDATE SET version = version + 1, unfrozen = ?2",
        )
        .bind(contest)
        .bind(unfrozen)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn rejudge_label(&self, contest: &str, label: &str) -> Result<RejudgeCount, StoreError> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let pending: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM submissions
             WHERE contest = ? AND label = ? AND status NOT IN ('done', 'cancelled')",
        )
        .bind(contest)
        .bind(label)
        .fetch_one(&mut *tx)
        .await?;
        sqlx::query(
            "DELETE FROM test_results WHERE submission_id IN
               (SELECT id FROM submissions WHERE contest = ? AND label = ? AND status = 'done')",
        )
        .bind(contest)
        .bind(label)
        .execute(&mut *tx)
        .await?;
        let requeued = sqlx::query(&format!(
            "UPDATE submissions
             SET status = 'queued', verdict = NULL, score = NULL, time_ms = NULL,
                 memory_kib = NULL, compile_ok = NULL, compile_log = NULL, message = NULL,
                 degraded = 0, finished_at = NULL, queued_at = {NOW},
                 submitted_data_hash = {STAMP}
             WHERE contest = ? AND label = ? AND status = 'done'"
        ))
        .bind(NodeData::stamp(self.data.as_ref()))
        .bind(contest)
        .bind(label)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        Ok(RejudgeCount {
            requeued,
            pending: u64::try_from(pending).unwrap_or(0),
        })
    }

    async fn add_clarification(
        &self,
        new: NewClarification,
        rate: Option<Rate>,
    ) -> Result<ClarificationAdded, StoreError> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        if let (Some(rate), Some(author), Some(_)) = (rate, new.author, &new.question) {
            let since = new.at.saturating_sub(rate.per).unwrap_or(Timestamp::MIN);
            let recent: Vec<String> = sqlx::query_scalar(
                "SELECT created_at FROM clarifications
                 WHERE contest = ? AND author_id = ? AND question IS NOT NULL
                   AND created_at > ?",
            )
            .bind(&new.contest)
            .bind(author)
            .bind(db_time(since))
            .fetch_all(&mut *tx)
            .await?;
            if let Some(wait) = rate_wait(&rate, &recent, new.at)? {
                tx.rollback().await?;
                return Ok(ClarificationAdded::RateLimited(wait));
            }
        }
        let at = db_time(new.at);
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO clarifications
               (contest, author_id, label, question, answer, public, created_at, answered_at,
                answered_by)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7,
                     CASE WHEN ?5 IS NULL THEN NULL ELSE ?7 END,
                     CASE WHEN ?5 IS NULL THEN NULL ELSE ?2 END)
             RETURNING id",
        )
        .bind(&new.contest)
        .bind(new.author)
        .bind(&new.label)
        .bind(&new.question)
        .bind(&new.answer)
        .bind(new.public)
        .bind(at)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(ClarificationAdded::Stored(id))
    }

    async fn unanswered(&self, contest: &str) -> Result<u64, StoreError> {
        let n: i64 = sqlx::query_scalar(UNANSWERED)
            .bind(contest)
            .fetch_one(&self.reader)
            .await?;
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
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let updated = sqlx::query(
            "UPDATE clarifications SET answer = ?, public = ?, answered_by = ?, answered_at = ?
             WHERE contest = ? AND id = ?",
        )
        .bind(answer)
        .bind(public)
        .bind(by)
        .bind(db_time(at))
        .bind(contest)
        .bind(id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        Ok(updated > 0)
    }

    async fn clarifications(
        &self,
        contest: &str,
        viewer: Option<i64>,
        page: ClarificationPage,
    ) -> Result<Vec<Clarification>, StoreError> {
        let order = if page.newest_first { "DESC" } else { "ASC" };
        let rows: Vec<ClarificationRow> = sqlx::query_as(&format!(
            "SELECT c.id, u.name AS author, c.author_id, c.label, c.question, c.answer, c.public,
                    c.created_at, c.answered_at
             FROM clarifications c LEFT JOIN users u ON u.id = c.author_id
             WHERE c.contest = ?1 AND (?2 IS NULL OR c.public OR c.author_id = ?2)
               AND (?3 IS NULL OR c.id > ?3) AND (?4 IS NULL OR c.id < ?4)
             ORDER BY c.id {order} LIMIT ?5"
        ))
        .bind(contest)
        .bind(viewer)
        .bind(page.after)
        .bind(page.before)
        .bind(i64::from(page.limit))
        .fetch_all(&self.reader)
        .await?;
        Ok(rows.into_iter().map(Clarification::from).collect())
    }
}

/// Bumps the version of `contest` (a change the board shows that no trigger sees).
async fn bump(tx: &mut sqlx::SqliteConnection, contest: &str) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO contest_state (contest, version) VALUES (?, 1)
         ON CONFLICT (contest) DO UPDATE SET version = version + 1",
    )
    .bind(contest)
    .execute(tx)
    .await?;
    Ok(())
}
