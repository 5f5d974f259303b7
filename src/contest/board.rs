//! The scoreboard: its rows and cells, the submissions it is computed from, the ranking.

use std::collections::HashMap;

use jiff::SignedDuration;
use serde::Serialize;

use super::format::Format;
use super::ids::Label;
use crate::judge::Verdict;

/// One contest submission as the scoreboard needs it (the store builds these).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submission {
    /// The submission's id: orders submissions made in the same instant.
    pub id: u64,
    /// Who submitted.
    pub user: String,
    /// The problem's label in the contest.
    pub label: Label,
    /// When, counted from the contestant's start (their personal start in window timing).
    pub at: SignedDuration,
    /// The result so far.
    pub outcome: Outcome,
}

/// Where a submission's judging stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Queued or being judged.
    Pending,
    /// Judged.
    Judged {
        /// The verdict.
        verdict: Verdict,
        /// The score: 0 to 100 for a pass-fail problem, the package's range (below 0 too) for a
        /// scoring one.
        score: i64,
    },
}

/// Who is looking at the board: the format's hiding rules apply to contestants only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    /// Contestants and the public: frozen (ICPC) or hidden (OI) cells as the rules say.
    Public,
    /// Admins: everything as judged.
    Admin,
}

/// What one cell shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CellState {
    /// No submission.
    Empty,
    /// ICPC: accepted.
    Solved,
    /// ICPC: only rejected attempts.
    Rejected,
    /// Waiting for a verdict, or hidden by the freeze.
    Pending,
    /// IOI/OI: a score is shown.
    Scored,
    /// OI before the end: judged, result hidden.
    Judged,
}

/// One problem of one contestant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Cell {
    /// What the cell shows.
    pub state: CellState,
    /// Submissions counted (ICPC: rejected ones before the AC and the AC; CE never).
    pub attempts: u32,
    /// Submissions pending or hidden by the freeze.
    pub pending: u32,
    /// ICPC: minute of the first AC.
    pub minutes: Option<i64>,
    /// IOI/OI: the problem's score.
    pub score: Option<i64>,
    /// ICPC: the first contestant to solve this problem.
    pub first_solve: bool,
    /// Solved: ICPC accepted; IOI/OI a shown score that reaches the problem's full score
    /// ([`super::full::mark_solved`]). What the pages, the Contest API and the row's
    /// `solved` count.
    pub solved: bool,
}

impl Cell {
    const EMPTY: Cell = Cell {
        state: CellState::Empty,
        attempts: 0,
        pending: 0,
        minutes: None,
        score: None,
        first_solve: false,
        solved: false,
    };
}

/// One contestant's line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Row {
    /// 1-based; contestants with equal results share a rank (1, 1, 3).
    pub rank: u32,
    /// The user name.
    pub user: String,
    /// Problems solved: ICPC accepted; IOI/OI cells at their problem's full score.
    pub solved: u32,
    /// ICPC: penalty minutes.
    pub penalty: i64,
    /// IOI/OI: the total score.
    pub score: i64,
    /// One per problem, in label order.
    pub cells: Vec<Cell>,
}

/// A whole scoreboard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Scoreboard {
    /// The contest's format.
    pub format: Format,
    /// The columns.
    #[schema(value_type = Vec<String>)]
    pub problems: Vec<Label>,
    /// Ranked rows.
    pub rows: Vec<Row>,
    /// ICPC: some cells are frozen.
    pub frozen: bool,
    /// OI: results are hidden until the end.
    pub hidden: bool,
}

/// The grid being filled: one row per user, one cell per label.
pub(super) struct Grid<'a> {
    labels: HashMap<&'a Label, usize>,
    users: HashMap<&'a str, usize>,
    pub(super) rows: Vec<Row>,
}

impl<'a> Grid<'a> {
    /// An empty grid with a row for each of `users` (contestants without submissions).
    pub(super) fn new(problems: &'a [Label], users: &'a [String]) -> Grid<'a> {
        let mut grid = Grid {
            labels: problems.iter().enumerate().map(|(i, l)| (l, i)).collect(),
            users: HashMap::new(),
            rows: Vec::new(),
        };
        for user in users {
            grid.row(user);
        }
        grid
    }

    fn row(&mut self, user: &'a str) -> usize {
        let width = self.labels.len();
        *self.users.entry(user).or_insert_with(|| {
            self.rows.push(Row {
                rank: 0,
                user: user.to_string(),
                solved: 0,
                penalty: 0,
                score: 0,
                cells: vec![Cell::EMPTY; width],
            });
            self.rows.len() - 1
        })
    }

    /// The (row, column) of a submission; `None` for a label not in the contest.
    pub(super) fn place(&mut self, s: &'a Submission) -> Option<(usize, usize)> {
        let column = *self.labels.get(&s.label)?;
        Some((self.row(&s.user), column))
    }
}

/// `submissions` in the order they count: by time, then by id.
pub(super) fn in_order(submissions: &[Submission]) -> Vec<&Submission> {
    let mut ordered: Vec<&Submission> = submissions.iter().collect();
    ordered.sort_unstable_by_key(|s| (s.at, s.id));
    ordered
}

/// Sorts `rows` by `key` (smaller is better), then by user name, and gives equal keys the
/// same rank (1, 1, 3).
pub(super) fn rank<K: Ord>(rows: &mut [Row], key: impl Fn(&Row) -> K) {
    rows.sort_by(|a, b| key(a).cmp(&key(b)).then_with(|| a.user.cmp(&b.user)));
    let mut previous: Option<(K, u32)> = None;
    for (i, row) in rows.iter_mut().enumerate() {
        let k = key(row);
        let rank = match &previous {
            Some((p, r)) if *p == k => *r,
            _ => u32::try_from(i + 1).unwrap_or(u32::MAX),
        };
        row.rank = rank;
        previous = Some((k, rank));
    }
}
