//! The rows both contest stores read (a board's packed submissions, clarifications) and how
//! they become the trait's values, so SQLite and PostgreSQL decode them alike.

use jiff::Timestamp;
use sqlx::{Database, Encode, Executor, FromRow, IntoArguments, Type};

use crate::judge::Verdict;

use super::contests::{
    db_time, parse_db_time, BoardData, BoardEntry, Clarification, ContestState, Participant,
};
use super::model::Status;
use super::StoreError;

/// One contest submission as `board_data` reads it.
#[derive(Debug)]
pub(super) struct EntryRow {
    pub(super) id: i64,
    pub(super) label: String,
    /// `submitted_at` as milliseconds since the epoch, computed by SQLite: cheaper than
    /// parsing 20,000 texts.
    pub(super) at_ms: i64,
    pub(super) status: String,
    pub(super) verdict: Option<String>,
    pub(super) score: Option<i64>,
}

/// The entries of one packed text: `id label at_ms status verdict score` (`-` for none),
/// comma-separated. None of the fields can hold a space or a comma (labels are capital
/// letters, the rest are numbers and fixed words); one row per contestant instead of one per
/// submission makes reading a big board several times cheaper (the per-row cost dominates).
fn unpack(user_id: i64, packed: &str) -> Result<Vec<EntryRow>, StoreError> {
    let corrupt = || StoreError::Corrupt {
        id: 0,
        what: format!("contest submissions of user {user_id}: {packed:?}"),
    };
    packed
        .split(',')
        .map(|one| {
            let f: Vec<&str> = one.split(' ').collect();
            let [id, label, at_ms, status, verdict, score] = f.as_slice() else {
                return Err(corrupt());
            };
            let optional = |v: &str| (v != "-").then(|| v.to_string());
            Ok(EntryRow {
                id: id.parse().map_err(|_| corrupt())?,
                label: label.to_string(),
                at_ms: at_ms.parse().map_err(|_| corrupt())?,
                status: status.to_string(),
                verdict: optional(verdict),
                score: optional(score)
                    .map(|s| s.parse())
                    .transpose()
                    .map_err(|_| corrupt())?,
            })
        })
        .collect()
}

/// A clarification as both stores read it.
#[derive(Debug, sqlx::FromRow)]
pub(super) struct ClarificationRow {
    pub(super) id: i64,
    pub(super) author: Option<String>,
    pub(super) author_id: Option<i64>,
    pub(super) label: Option<String>,
    pub(super) question: Option<String>,
    pub(super) answer: Option<String>,
    pub(super) public: bool,
    pub(super) created_at: String,
    pub(super) answered_at: Option<String>,
}

/// A board entry of `user` from its packed row.
fn to_entry(row: EntryRow, user: String) -> Result<BoardEntry, StoreError> {
    let corrupt = |what: String| StoreError::Corrupt { id: row.id, what };
    let status = Status::parse(&row.status).ok_or_else(|| corrupt(row.status.clone()))?;
    let verdict = row
        .verdict
        .as_deref()
        .map(Verdict::parse)
        .transpose()
        .map_err(|e| corrupt(e.to_string()))?;
    Ok(BoardEntry {
        id: row.id,
        at: Timestamp::from_millisecond(row.at_ms).map_err(|e| corrupt(e.to_string()))?,
        user,
        label: row.label,
        status,
        verdict,
        score: row.score,
    })
}

impl From<ClarificationRow> for Clarification {
    fn from(r: ClarificationRow) -> Clarification {
        Clarification {
            id: r.id,
            author: r.author,
            author_id: r.author_id,
            problem: r.label,
            question: r.question,
            answer: r.answer,
            public: r.public,
            created_at: r.created_at,
            answered_at: r.answered_at,
        }
    }
}

/// A contest's board data from one read: its state row (version, unfrozen), its participants
/// (id, name, started_at) and each owner's packed submissions. Every contestant's submission
/// registered them, so the participants name every owner on the board; an admin's (jury)
/// submissions have no participant and drop out.
pub(super) fn assemble_board(
    state: Option<(i64, bool)>,
    participants: Vec<(i64, String, String)>,
    packed: Vec<(i64, String)>,
) -> Result<BoardData, StoreError> {
    let names: std::collections::HashMap<i64, &str> = participants
        .iter()
        .map(|(id, name, _)| (*id, name.as_str()))
        .collect();
    let mut submissions = Vec::new();
    for (user_id, packed) in packed {
        if let Some(name) = names.get(&user_id) {
            for row in unpack(user_id, &packed)? {
                submissions.push(to_entry(row, (*name).to_string())?);
            }
        }
    }
    Ok(BoardData {
        state: state.map_or(ContestState::default(), |(v, unfrozen)| ContestState {
            version: u64::try_from(v).unwrap_or(0),
            unfrozen,
        }),
        participants: participants
            .iter()
            .map(|(_, user, started)| {
                Ok(Participant {
                    user: user.clone(),
                    started_at: parse_db_time(started)?,
                })
            })
            .collect::<Result<_, StoreError>>()?,
        submissions,
    })
}

/// How long `who` must wait under `rate` at `at` (`None`: they may act now), counted in `tx`
/// from their rows of `contest` in the span: `sql` selects the contest-clock instants as
/// stored of `$2`'s rows of contest `$1` after `$3`.
pub(super) async fn rate_wait<DB>(
    tx: &mut sqlx::Transaction<'_, DB>,
    sql: &'static str,
    contest: &str,
    who: i64,
    rate: &crate::contest::Rate,
    at: Timestamp,
) -> Result<Option<jiff::SignedDuration>, StoreError>
where
    DB: Database,
    for<'e> &'e mut DB::Connection: Executor<'e, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    (String,): for<'r> FromRow<'r, DB::Row>,
{
    let since = at.saturating_sub(rate.per).unwrap_or(Timestamp::MIN);
    let recent: Vec<String> = sqlx::query_scalar(sql)
        .bind(contest.to_string())
        .bind(who)
        .bind(db_time(since))
        .fetch_all(&mut **tx)
        .await?;
    let recent = recent
        .iter()
        .map(|t| parse_db_time(t))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rate.retry_after(&recent, at))
}

/// The questions of `$1` (a contest) the jury has not answered yet: the same text on both
/// stores (SQLite takes `$N` placeholders too).
pub(super) const UNANSWERED: &str = "SELECT COUNT(*) FROM clarifications
     WHERE contest = $1 AND question IS NOT NULL AND answer IS NULL";
