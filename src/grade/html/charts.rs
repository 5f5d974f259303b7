//! The report's two charts as numbers the template draws: the class's scores by tenths
//! (CSS bars) and the distribution of pairwise similarity as JPlag shows it (an inline SVG
//! histogram with the class's bound and the fixed threshold marked).

use crate::grade::row::Row;
use crate::grade::similarity::Distribution;

/// One bar of the score histogram.
pub struct ScoreBar {
    /// `0-9`, ..., `90-99`, `100`.
    pub label: String,
    /// Students in it.
    pub count: usize,
    /// Its length, in percent of the longest bar.
    pub width: String,
}

/// The judged students' scores by tenths (`100` its own bar; a scoring problem's score below
/// 0 in the first, above 100 in the last), `-` rows left out.
pub fn score_bars(rows: &[Row]) -> Vec<ScoreBar> {
    let mut counts = [0usize; 11];
    for row in rows.iter().filter(|r| r.verdict.is_some()) {
        counts[(row.score.clamp(0, 100) / 10) as usize] += 1;
    }
    let most = counts.iter().copied().max().unwrap_or(0).max(1);
    counts
        .iter()
        .enumerate()
        .map(|(i, &count)| ScoreBar {
            label: if i == 10 {
                "100".into()
            } else {
                format!("{}-{}", i * 10, i * 10 + 9)
            },
            count,
            width: format!("{:.1}", count as f64 * 100.0 / most as f64),
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
        let bars = score_bars(&rows);
        assert_eq!(bars.len(), 11);
        assert_eq!((bars[0].label.as_str(), bars[0].count), ("0-9", 3));
        assert_eq!(bars[0].width, "100.0");
        assert_eq!((bars[10].label.as_str(), bars[10].count), ("100", 2));
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
