//! Binary Sudoku (USACO 2011 Nov Gold): the minimum number of flips to even parity everywhere.
//!
//! An exact dynamic programme over the cells in row-major order. The state is the parity of
//! the final grid's ones seen so far in each of the 9 columns and in each of the 3 boxes of
//! the current band: 12 bits. Each cell either keeps its value or flips (cost 1). A band may
//! only end with even box parities, and the grid with even column parities.
//!
//! The row parity needs no bit of its own: a one in a row toggles exactly one box bit, so at
//! the end of a row that started with an even number of odd boxes, the row is even exactly
//! when the number of odd boxes is even again.

/// Bits 0..9: column parities; 9..12: box parities of the current band. So the states come
/// in 8 blocks of 512, one per combination of box parities.
const STATES: usize = 1 << 12;
const BLOCK: usize = 1 << 9;
/// No optimal path passes through a state costing more than the answer, which is at most 9:
/// costs are capped here, and the cap also stands for "unreachable".
const CAP: u8 = 10;

/// The minimum number of cells to flip so that every row, column and 3x3 box of `grid`
/// (cells `0` or `1`) holds an even number of ones. Always solvable; never more than 9.
///
/// Any non-zero cell counts as a one.
pub fn min_flips(grid: &[u8; 81]) -> u32 {
    let mut dp = [CAP; STATES];
    dp[0] = 0;
    for row in 0..9 {
        for col in 0..9 {
            relax(&mut dp, col, u8::from(grid[row * 9 + col] != 0));
        }
        let band_ends = row % 3 == 2;
        for (combo, block) in dp.chunks_exact_mut(BLOCK).enumerate() {
            let odd_row = combo.count_ones() % 2 == 1;
            if odd_row || (band_ends && combo != 0) {
                block.fill(CAP);
            }
        }
    }
    u32::from(dp[0])
}

/// One cell of column `col` whose value is `one`: the final cell is 0 (costing a flip when
/// `one` is 1) or 1 (costing a flip when `one` is 0, and toggling its column and box bits).
fn relax(dp: &mut [u8; STATES], col: usize, one: u8) {
    let (keep, flip) = (one, 1 - one);
    let box_bit = 1 << (col / 3);
    let run = 1 << col;
    for combo in (0..8).filter(|c| c & box_bit == 0) {
        // The states with this box bit clear pair with those with it set, column bit flipped.
        let (low, high) = dp.split_at_mut((combo | box_bit) * BLOCK);
        let a = &mut low[combo * BLOCK..(combo + 1) * BLOCK];
        let b = &mut high[..BLOCK];
        for (a, b) in a.chunks_exact_mut(2 * run).zip(b.chunks_exact_mut(2 * run)) {
            let (a_lo, a_hi) = a.split_at_mut(run);
            let (b_lo, b_hi) = b.split_at_mut(run);
            pair_up(a_lo, b_hi, keep, flip);
            pair_up(a_hi, b_lo, keep, flip);
        }
    }
}

/// `x[i]` and `y[i]` are states one toggle apart: each may come from itself by keeping the
/// cell's final value 0, or from the other by making it 1.
#[inline(always)]
fn pair_up(x: &mut [u8], y: &mut [u8], keep: u8, flip: u8) {
    for (x, y) in x.iter_mut().zip(y.iter_mut()) {
        let (old_x, old_y) = (*x, *y);
        *x = (old_x + keep).min(old_y + flip).min(CAP);
        *y = (old_y + keep).min(old_x + flip).min(CAP);
    }
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
