// sudoku, run-time error: written for puzzles with '0' for an empty cell. A '.' becomes
// b'.' - b'0' (wrapping to 254), and indexing the 10-entry digit table with it panics
// (index out of bounds), so the program dies on the first puzzle.
use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap_or(0);
    let mut out = String::new();
    for line in input.lines() {
        let line = line.trim();
        if line == "end" {
            break;
        }
        let mut seen_in_row = [[false; 10]; 9];
        let mut grid = [0u8; 81];
        for (i, ch) in line.bytes().take(81).enumerate() {
            let d = ch.wrapping_sub(b'0') as usize;
            if seen_in_row[i / 9][d] {
                return;
            }
            seen_in_row[i / 9][d] = d != 0;
            grid[i] = d as u8;
        }
        out.extend(grid.iter().map(|&d| (b'0' + d) as char));
        out.push('\n');
    }
    print!("{out}");
}
