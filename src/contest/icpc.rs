//! ICPC scoring: problems solved, then penalty minutes; the freeze.

use jiff::SignedDuration;

use super::board::{in_order, rank, CellState, Grid, Outcome, Scoreboard, Submission};
use super::format::Format;
use super::ids::Label;
use crate::judge::Verdict;

/// Minutes added per rejected attempt before the first AC.
pub const PENALTY_PER_REJECTION: i64 = 20;

/// The ICPC board of `submissions` over `problems`, with a row for each of `users` too.
///
/// Per cell, submissions count in time order until the first AC: a rejected one adds
/// [`PENALTY_PER_REJECTION`] minutes to the cell's penalty if the problem is solved later;
/// CE and SE never count; the AC adds its minute (whole minutes since the contestant's
/// start, rounded down). Submissions at or after `freeze_from` show only as pending
/// attempts (pass `None` for admins and for an unfrozen board). Rows rank by solved (more
/// first), then penalty (less first); equal ones share a rank. The first AC of each problem
/// (earliest in time; all of them if several share that second) is marked.
pub fn scoreboard(
    problems: &[Label],
    users: &[String],
    submissions: &[Submission],
    freeze_from: Option<SignedDuration>,
) -> Scoreboard {
    let mut grid = Grid::new(problems, users);
    // Per row and column: rejected attempts so far, and the instant of the AC.
    let mut tally: Vec<Vec<(i64, Option<SignedDuration>)>> = Vec::new();
    let mut first: Vec<Option<SignedDuration>> = vec![None; problems.len()];
    for s in in_order(submissions) {
        let Some((r, c)) = grid.place(s) else {
            continue;
        };
        if tally.len() <= r {
            tally.resize(r + 1, vec![(0, None); problems.len()]);
        }
        let row = &mut grid.rows[r];
        let cell = &mut row.cells[c];
        if cell.state == CellState::Solved {
            continue;
        }
        let frozen = freeze_from.is_some_and(|f| s.at >= f);
        match s.outcome {
            _ if frozen => cell.pending += 1,
            Outcome::Pending => cell.pending += 1,
            Outcome::Judged {
                verdict: Verdict::CE | Verdict::SE,
                ..
            } => {}
            Outcome::Judged {
                verdict: Verdict::AC,
                ..
            } => {
                let minute = s.at.as_secs().div_euclid(60);
                cell.state = CellState::Solved;
                cell.solved = true;
                cell.attempts += 1;
                cell.minutes = Some(minute);
                row.solved += 1;
                row.penalty += minute + PENALTY_PER_REJECTION * tally[r][c].0;
                tally[r][c].1 = Some(s.at);
                if first[c].is_none_or(|f| s.at < f) {
                    first[c] = Some(s.at);
                }
            }
            Outcome::Judged { .. } => {
                cell.attempts += 1;
                tally[r][c].0 += 1;
            }
        }
    }
    let mut rows = grid.rows;
    for (r, row) in rows.iter_mut().enumerate() {
        for (c, cell) in row.cells.iter_mut().enumerate() {
            if cell.state == CellState::Solved {
                let solved_at = tally.get(r).and_then(|t| t[c].1);
                cell.first_solve = solved_at.is_some() && solved_at == first[c];
            } else if cell.pending > 0 {
                cell.state = CellState::Pending;
            } else if cell.attempts > 0 {
                cell.state = CellState::Rejected;
            }
        }
    }
    rank(&mut rows, |r| (std::cmp::Reverse(r.solved), r.penalty));
    Scoreboard {
        format: Format::Icpc,
        problems: problems.to_vec(),
        rows,
        frozen: freeze_from.is_some(),
        hidden: false,
    }
}
