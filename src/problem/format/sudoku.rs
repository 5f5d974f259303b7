//! `sudoku` input: one puzzle per line, 81 characters `1`-`9` or `.`, then a line `end`.

use super::{expect_only_blank, lines, show, FormatError};
use crate::solvers::sudoku::Grid;

/// Parses a whole input: every puzzle up to the line `end`.
pub fn parse(input: &[u8]) -> Result<Vec<Grid>, FormatError> {
    let mut puzzles = Vec::new();
    let mut lines = lines(input);
    let mut last = 0;
    while let Some((n, line)) = lines.next() {
        last = n;
        if line == b"end" {
            expect_only_blank(lines, "the line `end`")?;
            return Ok(puzzles);
        }
        puzzles.push(parse_grid(line).map_err(|message| FormatError::at(n, message))?);
    }
    Err(FormatError::at(
        last + 1,
        "missing the final line `end`".to_string(),
    ))
}

/// Parses one 81-character puzzle line (`.` for an empty cell); the message says what is wrong.
pub fn parse_grid(line: &[u8]) -> Result<Grid, String> {
    if line.len() != 81 {
        return Err(format!(
            "expected a puzzle of 81 characters (or `end`), found {} characters: {}",
            line.len(),
            show(line)
        ));
    }
    let mut grid = [0u8; 81];
    for (i, &c) in line.iter().enumerate() {
        grid[i] = match c {
            b'1'..=b'9' => c - b'0',
            b'.' => 0,
            _ => {
                return Err(format!(
                    "character {} (row {}, column {}) is {}, expected 1-9 or .",
                    i + 1,
                    i / 9 + 1,
                    i % 9 + 1,
                    show(&[c])
                ))
            }
        };
    }
    Ok(grid)
}

/// Writes puzzles in the canonical input form (ending with `end`).
pub fn write_puzzles(puzzles: &[Grid]) -> Vec<u8> {
    let mut out = Vec::with_capacity(puzzles.len() * 82 + 4);
    for p in puzzles {
        out.extend(p.iter().map(|&d| if d == 0 { b'.' } else { b'0' + d }));
        out.push(b'\n');
    }
    out.extend_from_slice(b"end\n");
    out
}

/// Writes solved grids, one line of 81 digits each (the output and `.ans` form).
pub fn write_solutions(grids: &[Grid]) -> Vec<u8> {
    let mut out = Vec::with_capacity(grids.len() * 82);
    for g in grids {
        append_solution(&mut out, g);
    }
    out
}

/// Appends one solved grid as a line of 81 digits.
pub fn append_solution(out: &mut Vec<u8>, grid: &Grid) {
    out.extend(grid.iter().map(|&d| b'0' + d));
    out.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    const P1: &str =
        ".2738..1..1...6735.......293.5692.8...........6.1745.364.......9518...7..8..6534.";

    #[test]
    fn parses_puzzles_until_end_and_writes_them_back() {
        let text = format!("{P1}\n{P1}\nend\n");
        let puzzles = parse(text.as_bytes()).unwrap();
        assert_eq!(puzzles.len(), 2);
        assert_eq!(puzzles[0][1], 2);
        assert_eq!(puzzles[0][0], 0);
        assert_eq!(write_puzzles(&puzzles), text.as_bytes());
    }

    #[test]
    fn tolerates_crlf_and_no_final_newline() {
        let text = format!("{P1}\r\nend");
        assert_eq!(parse(text.as_bytes()).unwrap().len(), 1);
    }

    #[test]
    fn errors_name_the_line() {
        let short = &P1[..80];
        let err = parse(format!("{P1}\n{short}\nend\n").as_bytes()).unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.contains("found 80 characters"), "{err}");

        let zero = P1.replacen('.', "0", 1);
        let err = parse(format!("{zero}\nend\n").as_bytes()).unwrap_err();
        assert_eq!(err.line, 1);
        assert!(err.message.contains("row 1, column 1"), "{err}");

        let err = parse(format!("{P1}\n").as_bytes()).unwrap_err();
        assert_eq!(err.to_string(), "line 2: missing the final line `end`");

        let err = parse(format!("{P1}\nend\n{P1}\n").as_bytes()).unwrap_err();
        assert_eq!(err.line, 3);
    }

    #[test]
    fn empty_list_is_just_end() {
        assert_eq!(parse(b"end\n").unwrap().len(), 0);
        assert!(parse(b"").is_err());
    }
}
