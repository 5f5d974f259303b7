// binary-sudoku, accepted: a broken-profile dynamic programme cell by cell. The state after a
// cell is the parity of each column so far, of the current band's three boxes and of the
// current row (13 bits). Each cell is kept or flipped (cost 1); a row may only end even, a band
// only with its boxes even, and the grid only with every column even.
use std::io::{self, Read};

const INF: u8 = u8::MAX;

fn main() {
    let mut input = Vec::new();
    if io::stdin().read_to_end(&mut input).is_err() {
        return;
    }
    let bits: Vec<u32> = input
        .iter()
        .filter(|b| **b == b'0' || **b == b'1')
        .map(|b| u32::from(*b - b'0'))
        .collect();
    if bits.len() < 81 {
        eprintln!("expected 81 cells, got {}", bits.len());
        std::process::exit(1);
    }
    const ROW_BIT: usize = 1 << 12;
    let mut dp = vec![INF; 1 << 13];
    let mut next = vec![INF; 1 << 13];
    dp[0] = 0;
    for (cell, &orig) in bits.iter().take(81).enumerate() {
        let (r, c) = (cell / 9, cell % 9);
        let mark = (1usize << c) | (1 << (9 + c / 3)) | ROW_BIT;
        next.fill(INF);
        for (state, &cost) in dp.iter().enumerate() {
            if cost == INF {
                continue;
            }
            for flip in 0..2u32 {
                let value = orig ^ flip;
                let to = if value == 1 { state ^ mark } else { state };
                let total = cost + flip as u8;
                if total < next[to] {
                    next[to] = total;
                }
            }
        }
        if c == 8 {
            // The row is complete: it must be even.
            for cost in next[ROW_BIT..].iter_mut() {
                *cost = INF;
            }
            if r % 3 == 2 {
                // The band is complete: its boxes must be even.
                for cost in next[512..ROW_BIT].iter_mut() {
                    *cost = INF;
                }
            }
        }
        std::mem::swap(&mut dp, &mut next);
    }
    println!("{}", dp[0]);
}
