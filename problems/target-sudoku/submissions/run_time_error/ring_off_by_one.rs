// target-sudoku, run-time error: computes each cell's ring as its distance from the centre and
// looks the weight up as WEIGHTS[5 - ring], one past the end for the centre cell (ring 0): the
// bounds check panics before anything is printed.
use std::io::{self, Read};

const WEIGHTS: [i64; 5] = [6, 7, 8, 9, 10];

fn best(grid: &mut [i64; 81], weight: &[i64; 81], cell: usize, score: i64) -> i64 {
    if cell == 81 {
        return score;
    }
    if grid[cell] != 0 {
        return best(grid, weight, cell + 1, score + weight[cell] * grid[cell]);
    }
    let mut top = -1;
    for d in 1..=9 {
        if fits(grid, cell, d) {
            grid[cell] = d;
            top = top.max(best(grid, weight, cell + 1, score + weight[cell] * d));
            grid[cell] = 0;
        }
    }
    top
}

fn fits(grid: &[i64; 81], cell: usize, d: i64) -> bool {
    let (r, c) = (cell / 9, cell % 9);
    (0..9).all(|k| {
        grid[r * 9 + k] != d
            && grid[k * 9 + c] != d
            && grid[(r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3] != d
    })
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap_or(0);
    let mut grid = [0i64; 81];
    for (g, tok) in grid.iter_mut().zip(input.split_whitespace()) {
        *g = tok.parse().unwrap_or(0);
    }
    let mut weight = [0i64; 81];
    for (cell, w) in weight.iter_mut().enumerate() {
        let (r, c) = ((cell / 9) as i64, (cell % 9) as i64);
        let ring = (r - 4).abs().max((c - 4).abs()) as usize;
        *w = WEIGHTS[5 - ring];
    }
    println!("{}", best(&mut grid, &weight, 0, 0));
}
