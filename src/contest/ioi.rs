//! IOI scoring: the sum over problems of each problem's best score.

use std::collections::HashSet;

use super::board::{in_order, rank, CellState, Grid, Outcome, Scoreboard, Submission};
use super::format::Format;
use super::ids::Label;
use crate::judge::Verdict;

/// The IOI board: each cell shows the best score of its judged submissions, below 0 too (a
/// scoring package's range may go there); a CE scores 0 only while nothing else of that
/// problem was judged, so a compile error never lifts a negative best. Pending ones are
/// counted apart; rows rank by total (more first), equal totals share a rank.
pub fn scoreboard(problems: &[Label], users: &[String], submissions: &[Submission]) -> Scoreboard {
    let mut grid = Grid::new(problems, users);
    // The cells whose best so far is a CE's 0.
    let mut compile_errors_only: HashSet<(usize, usize)> = HashSet::new();
    for s in in_order(submissions) {
        let Some((r, c)) = grid.place(s) else {
            continue;
        };
        let cell = &mut grid.rows[r].cells[c];
        match s.outcome {
            Outcome::Pending => cell.pending += 1,
            Outcome::Judged { verdict, score } => {
                cell.attempts += 1;
                cell.state = CellState::Scored;
                if verdict == Verdict::CE {
                    if cell.score.is_none() {
                        cell.score = Some(0);
                        compile_errors_only.insert((r, c));
                    }
                } else if compile_errors_only.remove(&(r, c)) {
                    cell.score = Some(score);
                } else {
                    cell.score = Some(cell.score.map_or(score, |best| best.max(score)));
                }
            }
        }
    }
    let mut rows = grid.rows;
    for row in &mut rows {
        for cell in &mut row.cells {
            if cell.state == CellState::Empty && cell.pending > 0 {
                cell.state = CellState::Pending;
            }
        }
        row.score = row.cells.iter().filter_map(|c| c.score).sum();
    }
    rank(&mut rows, |r| std::cmp::Reverse(r.score));
    Scoreboard {
        format: Format::Ioi,
        problems: problems.to_vec(),
        rows,
        frozen: false,
        hidden: false,
    }
}
