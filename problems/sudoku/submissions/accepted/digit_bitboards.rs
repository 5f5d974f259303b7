// sudoku, accepted: one 81-bit board (u128) per digit instead of one mask per cell. Naked
// singles, hidden singles and contradictions are found with whole-board bit operations, and
// the search branches on a two-candidate cell when there is one (else the fewest candidates).
use std::io::{self, BufRead, BufWriter, Write};

const ALL: u128 = (1u128 << 81) - 1;

struct Tables {
    units: [u128; 27],
    peers: [u128; 81],
}

fn tables() -> Tables {
    let mut units = [0u128; 27];
    for i in 0..81 {
        let (r, c) = (i / 9, i % 9);
        let b = (r / 3) * 3 + c / 3;
        units[r] |= 1u128 << i;
        units[9 + c] |= 1u128 << i;
        units[18 + b] |= 1u128 << i;
    }
    let mut peers = [0u128; 81];
    for (i, p) in peers.iter_mut().enumerate() {
        let (r, c) = (i / 9, i % 9);
        let b = (r / 3) * 3 + c / 3;
        *p = (units[r] | units[9 + c] | units[18 + b]) & !(1u128 << i);
    }
    Tables { units, peers }
}

#[derive(Clone, Copy)]
struct State {
    /// Bit i of `d[k]` is set when cell i may still hold digit k + 1.
    d: [u128; 9],
    /// Cells whose digit is fixed.
    solved: u128,
}

impl State {
    fn place(&mut self, t: &Tables, cell: usize, k: usize) {
        let bit = 1u128 << cell;
        for (e, board) in self.d.iter_mut().enumerate() {
            if e != k {
                *board &= !bit;
            }
        }
        self.d[k] &= !t.peers[cell];
        self.solved |= bit;
    }

    /// Naked and hidden singles to a fixed point; false on a contradiction.
    fn propagate(&mut self, t: &Tables) -> bool {
        loop {
            let (mut once, mut twice) = (0u128, 0u128);
            for &b in &self.d {
                twice |= once & b;
                once |= b;
            }
            if once != ALL {
                return false;
            }
            let mut naked = once & !twice & !self.solved;
            if naked != 0 {
                while naked != 0 {
                    let cell = naked.trailing_zeros() as usize;
                    naked &= naked - 1;
                    let bit = 1u128 << cell;
                    match (0..9).find(|&k| self.d[k] & bit != 0) {
                        Some(k) => self.place(t, cell, k),
                        None => return false,
                    }
                }
                continue;
            }
            let mut found = false;
            for k in 0..9 {
                for &u in &t.units {
                    let m = self.d[k] & u;
                    if m == 0 {
                        return false;
                    }
                    if m & (m - 1) == 0 && m & !self.solved != 0 {
                        self.place(t, m.trailing_zeros() as usize, k);
                        found = true;
                    }
                }
            }
            if !found {
                return true;
            }
        }
    }

    fn branch_cell(&self) -> usize {
        let (mut once, mut twice, mut thrice) = (0u128, 0u128, 0u128);
        for &b in &self.d {
            thrice |= twice & b;
            twice |= once & b;
            once |= b;
        }
        let pairs = twice & !thrice & !self.solved;
        if pairs != 0 {
            return pairs.trailing_zeros() as usize;
        }
        let mut best = (10, 0);
        let mut open = !self.solved & ALL;
        while open != 0 {
            let cell = open.trailing_zeros() as usize;
            open &= open - 1;
            let n = self.d.iter().filter(|b| *b >> cell & 1 != 0).count();
            if n < best.0 {
                best = (n, cell);
            }
        }
        best.1
    }
}

fn solve(s: &mut State, t: &Tables) -> bool {
    if !s.propagate(t) {
        return false;
    }
    if s.solved == ALL {
        return true;
    }
    let cell = s.branch_cell();
    let bit = 1u128 << cell;
    for k in 0..9 {
        if s.d[k] & bit == 0 {
            continue;
        }
        let mut next = *s;
        next.place(t, cell, k);
        if solve(&mut next, t) {
            *s = next;
            return true;
        }
    }
    false
}

fn main() {
    let t = tables();
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(l) => l,
            Err(_) => break,
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if line == "end" {
            break;
        }
        let mut s = State {
            d: [ALL; 9],
            solved: 0,
        };
        let mut ok = true;
        for (i, ch) in line.bytes().take(81).enumerate() {
            if (b'1'..=b'9').contains(&ch) {
                let k = (ch - b'1') as usize;
                if s.d[k] >> i & 1 == 0 {
                    ok = false;
                    break;
                }
                s.place(&t, i, k);
            }
        }
        let mut grid = [b'0'; 82];
        grid[81] = b'\n';
        if ok && solve(&mut s, &t) {
            for (i, g) in grid.iter_mut().take(81).enumerate() {
                if let Some(k) = (0..9).find(|&k| s.d[k] >> i & 1 != 0) {
                    *g = b'1' + k as u8;
                }
            }
        }
        if out.write_all(&grid).is_err() {
            break;
        }
    }
    let _ = out.flush();
}
