//! The report's two charts as numbers the template draws: the class's scores by tenths of
//! the problem's full score (CSS bars) and the distribution of pairwise similarity as JPlag
//! shows it (an inline SVG histogram with the class's bound and the fixed threshold marked).

use crate::grade::gradebook::share;
use crate::grade::row::Row;
use crate::grade::similarity::Distribution;

/// One bar of the score histogram.
pub struct ScoreBar {
    /// `0-9%`, ..., `90-99%`, `100%` of the full score; when that is not 100, with the
    /// whole scores it holds (`90-99% (14 pts)` of 15), so a teacher reads points too.
    pub label: String,
    /// Students in it.
    pub count: usize,
    /// Its length, in percent of the longest bar.
    pub width: String,
}

/// The bar (0 to 10) of `score` out of `max`: its tenth of the share the gradebook counts,
/// the full score its own bar, below 0 in the first, above the full score in the last.
fn bar_of(score: i64, max: i64) -> usize {
    (share(score, max) / 10.0).floor().clamp(0.0, 10.0) as usize
}

/// The whole scores out of `max` that fall in bar `i` (`"14"`, `"0-1"`; empty when none
/// does), for a problem whose full score is not 100.
fn points_of(i: usize, max: i64) -> String {
    if max <= 0 {
        return String::new();
    }
    let (lo, hi) = if i == 10 {
        (max, max)
    } else {
        // score s is in bar i when i * max <= 10 s < (i + 1) * max.
        let first = |k: i64| (k * max + 9).div_euclid(10);
        (first(i as i64), first(i as i64 + 1) - 1)
    };
    match lo.cmp(&hi) {
        std::cmp::Ordering::Less => format!("{lo}-{hi}"),
        std::cmp::Ordering::Equal => format!("{lo}"),
        std::cmp::Ordering::Greater => String::new(),
    }
}

/// The judged students' scores by tenths of `max`, the problem's full score
/// ([`crate::judge::max_score::max_score`]): the same share the gradebook counts, the full
/// score its own bar, a score below 0 in the first and above the full score in the last;
/// `-` rows left out.
pub fn score_bars(rows: &[Row], max: i64) -> Vec<ScoreBar> {
    let mut counts = [0usize; 11];
    for row in rows.iter().filter(|r| r.verdict.is_some()) {
        counts[bar_of(row.score, max)] += 1;
    }
    let most = counts.iter().copied().max().unwrap_or(0).max(1);
    counts
        .iter()
        .enumerate()
        .map(|(i, &count)| {
            let tenth = if i == 10 {
                "100%".to_string()
            } else {
                format!("{}-{}%", i * 10, i * 10 + 9)
            };
            let points = points_of(i, max);
            ScoreBar {
                label: if max == 100 || points.is_empty() {
                    tenth
                } else {
                    format!("{tenth} ({points} pts)")
                },
                count,
                width: format!("{:.1}", count as f64 * 100.0 / most as f64),
            }
        })
        .collect()
}

/// Left edge of the plot in the SVG, and its width (0-100% of similarity).
const X0: f64 = 40.0;
const WIDTH: f64 = 440.0;
/// Baseline of the bars and their tallest height.
const BASE: f64 = 150.0;
const TALL: f64 = 120.0;

/// A bar of the similarity histogram, in SVG units.
pub struct Bin {
    /// `0-10%` ...
    pub label: String,
    /// Pairs in it.
    pub count: usize,
    /// The bar's rectangle.
    pub x: String,
    /// Its top.
    pub y: String,
    /// Its width.
    pub w: String,
    /// Its height.
    pub h: String,
    /// Where the count is written (its middle).
    pub mid: String,
}

/// A vertical line marking a similarity on the histogram.
pub struct Marker {
    /// Its x in SVG units.
    pub x: String,
    /// Where its label sits (left of the line when it is near the right edge).
    pub label_x: String,
    /// Its label's baseline (two rows, so close markers stay legible).
    pub label_y: String,
    /// `start` or `end`.
    pub anchor: &'static str,
    /// `class bound 35.0%`, `threshold 50%`.
    pub label: String,
    /// Its CSS class (`bound`, `threshold`).
    pub class: &'static str,
}

/// The similarity histogram's geometry.
pub struct DistributionChart {
    /// The ten bars.
    pub bins: Vec<Bin>,
    /// The class's bound and the fixed threshold.
    pub markers: Vec<Marker>,
}

fn x_of(percent: f64) -> f64 {
    X0 + WIDTH * percent.clamp(0.0, 100.0) / 100.0
}

fn marker(percent: f64, label: String, class: &'static str, row: f64) -> Marker {
    let x = x_of(percent);
    let right = percent > 70.0;
    Marker {
        x: format!("{x:.1}"),
        label_x: format!("{:.1}", if right { x - 4.0 } else { x + 4.0 }),
        label_y: format!("{:.1}", 14.0 + 14.0 * row),
        anchor: if right { "end" } else { "start" },
        label,
        class,
    }
}

impl DistributionChart {
    /// The chart of `d`, with `threshold` (percent) marked beside the class's bound.
    pub fn of(d: &Distribution, threshold: f64) -> DistributionChart {
        let most = d.histogram.iter().copied().max().unwrap_or(0).max(1);
        let step = WIDTH / 10.0;
        let bins = d
            .histogram
            .iter()
            .enumerate()
            .map(|(i, &count)| {
                let h = TALL * count as f64 / most as f64;
                let x = X0 + step * i as f64 + 2.0;
                Bin {
                    label: format!("{}-{}%", i * 10, i * 10 + 10),
                    count,
                    x: format!("{x:.1}"),
                    y: format!("{:.1}", BASE - h),
                    w: format!("{:.1}", step - 4.0),
                    h: format!("{h:.1}"),
                    mid: format!("{:.1}", x + (step - 4.0) / 2.0),
                }
            })
            .collect();
        let mut markers = vec![marker(
            threshold,
            format!("threshold {threshold}%"),
            "threshold",
            0.0,
        )];
        if let Some(bound) = d.bound {
            markers.push(marker(
                bound,
                format!("class bound {bound:.1}%"),
                "bound",
                1.0,
            ));
        }
        DistributionChart { bins, markers }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::row::test_row;
    use crate::judge::Verdict;

    #[test]
    fn scores_fall_in_their_tenth_and_the_unjudged_are_left_out() {
        let rows = [
            test_row("a", Some(Verdict::AC), 100),
            test_row("b", Some(Verdict::WA), 8),
            test_row("c", Some(Verdict::WA), 9),
            test_row("d", None, 0),
            test_row("e", Some(Verdict::WA), -5),
            test_row("f", Some(Verdict::AC), 150),
        ];
        let bars = score_bars(&rows, 100);
        assert_eq!(bars.len(), 11);
        assert_eq!((bars[0].label.as_str(), bars[0].count), ("0-9%", 3));
        assert_eq!(bars[0].width, "100.0");
        assert_eq!((bars[10].label.as_str(), bars[10].count), ("100%", 2));
    }

    #[test]
    fn scores_fall_in_their_tenth_of_a_full_score_that_is_not_100() {
        let rows = [
            test_row("a", Some(Verdict::AC), 15),
            test_row("b", Some(Verdict::WA), 14),
            test_row("c", Some(Verdict::WA), 1),
            test_row("d", Some(Verdict::WA), 2),
            test_row("e", Some(Verdict::WA), -5),
        ];
        let bars = score_bars(&rows, 15);
        let counts: Vec<usize> = bars.iter().map(|b| b.count).collect();
        assert_eq!(counts, [2, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1]);
        assert_eq!(bars[0].label, "0-9% (0-1 pts)");
        assert_eq!(bars[1].label, "10-19% (2 pts)");
        assert_eq!(bars[9].label, "90-99% (14 pts)");
        assert_eq!(bars[10].label, "100% (15 pts)");
        // Of 5, no whole score is 10-19%: the bar says no points.
        assert_eq!(score_bars(&rows, 5)[1].label, "10-19%");
        assert_eq!(score_bars(&rows, 5)[2].label, "20-29% (1 pts)");
    }

    #[test]
    fn the_bound_and_the_threshold_are_placed_on_the_axis() {
        let d = Distribution::of(&(0..20).map(|i| f64::from(i) * 2.0).collect::<Vec<_>>());
        let chart = DistributionChart::of(&d, 50.0);
        assert_eq!(chart.bins.len(), 10);
        assert_eq!(chart.markers[0].x, format!("{:.1}", X0 + WIDTH / 2.0));
        assert_eq!(chart.markers[0].label, "threshold 50%");
        assert!(chart.markers[1].label.starts_with("class bound"));
    }
}
