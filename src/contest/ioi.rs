//! IOI scoring: the sum over problems of each problem's best score.

use super::board::{in_order, rank, CellState, Grid, Outcome, Scoreboard, Submission};
use super::format::Format;
use super::ids::Label;

/// The IOI board: each cell shows the best score of its judged submissions (a CE scores
/// 0), pending ones are counted apart; rows rank by total (more first), equal totals share
/// a rank.
pub fn scoreboard(problems: &[Label], users: &[String], submissions: &[Submission]) -> Scoreboard {
    let mut grid = Grid::new(problems, users);
    for s in in_order(submissions) {
        let Some((r, c)) = grid.place(s) else {
            continue;
        };
        let cell = &mut grid.rows[r].cells[c];
        match s.outcome {
            Outcome::Pending => cell.pending += 1,
            Outcome::Judged { score, .. } => {
                cell.attempts += 1;
                cell.state = CellState::Scored;
                cell.score = Some(cell.score.map_or(score, |best| best.max(score)));
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
