//! The matching regions of a similar pair, as JPlag and MOSS show them side by side: each
//! shared fingerprint is a seed where both token streams agree for `k` tokens; it is grown
//! backwards and forwards while the normalised tokens stay equal, and the longest runs are
//! kept, no token used twice on either side (greedy string tiling over the seeds). Each run
//! is mapped back to the source lines it covers.

use std::collections::HashSet;

use serde::Serialize;

use super::normalise::Token;

/// One matching region of a pair: a run of equal normalised tokens in both files.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Region {
    /// The lines of the first file it covers (1-based, inclusive).
    pub lines_a: (u32, u32),
    /// The lines of the second file it covers.
    pub lines_b: (u32, u32),
    /// Normalised tokens in the run.
    pub tokens: usize,
    /// The run's share of the smaller file's tokens, in percent.
    pub similarity: f64,
}

/// Grows the seed `(pa, pb)` to the longest run of equal tokens through it: its start in
/// `a`, in `b`, and its length (0 when the seed's first token differs: a hash collision).
fn grow(a: &[Token], b: &[Token], pa: usize, pb: usize) -> (usize, usize, usize) {
    let same = |i: usize, j: usize| a[i].text == b[j].text;
    if pa >= a.len() || pb >= b.len() || !same(pa, pb) {
        return (pa, pb, 0);
    }
    let (mut sa, mut sb) = (pa, pb);
    while sa > 0 && sb > 0 && same(sa - 1, sb - 1) {
        sa -= 1;
        sb -= 1;
    }
    let mut len = pa - sa;
    while sa + len < a.len() && sb + len < b.len() && same(sa + len, sb + len) {
        len += 1;
    }
    (sa, sb, len)
}

/// The regions two token streams share, from `seeds` (token positions of the fingerprints
/// they share, `(in a, in b)`), in the first file's order. Runs shorter than `min_tokens`
/// (the k-gram length: the noise threshold) are left out.
pub fn regions(
    a: &[Token],
    b: &[Token],
    seeds: impl IntoIterator<Item = (usize, usize)>,
    min_tokens: usize,
) -> Vec<Region> {
    let mut runs: Vec<(usize, usize, usize)> = Vec::new();
    let mut seen = HashSet::new();
    // A seed inside a run already grown on the same diagonal grows to that same run.
    let mut grown: Vec<(usize, usize, usize)> = Vec::new();
    for (pa, pb) in seeds {
        let inside = grown
            .iter()
            .any(|&(sa, sb, len)| pa >= sa && pa < sa + len && pa - sa == pb.wrapping_sub(sb));
        if inside {
            continue;
        }
        let run = grow(a, b, pa, pb);
        if run.2 >= min_tokens.max(1) && seen.insert(run) {
            runs.push(run);
            grown.push(run);
        }
    }
    runs.sort_by(|x, y| y.2.cmp(&x.2).then(x.0.cmp(&y.0)).then(x.1.cmp(&y.1)));
    let mut used_a = vec![false; a.len()];
    let mut used_b = vec![false; b.len()];
    let mut kept = Vec::new();
    for (sa, sb, len) in runs {
        if used_a[sa..sa + len].iter().any(|&u| u) || used_b[sb..sb + len].iter().any(|&u| u) {
            continue;
        }
        used_a[sa..sa + len].iter_mut().for_each(|u| *u = true);
        used_b[sb..sb + len].iter_mut().for_each(|u| *u = true);
        kept.push((sa, sb, len));
    }
    kept.sort_unstable();
    let smaller = a.len().min(b.len()).max(1);
    kept.into_iter()
        .map(|(sa, sb, len)| Region {
            lines_a: (a[sa].line, a[sa + len - 1].line),
            lines_b: (b[sb].line, b[sb + len - 1].line),
            tokens: len,
            similarity: len as f64 * 100.0 / smaller as f64,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One token per word, each on the line given by its position in `lines`.
    fn tokens(lines: &[&str]) -> Vec<Token> {
        lines
            .iter()
            .enumerate()
            .flat_map(|(n, l)| {
                l.split_whitespace().map(move |t| Token {
                    text: t.to_string(),
                    line: n as u32 + 1,
                })
            })
            .collect()
    }

    #[test]
    fn a_seed_grows_to_the_whole_run_and_maps_to_its_lines() {
        let a = tokens(&["x y z", "a b c d e f", "g h i", "q"]);
        let b = tokens(&["p", "p", "a b c d e f", "g h i", "r r"]);
        // Seeds in the middle of the run, twice on the same diagonal, one collision.
        let r = regions(&a, &b, [(5, 4), (7, 6), (0, 0)], 4);
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(r[0].lines_a, (2, 3));
        assert_eq!(r[0].lines_b, (3, 4));
        assert_eq!(r[0].tokens, 9);
        assert!((r[0].similarity - 9.0 * 100.0 / 13.0).abs() < 1e-9);
    }

    #[test]
    fn no_token_is_used_twice_and_short_runs_are_noise() {
        let a = tokens(&["a b c d", "a b c d", "u v"]);
        let b = tokens(&["a b c d", "u v"]);
        // Both copies of `a b c d` in `a` match the one in `b`: the longer run (the second
        // copy, going on with `u v`) is kept, the first would reuse `b`'s tokens.
        let r = regions(&a, &b, [(0, 0), (4, 0), (8, 4)], 3);
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(
            (r[0].tokens, r[0].lines_a, r[0].lines_b),
            (6, (2, 3), (1, 2))
        );
        assert!(
            regions(&a, &b, [(0, 0)], 5).is_empty(),
            "a run under the k-gram length is noise"
        );
    }
}
