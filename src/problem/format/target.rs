//! `target-sudoku` input: 9 lines of 9 integers 0-9 separated by spaces, 0 for an empty cell.

use super::{expect_only_blank, lines, show, FormatError};

/// Parses a grid (row-major, `0` = empty).
pub fn parse(input: &[u8]) -> Result<[u8; 81], FormatError> {
    let mut grid = [0u8; 81];
    let mut lines = lines(input);
    for row in 0..9 {
        let Some((n, line)) = lines.next() else {
            return Err(FormatError::at(
                row + 1,
                format!("expected 9 rows, found {row}"),
            ));
        };
        let mut count = 0;
        for token in line
            .split(|b| b.is_ascii_whitespace())
            .filter(|t| !t.is_empty())
        {
            if count == 9 {
                return Err(FormatError::at(
                    n,
                    format!("more than 9 numbers in row {}", row + 1),
                ));
            }
            let digit = match token {
                [d @ b'0'..=b'9'] => d - b'0',
                _ => {
                    return Err(FormatError::at(
                        n,
                        format!(
                            "number {} is {}, expected an integer 0-9",
                            count + 1,
                            show(token)
                        ),
                    ))
                }
            };
            grid[row * 9 + count] = digit;
            count += 1;
        }
        if count != 9 {
            return Err(FormatError::at(
                n,
                format!("expected 9 numbers in row {}, found {count}", row + 1),
            ));
        }
    }
    expect_only_blank(lines, "the 9 rows")?;
    Ok(grid)
}

/// Writes a grid in the canonical form: single spaces, LF line ends.
pub fn write(grid: &[u8; 81]) -> Vec<u8> {
    let mut out = Vec::with_capacity(162);
    for row in grid.chunks(9) {
        for (i, &d) in row.iter().enumerate() {
            if i > 0 {
                out.push(b' ');
            }
            out.push(b'0' + d);
        }
        out.push(b'\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "7 0 0 9 0 0 0 0 1\n1 0 0 0 0 5 9 0 0\n0 0 0 2 0 0 0 8 0\n\
        0 0 5 0 2 0 0 0 3\n0 0 0 0 0 0 6 4 8\n4 1 3 0 0 0 0 0 0\n0 0 7 0 0 2 0 9 0\n\
        2 0 1 0 6 0 8 0 4\n0 8 0 5 0 4 0 1 2\n";

    #[test]
    fn round_trips() {
        let grid = parse(SAMPLE.as_bytes()).unwrap();
        assert_eq!(grid[0], 7);
        assert_eq!(grid[80], 2);
        assert_eq!(write(&grid), SAMPLE.as_bytes());
    }

    #[test]
    fn faults_name_the_line() {
        let bad = SAMPLE.replacen("0 5 9", "0 10 9", 1);
        let err = parse(bad.as_bytes()).unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.contains("\"10\""), "{err}");

        let short = SAMPLE.replacen("0 8 0\n", "0 8\n", 1);
        assert_eq!(parse(short.as_bytes()).unwrap_err().line, 3);

        let eight: String = SAMPLE.lines().take(8).map(|l| format!("{l}\n")).collect();
        assert_eq!(parse(eight.as_bytes()).unwrap_err().line, 9);

        let extra = format!("{SAMPLE}1 2 3\n");
        assert_eq!(parse(extra.as_bytes()).unwrap_err().line, 10);
    }
}
