//! What a page's live notices announce (issue 26, point 5): the clarifications that changed
//! since the page was made, for one reader. A contestant hears of answers they may read (to
//! their own questions, and public ones: announcements and answers to everyone); the jury of
//! questions asked and still waiting. One SQL text per audience, the same on both stores;
//! the rows are bounded by the caller's limit.

use std::future::Future;

use jiff::Timestamp;

use super::any::{each, Store};
use super::contests::db_time;
use super::dialect::Dialect;
use super::StoreError;

/// Who reads the notices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoticeReader {
    /// The jury: questions asked and not answered yet.
    Jury,
    /// A contestant (by user id): answers they may read.
    Contestant(i64),
}

/// One clarification a banner announces.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct NoticeRow {
    /// The clarification's id.
    pub id: i64,
    /// The problem's label, or `None` for the whole contest.
    pub label: Option<String>,
    /// A contestant's question (false: the jury's announcement).
    pub asked: bool,
    /// Shown to every participant.
    pub public: bool,
    /// Asked by the reader themselves.
    pub mine: bool,
    /// The asker's name (the jury's notices; `None` for an announcement or a deleted user).
    pub author: Option<String>,
    /// The asker's display name (empty when none).
    pub author_display: Option<String>,
}

/// New questions still waiting, newest first (`$2`: since, `$3`: limit).
const JURY: &str = "SELECT c.id, c.label, TRUE AS asked, c.public, FALSE AS mine,
        u.name AS author, u.display_name AS author_display
 FROM clarifications c LEFT JOIN users u ON u.id = c.author_id
 WHERE c.contest = $1 AND c.question IS NOT NULL AND c.answer IS NULL AND c.created_at >= $2
 ORDER BY c.id DESC LIMIT $3";

/// Answers the contestant `$1` may read in contest `$2`, answered since `$3`, newest first
/// (SQLite numbers `$N` by first appearance: the reader comes first).
const CONTESTANT: &str = "SELECT c.id, c.label, c.question IS NOT NULL AS asked, c.public,
        COALESCE(c.author_id = $1, FALSE) AS mine, NULL AS author, NULL AS author_display
 FROM clarifications c
 WHERE c.contest = $2 AND c.answer IS NOT NULL AND c.answered_at >= $3
   AND (c.public OR c.author_id = $1)
 ORDER BY c.answered_at DESC, c.id DESC LIMIT $4";

/// The clarifications a reader's banners announce.
pub trait NoticeStore: Send + Sync + 'static {
    /// At most `limit` clarifications of `contest` that changed for `reader` at or after
    /// `since` (contest clock), newest first.
    fn notices(
        &self,
        contest: &str,
        reader: NoticeReader,
        since: Timestamp,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<NoticeRow>, StoreError>> + Send;
}

impl NoticeStore for Store {
    async fn notices(
        &self,
        contest: &str,
        reader: NoticeReader,
        since: Timestamp,
        limit: u32,
    ) -> Result<Vec<NoticeRow>, StoreError> {
        each!(self, |db| {
            let q = match reader {
                NoticeReader::Jury => sqlx::query_as::<_, NoticeRow>(JURY),
                NoticeReader::Contestant(user) => sqlx::query_as(CONTESTANT).bind(user),
            };
            Ok(q.bind(contest)
                .bind(db_time(since))
                .bind(i64::from(limit))
                .fetch_all(db.read())
                .await?)
        })
    }
}
