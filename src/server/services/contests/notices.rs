//! Live notices (issue 26, point 5): what a contest page's banner announces since the page
//! was made. A contestant hears of answers they may read (their own questions', and
//! announcements and answers to everyone); the jury of questions waiting for an answer. The
//! reader must be signed in (an anonymous caller costs no store read); a page asks for at
//! most [`MAX_NOTICES`], the newest.

use jiff::Timestamp;

use crate::accounts::{access, Caller, Decision};
use crate::store::{NoticeReader, NoticeStore};

use crate::server::auth::allow;
use crate::server::error::{ApiError, ApiResult};
use crate::server::state::AppState;

use super::find;

/// Banners a page shows at most (the newest).
pub const MAX_NOTICES: u32 = 5;

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoticeKind {
    /// The jury answered the reader's own question.
    YourAnswer,
    /// The jury answered someone's question for everyone.
    PublicAnswer,
    /// The jury announced something.
    Announcement,
    /// A contestant asked the jury (the jury's notice).
    Question,
}

/// One banner's facts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// The clarification's id (the contest page's anchor `c{id}`).
    pub id: i64,
    /// What happened.
    pub kind: NoticeKind,
    /// The problem's label, if it is about one.
    pub label: Option<String>,
    /// The asker (the jury's notices): the display name, else the login name.
    pub author: Option<String>,
}

/// The instant a page's notices count from (the contest clock's now), as the page carries it.
pub fn cursor(state: &AppState) -> String {
    cursor_at(state.contests.now())
}

/// The cursor of instant `t` (ISO 8601 UTC with milliseconds, as the store keeps times).
pub fn cursor_at(t: Timestamp) -> String {
    crate::store::contests::db_time(t)
}

/// `since` as the page carried it (400 when it is not an instant).
pub fn parse_since(since: &str) -> ApiResult<Timestamp> {
    since
        .parse()
        .map_err(|_| ApiError::BadQuery(format!("since: {since:?} is not an instant")))
}

/// The notices of contest `id` for `caller` since `since` (contest clock), newest first.
pub async fn since(
    state: &AppState,
    caller: &Caller,
    id: &str,
    since: Timestamp,
) -> ApiResult<Vec<Notice>> {
    allow(access::read_contest(caller), String::new)?;
    find(state, id)?;
    let reader = if access::contest_jury(caller) == Decision::Allow {
        NoticeReader::Jury
    } else {
        // An id no user has (the open mode) reads only the public ones.
        NoticeReader::Contestant(caller.user_id().unwrap_or(0))
    };
    let rows = state.store.notices(id, reader, since, MAX_NOTICES).await?;
    Ok(rows
        .into_iter()
        .map(|r| Notice {
            id: r.id,
            kind: match (reader, r.asked, r.mine) {
                (NoticeReader::Jury, _, _) => NoticeKind::Question,
                (_, false, _) => NoticeKind::Announcement,
                (_, true, true) => NoticeKind::YourAnswer,
                (_, true, false) => NoticeKind::PublicAnswer,
            },
            label: r.label,
            author: match r.author_display.filter(|d| !d.is_empty()) {
                Some(shown) => Some(shown),
                None => r.author,
            },
        })
        .collect())
}
