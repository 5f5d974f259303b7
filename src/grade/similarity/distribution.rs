//! The class's own distribution of pairwise similarity, as JPlag shows it: a histogram, the
//! median and the median absolute deviation (MAD), and the bound above which a pair stands
//! out of its class (median + 3 MAD, and never under [`MIN_BOUND`]) even under the fixed
//! threshold.

use serde::Serialize;

/// Fewest compared pairs (five students) for which the distribution flags anything: with
/// fewer, a median says nothing about a class.
pub const MIN_PAIRS: usize = 10;

/// The lowest bound, in percent: a class whose pairs mostly share nothing has a median and a
/// MAD of 0, and two independent solutions sharing a common idiom must not stand out of it.
/// Independently written solutions in this repository score at most 34% against each other
/// (`tests/properties/grade_similarity.rs`).
pub const MIN_BOUND: f64 = 35.0;

/// How many MADs above the median a pair stands out.
pub const MADS: f64 = 3.0;

/// The similarity of every compared pair, summarised.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Distribution {
    /// Pairs compared (same language group, not two `--against` files).
    pub pairs: usize,
    /// Pairs per tenth of similarity: `[0, 10)`, `[10, 20)`, ..., `[90, 100]`.
    pub histogram: [usize; 10],
    /// Median similarity of all compared pairs, in percent (0 with no pair).
    pub median: f64,
    /// Median absolute deviation from it, in percentage points.
    pub mad: f64,
    /// A pair above this similarity stands out of its class: median + 3 MAD, at least
    /// [`MIN_BOUND`]; `None` with fewer than [`MIN_PAIRS`] pairs.
    pub bound: Option<f64>,
}

fn median(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

impl Distribution {
    /// The distribution of `similarities` (percentages, any order).
    pub fn of(similarities: &[f64]) -> Distribution {
        let mut sorted = similarities.to_vec();
        sorted.sort_by(f64::total_cmp);
        let middle = median(&sorted);
        let mut deviations: Vec<f64> = sorted.iter().map(|s| (s - middle).abs()).collect();
        deviations.sort_by(f64::total_cmp);
        let mad = median(&deviations);
        let mut histogram = [0; 10];
        for s in &sorted {
            let bucket = (s / 10.0).floor().clamp(0.0, 9.0) as usize;
            histogram[bucket] += 1;
        }
        Distribution {
            pairs: sorted.len(),
            histogram,
            median: middle,
            mad,
            bound: (sorted.len() >= MIN_PAIRS).then(|| (middle + MADS * mad).max(MIN_BOUND)),
        }
    }

    /// Whether a pair of this similarity stands out of the class.
    pub fn stands_out(&self, similarity: f64) -> bool {
        self.bound.is_some_and(|b| similarity > b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_mad_histogram_and_bound() {
        // A class of similar solutions: 30-38%, one pair at 49%.
        let mut class: Vec<f64> = (0..20).map(|i| 30.0 + 2.0 * f64::from(i % 5)).collect();
        class.push(49.0);
        let d = Distribution::of(&class);
        assert_eq!(d.pairs, 21);
        assert_eq!(d.median, 34.0);
        assert_eq!(d.mad, 2.0);
        assert_eq!(d.bound, Some(40.0));
        assert!(d.stands_out(49.0) && !d.stands_out(38.0) && !d.stands_out(40.0));
        assert_eq!(d.histogram[3], 20);
        assert_eq!(d.histogram[4], 1);
        assert_eq!(Distribution::of(&[100.0]).histogram[9], 1);
        // A class sharing nothing: median and MAD 0, the bound is MIN_BOUND.
        let mut apart = vec![0.0; 30];
        apart.extend([28.9, 41.4]);
        let d = Distribution::of(&apart);
        assert_eq!((d.median, d.mad, d.bound), (0.0, 0.0, Some(MIN_BOUND)));
        assert!(d.stands_out(41.4) && !d.stands_out(28.9));
    }

    #[test]
    fn too_few_pairs_flag_nothing() {
        let d = Distribution::of(&[1.0, 2.0, 90.0]);
        assert_eq!(d.bound, None);
        assert!(!d.stands_out(90.0));
        assert_eq!(Distribution::of(&[]).median, 0.0);
    }
}
