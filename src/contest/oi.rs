//! OI (NOIP) scoring: only the last submission of each problem counts, shown after the end.

use super::board::{in_order, rank, CellState, Grid, Outcome, Scoreboard, Submission};
use super::format::Format;
use super::ids::Label;

/// The OI board. Each cell is its last submission (latest in time, then highest id): its
/// score when `reveal` (after the end, or for admins), else only "judged" or "pending".
/// Earlier submissions never count, even better ones. Hidden boards rank everyone equal
/// (by name); revealed ones by total, equal totals sharing a rank.
pub fn scoreboard(
    problems: &[Label],
    users: &[String],
    submissions: &[Submission],
    reveal: bool,
) -> Scoreboard {
    let mut grid = Grid::new(problems, users);
    for s in in_order(submissions) {
        let Some((r, c)) = grid.place(s) else {
            continue;
        };
        let cell = &mut grid.rows[r].cells[c];
        cell.attempts += 1;
        // Later submissions come later in this loop: each one replaces the cell.
        (cell.state, cell.score, cell.pending) = match (s.outcome, reveal) {
            (Outcome::Pending, _) => (CellState::Pending, None, 1),
            (Outcome::Judged { score, .. }, true) => (CellState::Scored, Some(score), 0),
            (Outcome::Judged { .. }, false) => (CellState::Judged, None, 0),
        };
    }
    let mut rows = grid.rows;
    for row in &mut rows {
        row.score = row.cells.iter().filter_map(|c| c.score).sum();
    }
    if reveal {
        rank(&mut rows, |r| std::cmp::Reverse(r.score));
    } else {
        rank(&mut rows, |_| ());
    }
    Scoreboard {
        format: Format::Oi,
        problems: problems.to_vec(),
        rows,
        frozen: false,
        hidden: !reveal,
    }
}
