//! `binary-sudoku` input (as in USACO): 9 lines of 9 characters `0`/`1`, no spaces.

use super::{expect_only_blank, lines, show, FormatError};

/// Parses a grid of bits (row-major, each cell `0` or `1`).
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
        if line.len() != 9 {
            return Err(FormatError::at(
                n,
                format!(
                    "expected 9 characters 0/1, found {} characters: {}",
                    line.len(),
                    show(line)
                ),
            ));
        }
        for (col, &c) in line.iter().enumerate() {
            grid[row * 9 + col] = match c {
                b'0' | b'1' => c - b'0',
                _ => {
                    return Err(FormatError::at(
                        n,
                        format!("column {} is {}, expected 0 or 1", col + 1, show(&[c])),
                    ))
                }
            };
        }
    }
    expect_only_blank(lines, "the 9 rows")?;
    Ok(grid)
}

/// Writes a grid in the canonical form.
pub fn write(grid: &[u8; 81]) -> Vec<u8> {
    let mut out = Vec::with_capacity(90);
    for row in grid.chunks(9) {
        out.extend(row.iter().map(|&b| b'0' + b));
        out.push(b'\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "000000000\n001000100\n000000000\n000110000\n000111000\n\
        000001000\n000000000\n000000000\n000000000\n";

    #[test]
    fn round_trips() {
        let grid = parse(SAMPLE.as_bytes()).unwrap();
        assert_eq!(grid.iter().filter(|&&b| b == 1).count(), 8);
        assert_eq!(write(&grid), SAMPLE.as_bytes());
    }

    #[test]
    fn faults_name_the_line() {
        let spaced = SAMPLE.replacen("001000100", "0 0 1 0 0 0 1 0 0", 1);
        let err = parse(spaced.as_bytes()).unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.contains("found 17 characters"), "{err}");

        let two = SAMPLE.replacen("000110000", "000120000", 1);
        let err = parse(two.as_bytes()).unwrap_err();
        assert_eq!(
            (err.line, err.message.as_str()),
            (4, "column 5 is \"2\", expected 0 or 1")
        );
    }
}
