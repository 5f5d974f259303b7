//! Solved on a scored board: an IOI or OI cell is solved when the score it shows reaches its
//! problem's full score, which is not always 100 (a Kattis scoring package's maximum comes
//! from its groups). The one rule behind every "solved" of a scored board: the board's JSON
//! (cells' `solved`, rows' `solved`), the web board's colours and totals, and the Contest
//! API's scoreboard.

use super::board::{CellState, Scoreboard};
use super::format::Format;

/// Marks the cells of `board` that are solved and counts them in each row's `solved`;
/// `max_scores` holds each column's full score, in label order (a column without one keeps
/// 100, a pass-fail problem's). ICPC boards are left as they are: their cells are solved by
/// an accepted verdict.
pub fn mark_solved(board: &mut Scoreboard, max_scores: &[i64]) {
    if board.format == Format::Icpc {
        return;
    }
    for row in &mut board.rows {
        for (i, cell) in row.cells.iter_mut().enumerate() {
            let full = max_scores
                .get(i)
                .copied()
                .unwrap_or(crate::judge::max_score::PASS_FAIL);
            cell.solved = cell.state == CellState::Scored && cell.score.is_some_and(|s| s >= full);
        }
        let solved = row.cells.iter().filter(|c| c.solved).count();
        row.solved = u32::try_from(solved).unwrap_or(u32::MAX);
    }
}

#[cfg(test)]
mod tests {
    use jiff::SignedDuration;

    use super::*;
    use crate::contest::board::{Outcome, Submission};
    use crate::contest::{ioi, oi, Label};
    use crate::judge::Verdict;

    fn sub(id: u64, user: &str, label: &str, score: i64) -> Submission {
        Submission {
            id,
            user: user.into(),
            label: Label::parse(label).unwrap(),
            at: SignedDuration::from_mins(id as i64),
            outcome: Outcome::Judged {
                verdict: Verdict::AC,
                score,
            },
        }
    }

    #[test]
    fn a_cell_is_solved_at_its_problems_full_score_not_at_100() {
        let labels = [Label::parse("A").unwrap(), Label::parse("B").unwrap()];
        let users = ["ann".to_string(), "ben".to_string()];
        // A maxes at 15 (a scoring package), B at 100 (pass-fail).
        let subs = [
            sub(1, "ann", "A", 15),
            sub(2, "ann", "B", 100),
            sub(3, "ben", "A", 10),
            sub(4, "ben", "B", 99),
        ];
        for mut b in [
            ioi::scoreboard(&labels, &users, &subs),
            oi::scoreboard(&labels, &users, &subs, true),
        ] {
            mark_solved(&mut b, &[15, 100]);
            let ann = b.rows.iter().find(|r| r.user == "ann").unwrap();
            let ben = b.rows.iter().find(|r| r.user == "ben").unwrap();
            assert_eq!((ann.cells[0].solved, ann.cells[1].solved), (true, true));
            assert_eq!((ben.cells[0].solved, ben.cells[1].solved), (false, false));
            assert_eq!((ann.solved, ben.solved), (2, 0));
        }
        // Hidden OI cells show no score: nothing is solved.
        let mut hidden = oi::scoreboard(&labels, &users, &subs, false);
        mark_solved(&mut hidden, &[15, 100]);
        assert!(hidden.rows.iter().all(|r| r.solved == 0));
    }
}
