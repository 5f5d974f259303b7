//! [`ContestStore`] on PostgreSQL (the contest tables of migrations/postgres/0001_schema.sql).
//! As on SQLite, triggers on `submissions` bump a contest's board version on every change a
//! board shows. The per-user rate is checked under a transaction-scoped advisory lock on
//! (contest, user), so concurrent submissions of one contestant through any API node are
//! counted one after the other, as SQLite's single writer counts them.

use jiff::Timestamp;

use super::queue::{notify_queue, owner_lock, queued_of};
use super::PgStore;
use crate::contest::Rate;
use crate::store::contest_rows::{assemble_board, rate_wait, ClarificationRow, UNANSWERED};
use crate::store::contests::{
    db_time, parse_db_time, BoardData, Clarification, ClarificationAdded, ClarificationPage,
    ContestEnqueue, ContestState, ContestStore, NewClarification, NewContestSubmission,
    RejudgeCount,
};
use crate::store::node_data::NodeData;
use crate::store::StoreError;

/// The submissions of one owner packed into one text (see `contest_rows::unpack`).
const PACKED_ENTRIES: &str = "SELECT s.user_id, string_agg(
        s.id || ' ' || s.label || ' ' ||
        round(extract(epoch FROM s.submitted_at::timestamptz) * 1000)::bigint || ' ' ||
        s.status || ' ' || coalesce(s.verdict, '-') || ' ' || coalesce(s.score::text, '-'),
        ',')
     FROM submissions s
     WHERE s.contest = $1 AND s.user_id IS NOT NULL AND s.status <> 'cancelled'
     GROUP BY s.user_id";

impl ContestStore for PgStore {
    async fn participation(
        &self,
        contest: &str,
        user_id: i64,
    ) -> Result<Option<Timestamp>, StoreError> {
        let started: Option<String> = sqlx::query_scalar(
            "SELECT started_at FROM contest_participations WHERE contest = $1 AND user_id = $2",
        )
        .bind(contest)
        .bind(user_id)
        .fetch_optional(&self.pool)
        .await?;
        started.as_deref().map(parse_db_time).transpose()
    }

    async fn start_participation(
        &self,
        contest: &str,
        user_id: i64,
        at: Timestamp,
    ) -> Result<(Timestamp, bool), StoreError> {
        let mut tx = self.pool.begin().await?;
        let inserted = sqlx::query(
            "INSERT INTO contest_participations (contest, user_id, started_at)
             VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        )
        .bind(contest)
        .bind(user_id)
        .bind(db_time(at))
        .execute(&mut *tx)
        .await?
        .rows_affected();
        let started: String = sqlx::query_scalar(
            "SELECT started_at FROM contest_participations WHERE contest = $1 AND user_id = $2",
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
        let mut tx = self.pool.begin().await?;
        if let (Some(owner), Some(per_user)) = (new.submission.owner, new.max_per_user) {
            // Held to the commit, before the contest's lock (the plain route takes only this
            // one): the owner's count is exact on every node.
            owner_lock(&mut tx, owner).await?;
            if u64::try_from(queued_of(&mut tx, owner).await?).unwrap_or(0) >= per_user {
                tx.rollback().await?;
                return Ok(ContestEnqueue::OwnerFull);
            }
        }
        let depth: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM submissions WHERE status = 'queued'")
                .fetch_one(&mut *tx)
                .await?;
        if u64::try_from(depth).unwrap_or(0) >= new.max_queued {
            tx.rollback().await?;
            return Ok(ContestEnqueue::QueueFull);
        }
        if let (Some(rate), Some(owner)) = (new.rate, new.submission.owner) {
            // Held to the commit: the next submission of this contestant counts this one.
            sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1 || '/' || $2, 0))")
                .bind(&new.contest)
                .bind(owner.to_string())
                .execute(&mut *tx)
                .await?;
            let since = new.at.saturating_sub(rate.per).unwrap_or(Timestamp::MIN);
            let recent: Vec<String> = sqlx::query_scalar(
                "SELECT submitted_at FROM submissions
                 WHERE contest = $1 AND user_id = $2 AND submitted_at > $3",
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
                 VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
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
        notify_queue(&mut tx).await?;
        tx.commit().await?;
        Ok(ContestEnqueue::Stored(id))
    }

    async fn contest_state(&self, contest: &str) -> Result<ContestState, StoreError> {
        let row: Option<(i64, bool)> =
            sqlx::query_as("SELECT version, unfrozen FROM contest_state WHERE contest = $1")
                .bind(contest)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map_or(ContestState::default(), |(version, unfrozen)| {
            ContestState {
                version: u64::try_from(version).unwrap_or(0),
                unfrozen,
            }
        }))
    }

    async fn board_data(&self, contest: &str) -> Result<BoardData, StoreError> {
        // One snapshot: the version, the participants and the submissions agree.
        let mut tx = self.pool.begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            .execute(&mut *tx)
            .await?;
        let state: Option<(i64, bool)> =
            sqlx::query_as("SELECT version, unfrozen FROM contest_state WHERE contest = $1")
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
        let packed: Vec<(i64, String)> = sqlx::query_as(PACKED_ENTRIES)
            .bind(contest)
            .fetch_all(&mut *tx)
            .await?;
        tx.commit().await?;
        assemble_board(state, participants, packed)
    }

    async fn set_unfrozen(&self, contest: &str, unfrozen: bool) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO contest_state (contest, version, unfrozen) VALUES ($1, 1, $2)
             ON CONFLICT (contest) DO UPDATE
             SET version = contest_state.version + 1, unfrozen = $2",
        )
        .bind(contest)
        .bind(unfrozen)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn rejudge_label(&self, contest: &str, label: &str) -> Result<RejudgeCount, StoreError> {
        let mut tx = self.pool.begin().await?;
        let pending: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM submissions
             WHERE contest = $1 AND label = $2 AND status NOT IN ('done', 'cancelled')",
        )
        .bind(contest)
        .bind(label)
        .fetch_one(&mut *tx)
        .await?;
        let requeued: Vec<i64> = sqlx::query_scalar(&format!(
            "UPDATE submissions
             SET status = 'queued', verdict = NULL, score = NULL, time_ms = NULL,
                 memory_kib = NULL, compile_ok = NULL, compile_log = NULL, message = NULL,
                 degraded = FALSE, finished_at = NULL, queued_at = sj_now(),
                 submitted_data_hash = {}
             WHERE contest = $1 AND label = $2 AND status = 'done'
             RETURNING id",
            super::queue::stamp(3)
        ))
        .bind(contest)
        .bind(label)
        .bind(NodeData::stamp(self.data.as_ref()))
        .fetch_all(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM test_results WHERE submission_id = ANY($1)")
            .bind(&requeued)
            .execute(&mut *tx)
            .await?;
        if !requeued.is_empty() {
            notify_queue(&mut tx).await?;
        }
        tx.commit().await?;
        Ok(RejudgeCount {
            requeued: requeued.len() as u64,
            pending: u64::try_from(pending).unwrap_or(0),
        })
    }

    async fn add_clarification(
        &self,
        new: NewClarification,
        rate: Option<Rate>,
    ) -> Result<ClarificationAdded, StoreError> {
        let mut tx = self.pool.begin().await?;
        if let (Some(rate), Some(author), Some(_)) = (rate, new.author, &new.question) {
            // Held to the commit: this author's next question counts this one, on any node.
            sqlx::query(
                "SELECT pg_advisory_xact_lock(hashtextextended('clar/' || $1 || '/' || $2, 0))",
            )
            .bind(&new.contest)
            .bind(author.to_string())
            .execute(&mut *tx)
            .await?;
            let since = new.at.saturating_sub(rate.per).unwrap_or(Timestamp::MIN);
            let recent: Vec<String> = sqlx::query_scalar(
                "SELECT created_at FROM clarifications
                 WHERE contest = $1 AND author_id = $2 AND question IS NOT NULL
                   AND created_at > $3",
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
             VALUES ($1, $2, $3, $4, $5, $6, $7,
                     CASE WHEN $5::text IS NULL THEN NULL ELSE $7 END,
                     CASE WHEN $5::text IS NULL THEN NULL ELSE $2 END)
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
            .fetch_one(&self.pool)
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
        let updated = sqlx::query(
            "UPDATE clarifications
             SET answer = $1, public = $2, answered_by = $3, answered_at = $4
             WHERE contest = $5 AND id = $6",
        )
        .bind(answer)
        .bind(public)
        .bind(by)
        .bind(db_time(at))
        .bind(contest)
        .bind(id)
        .execute(&self.pool)
        .await?
        .rows_affected();
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
             WHERE c.contest = $1 AND ($2::bigint IS NULL OR c.public OR c.author_id = $2)
               AND ($3::bigint IS NULL OR c.id > $3) AND ($4::bigint IS NULL OR c.id < $4)
             ORDER BY c.id {order} LIMIT $5"
        ))
        .bind(contest)
        .bind(viewer)
        .bind(page.after)
        .bind(page.before)
        .bind(i64::from(page.limit))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(Clarification::from).collect())
    }
}

/// Bumps the version of `contest` (a change the board shows that no trigger sees).
async fn bump(tx: &mut sqlx::PgConnection, contest: &str) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO contest_state (contest, version) VALUES ($1, 1)
         ON CONFLICT (contest) DO UPDATE SET version = contest_state.version + 1",
    )
    .bind(contest)
    .execute(tx)
    .await?;
    Ok(())
}
