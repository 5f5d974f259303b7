// target-sudoku, accepted: branch and bound with a row-pairing bound. The search fills the empty
// cell with the fewest candidates, largest digit first. A branch is cut when the score so far
// plus, for every row, its empty cells' weights paired largest with largest with the digits the
// row still misses (the rearrangement inequality: no completion of that row does better) cannot
// beat the best completion found.
use std::io::{self, Read};

struct Search {
    grid: [u16; 81],
    weight: [i64; 81],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    best: i64,
}

fn box_of(cell: usize) -> usize {
    (cell / 27) * 3 + (cell % 9) / 3
}

impl Search {
    fn free(&self, cell: usize) -> u16 {
        !(self.rows[cell / 9] | self.cols[cell % 9] | self.boxes[box_of(cell)]) & 0x3FE
    }

    /// Upper bound on what the empty cells can still add.
    fn rows_bound(&self) -> i64 {
        let mut total = 0;
        for r in 0..9 {
            // Empty cells of the row counted by weight (weights are 6..=10).
            let mut by_weight = [0u8; 11];
            for c in 0..9 {
                if self.grid[r * 9 + c] == 0 {
                    by_weight[self.weight[r * 9 + c] as usize] += 1;
                }
            }
            let mut d = 9;
            for w in (6..=10).rev() {
                for _ in 0..by_weight[w] {
                    while self.rows[r] >> d & 1 != 0 {
                        d -= 1;
                    }
                    total += w as i64 * d as i64;
                    d -= 1;
                }
            }
        }
        total
    }

    fn dfs(&mut self, score: i64) {
        let mut pick = None;
        let mut fewest = 10;
        for cell in 0..81 {
            if self.grid[cell] != 0 {
                continue;
            }
            let n = self.free(cell).count_ones();
            if n == 0 {
                return;
            }
            if n < fewest {
                fewest = n;
                pick = Some(cell);
            }
        }
        let cell = match pick {
            Some(cell) => cell,
            None => {
                self.best = self.best.max(score);
                return;
            }
        };
        if score + self.rows_bound() <= self.best {
            return;
        }
        let (r, c, b) = (cell / 9, cell % 9, box_of(cell));
        let free = self.free(cell);
        for d in (1..=9u16).rev() {
            let bit = 1u16 << d;
            if free & bit == 0 {
                continue;
            }
            self.grid[cell] = d;
            self.rows[r] |= bit;
            self.cols[c] |= bit;
            self.boxes[b] |= bit;
            self.dfs(score + self.weight[cell] * d as i64);
            self.rows[r] ^= bit;
            self.cols[c] ^= bit;
            self.boxes[b] ^= bit;
        }
        self.grid[cell] = 0;
    }
}

fn main() {
    let mut input = String::new();
    if io::stdin().read_to_string(&mut input).is_err() {
        println!("-1");
        return;
    }
    let mut s = Search {
        grid: [0; 81],
        weight: [0; 81],
        rows: [0; 9],
        cols: [0; 9],
        boxes: [0; 9],
        best: -1,
    };
    for (g, tok) in s.grid.iter_mut().zip(input.split_whitespace()) {
        *g = tok.parse::<u16>().ok().filter(|d| *d <= 9).unwrap_or(0);
    }
    let mut score = 0i64;
    for cell in 0..81 {
        let (r, c, b) = (cell / 9, cell % 9, box_of(cell));
        s.weight[cell] = 6 + r.min(c).min(8 - r).min(8 - c) as i64;
        let d = s.grid[cell];
        if d == 0 {
            continue;
        }
        let bit = 1u16 << d;
        if (s.rows[r] | s.cols[c] | s.boxes[b]) & bit != 0 {
            println!("-1");
            return;
        }
        s.rows[r] |= bit;
        s.cols[c] |= bit;
        s.boxes[b] |= bit;
        score += s.weight[cell] * d as i64;
    }
    s.dfs(score);
    println!("{}", s.best);
}
