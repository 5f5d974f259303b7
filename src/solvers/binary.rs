//! Binary Sudoku (USACO 2011 Nov Gold): the minimum number of flips to even parity everywhere.
//!
//! An exact dynamic programme over the cells in row-major order. The state is the parity of
//! the final grid's ones seen so far in each of the 9 columns, in each of the 3 boxes of the
//! current band, and in the current row: 13 bits. Each cell either keeps its value or flips
//! (cost 1). A row may only end with even row parity, a band with even box parities, and the
//! grid with even column parities.

/// Bits 0..9: column parities; 9..12: box parities of the current band; 12: row parity.
const STATES: usize = 1 << 13;
const ROW_BIT: usize = 1 << 12;
const BOX_BITS: usize = 0b111 << 9;
/// Larger than any reachable cost (at most 81), small enough that adding 1 cannot overflow.
const INF: u8 = 200;

/// The minimum number of cells to flip so that every row, column and 3x3 box of `grid`
/// (cells `0` or `1`) holds an even number of ones. Always solvable; never more than 9.
///
/// Any non-zero cell counts as a one.
pub fn min_flips(grid: &[u8; 81]) -> u32 {
    let mut dp = vec![INF; STATES];
    let mut next = vec![INF; STATES];
    dp[0] = 0;
    for row in 0..9 {
        for col in 0..9 {
            let one = u8::from(grid[row * 9 + col] != 0);
            let mask = (1 << col) | (1 << (9 + col / 3)) | ROW_BIT;
            // The final cell is 0 (cost: one flip if it was 1) or 1 (toggles `mask` bits).
            for (s, slot) in next.iter_mut().enumerate() {
                *slot = (dp[s] + one).min(dp[s ^ mask] + (1 - one)).min(INF);
            }
            std::mem::swap(&mut dp, &mut next);
        }
        for (s, v) in dp.iter_mut().enumerate() {
            let odd_row = s & ROW_BIT != 0;
            let odd_box = row % 3 == 2 && s & BOX_BITS != 0;
            if odd_row || odd_box {
                *v = INF;
            }
        }
    }
    u32::from(dp[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> [u8; 81] {
        let mut grid = [0u8; 81];
        let bits: Vec<u8> = text
            .bytes()
            .filter(|b| b.is_ascii_digit())
            .map(|b| b - b'0')
            .collect();
        grid.copy_from_slice(&bits);
        grid
    }

    #[test]
    fn two_odd_cells_need_two_flips() {
        // Odd: rows 1 and 2, columns 2 and 5, boxes 0 and 1. Flipping (1,5) and (2,2) fixes
        // all six, and one flip changes only three parities.
        let grid = parse(
            "000000000 001000000 000001000 000000000 000000000 \
             000000000 000000000 000000000 000000000",
        );
        assert_eq!(min_flips(&grid), 2);
    }

    #[test]
    fn even_grids_need_nothing() {
        assert_eq!(min_flips(&[0; 81]), 0);
        assert_eq!(min_flips(&[1; 81]), 9);
    }

    #[test]
    fn identity_diagonal_pattern_needs_nine() {
        // Every row, column and box odd: one flip per row, and nine is the proven maximum.
        let mut grid = [0u8; 81];
        for i in 0..9 {
            grid[i * 9 + (i % 3) * 3 + i / 3] = 1;
        }
        assert_eq!(min_flips(&grid), 9);
    }
}
