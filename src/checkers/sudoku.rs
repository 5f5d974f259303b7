//! `sudoku` checker: one solved grid per puzzle, each valid and keeping every given.
//!
//! Validity, not string equality: the `.ans` holds the unique solution, but any valid
//! completion that keeps the givens is right (and with unique puzzles they coincide).

use super::tokens::tokens;
use super::CheckOutcome;
use crate::problem::format::{self, show};
use crate::solvers::sudoku::Grid;

/// Checks `output` against the puzzles of `input`; `answer` only has to hold one line per puzzle.
pub fn check(input: &[u8], output: &[u8], answer: &[u8]) -> CheckOutcome {
    let puzzles = match format::sudoku::parse(input) {
        Ok(p) => p,
        Err(e) => return CheckOutcome::JudgeError(format!("malformed test input: {e}")),
    };
    let answers = tokens(answer).count();
    if answers != puzzles.len() {
        return CheckOutcome::JudgeError(format!(
            "answer file holds {answers} grids for {} puzzles",
            puzzles.len()
        ));
    }
    let mut found = tokens(output);
    for (i, puzzle) in puzzles.iter().enumerate() {
        let number = i + 1;
        let Some(token) = found.next() else {
            return CheckOutcome::WrongAnswer(format!(
                "puzzle {number}: no grid (output holds {i} grids, expected {})",
                puzzles.len()
            ));
        };
        if let Err(fault) = check_grid(puzzle, token) {
            return CheckOutcome::WrongAnswer(format!("puzzle {number}: {fault}"));
        }
    }
    if let Some(extra) = found.next() {
        return CheckOutcome::WrongAnswer(format!(
            "extra output after the last puzzle ({}): {}",
            puzzles.len(),
            show(extra)
        ));
    }
    CheckOutcome::Accepted
}

/// The cell of the `k`-th member of group `g` (a row, a column or a box).
type CellOf = fn(usize, usize) -> usize;

/// The first fault of one output grid, in the order: shape, givens, rows, columns, boxes.
fn check_grid(puzzle: &Grid, token: &[u8]) -> Result<(), String> {
    if token.len() != 81 {
        return Err(format!(
            "expected 81 digits, found {} characters: {}",
            token.len(),
            show(token)
        ));
    }
    let mut grid = [0u8; 81];
    for (cell, &c) in token.iter().enumerate() {
        if !(b'1'..=b'9').contains(&c) {
            return Err(format!(
                "row {}, column {} is {}, not a digit 1-9",
                cell / 9 + 1,
                cell % 9 + 1,
                show(&[c])
            ));
        }
        grid[cell] = c - b'0';
    }
    for cell in 0..81 {
        if puzzle[cell] != 0 && puzzle[cell] != grid[cell] {
            return Err(format!(
                "row {}, column {} is {} but the given is {}",
                cell / 9 + 1,
                cell % 9 + 1,
                grid[cell],
                puzzle[cell]
            ));
        }
    }
    let groups: [(&str, CellOf); 3] = [
        ("row", |g, k| g * 9 + k),
        ("column", |g, k| k * 9 + g),
        ("box", |g, k| (g / 3 * 3 + k / 3) * 9 + g % 3 * 3 + k % 3),
    ];
    for (name, cell_of) in groups {
        for g in 0..9 {
            let mut seen = 0u16;
            for k in 0..9 {
                let digit = grid[cell_of(g, k)];
                if seen & (1 << digit) != 0 {
                    return Err(format!("{name} {} has {digit} twice", g + 1));
                }
                seen |= 1 << digit;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        ".2738..1..1...6735.......293.5692.8...........6.1745.364.......9518...7..8..6534.";
    const SOLUTION: &str =
        "527389416819426735436751829375692184194538267268174593643217958951843672782965341";

    fn input(n: usize) -> String {
        format!("{}end\n", format!("{PUZZLE}\n").repeat(n))
    }

    fn answer(n: usize) -> String {
        format!("{SOLUTION}\n").repeat(n)
    }

    fn run(n: usize, output: &[u8]) -> CheckOutcome {
        check(input(n).as_bytes(), output, answer(n).as_bytes())
    }

    fn wa(n: usize, output: &str) -> String {
        match run(n, output.as_bytes()) {
            CheckOutcome::WrongAnswer(m) => m,
            other => panic!("expected WA, got {other:?}"),
        }
    }

    /// The solution with cells `a` and `b` swapped.
    fn swapped(a: usize, b: usize) -> String {
        let mut cells = SOLUTION.as_bytes().to_vec();
        cells.swap(a, b);
        String::from_utf8(cells).unwrap()
    }

    #[test]
    fn accepts_valid_grids_whatever_the_whitespace() {
        assert_eq!(run(1, SOLUTION.as_bytes()), CheckOutcome::Accepted);
        let crlf = format!("{SOLUTION}  \r\n{SOLUTION}\r\n\r\n");
        assert_eq!(run(2, crlf.as_bytes()), CheckOutcome::Accepted);
    }

    #[test]
    fn each_fault_has_its_message() {
        assert_eq!(
            wa(2, SOLUTION),
            "puzzle 2: no grid (output holds 1 grids, expected 2)"
        );
        assert_eq!(
            wa(1, ""),
            "puzzle 1: no grid (output holds 0 grids, expected 1)"
        );
        assert_eq!(
            wa(1, &SOLUTION[..80]),
            format!(
                "puzzle 1: expected 81 digits, found 80 characters: \"{}\"... (80 bytes)",
                &SOLUTION[..24]
            )
        );
        let dotted = SOLUTION.replacen('5', ".", 1);
        assert_eq!(
            wa(1, &dotted),
            "puzzle 1: row 1, column 1 is \".\", not a digit 1-9"
        );
        // Cells 0 and 1 (5 and 2): cell 1 is a given 2.
        assert_eq!(
            wa(1, &swapped(0, 1)),
            "puzzle 1: row 1, column 2 is 5 but the given is 2"
        );
        // Cells 0 and 9 are both empty in the puzzle; swapping them breaks row 1 (two 8s).
        let second = format!("{SOLUTION}\n{}\n", swapped(0, 9));
        assert_eq!(wa(2, &second), "puzzle 2: row 1 has 8 twice");
        assert_eq!(
            wa(1, &format!("{SOLUTION}\n{SOLUTION}")),
            format!(
                "extra output after the last puzzle (1): \"{}\"... (81 bytes)",
                &SOLUTION[..24]
            )
        );
    }

    #[test]
    fn column_and_box_faults_are_named() {
        // A grid with every row a permutation but columns broken: shift-free constant rows.
        let rows = "123456789".repeat(9);
        let empty = ".".repeat(81);
        let out = check(
            format!("{empty}\nend\n").as_bytes(),
            rows.as_bytes(),
            b"x\n",
        );
        assert_eq!(
            out,
            CheckOutcome::WrongAnswer("puzzle 1: column 1 has 1 twice".to_string())
        );
        // A Latin square whose boxes fail: row r is 1..9 shifted by r.
        let latin: String = (0..9)
            .flat_map(|r| (0..9).map(move |c| char::from(b'1' + ((r + c) % 9) as u8)))
            .collect();
        let out = check(
            format!("{empty}\nend\n").as_bytes(),
            latin.as_bytes(),
            b"x\n",
        );
        assert_eq!(
            out,
            CheckOutcome::WrongAnswer("puzzle 1: box 1 has 2 twice".to_string())
        );
    }

    #[test]
    fn garbage_and_huge_lines_give_short_messages() {
        let msg = match run(1, b"\x00\xff\x13garbage") {
            CheckOutcome::WrongAnswer(m) => m,
            other => panic!("{other:?}"),
        };
        assert!(
            msg.starts_with("puzzle 1: expected 81 digits, found 10 characters: \"\\x00\\xff"),
            "{msg}"
        );
        let huge = vec![b'1'; 100 << 20];
        let msg = match run(1, &huge) {
            CheckOutcome::WrongAnswer(m) => m,
            other => panic!("{other:?}"),
        };
        assert!(msg.len() < 150, "{msg}");
        assert!(msg.contains("found 104857600 characters"), "{msg}");
    }

    #[test]
    fn malformed_test_files_are_judge_errors() {
        let out = check(b"not a puzzle\nend\n", SOLUTION.as_bytes(), b"x\n");
        assert!(matches!(out, CheckOutcome::JudgeError(m) if m.contains("line 1")));
        let out = check(
            input(2).as_bytes(),
            SOLUTION.as_bytes(),
            answer(1).as_bytes(),
        );
        assert_eq!(
            out,
            CheckOutcome::JudgeError("answer file holds 1 grids for 2 puzzles".to_string())
        );
    }
}
