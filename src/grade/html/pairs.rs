//! A suspicious pair side by side: both files' lines, each line of a matching region marked
//! with the region's number (and colour), and the regions listed with their lines and share.

use std::collections::HashMap;

use crate::grade::similarity::{Flag, Pair, Region};

/// Most pairs shown side by side in one problem's section; the others are listed in the
/// table only (a class of copies would otherwise make a file of every pair's sources).
pub const MAX_PAIRS_SHOWN: usize = 50;

/// One line of a file in the side-by-side view.
pub struct LineView {
    /// Its 1-based number.
    pub number: u32,
    /// Its text, as the student wrote it (escaped by the template).
    pub text: String,
    /// The region (1-based) it belongs to, 0 for none.
    pub region: usize,
}

/// One region in the pair's list.
pub struct RegionView {
    /// Its number, 1-based, as marked on the lines.
    pub number: usize,
    /// `6-38` in the first file.
    pub lines_a: String,
    /// In the second file.
    pub lines_b: String,
    /// Its first line in the first file (the anchor the list links to).
    pub first_a: u32,
    /// Its first line in the second file.
    pub first_b: u32,
    /// Normalised tokens.
    pub tokens: usize,
    /// Share of the smaller file, `41.4`.
    pub similarity: String,
}

/// A pair, with or without its sources.
pub struct PairView {
    /// The element id (`p0-pair3`), for links from the pairs table.
    pub id: String,
    /// First student.
    pub student_a: String,
    /// Their file.
    pub file_a: String,
    /// Second student.
    pub student_b: String,
    /// Their file.
    pub file_b: String,
    /// `c/cpp`...
    pub language: String,
    /// `41.4`.
    pub similarity: String,
    /// `threshold` or `class`.
    pub flag: &'static str,
    /// The regions.
    pub regions: Vec<RegionView>,
    /// The first file's lines (empty when the pair is not shown side by side).
    pub lines_a: Vec<LineView>,
    /// The second file's lines.
    pub lines_b: Vec<LineView>,
    /// Whether the sources are shown.
    pub shown: bool,
}

fn span((a, b): (u32, u32)) -> String {
    if a == b {
        a.to_string()
    } else {
        format!("{a}-{b}")
    }
}

/// The lines of `text`, each with the first region (1-based) whose side `side` covers it.
fn lines(text: &str, regions: &[Region], side: impl Fn(&Region) -> (u32, u32)) -> Vec<LineView> {
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let number = i as u32 + 1;
            let region = regions
                .iter()
                .position(|r| {
                    let (a, b) = side(r);
                    (a..=b).contains(&number)
                })
                .map_or(0, |p| p + 1);
            LineView {
                number,
                text: line.to_string(),
                region,
            }
        })
        .collect()
}

/// The views of a problem's pairs (`prefix` makes the ids unique in the report), the first
/// [`MAX_PAIRS_SHOWN`] with their sources from `texts` (file -> text).
pub fn pair_views(prefix: &str, pairs: &[Pair], texts: &HashMap<&str, &str>) -> Vec<PairView> {
    pairs
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let shown = i < MAX_PAIRS_SHOWN;
            let source = |file: &str| {
                texts
                    .get(file)
                    .copied()
                    .filter(|_| shown)
                    .unwrap_or_default()
            };
            PairView {
                id: format!("{prefix}-pair{}", i + 1),
                student_a: p.student_a.clone(),
                file_a: p.file_a.clone(),
                student_b: p.student_b.clone(),
                file_b: p.file_b.clone(),
                language: p.language.clone(),
                similarity: format!("{:.1}", p.similarity),
                flag: match p.flag {
                    Flag::Threshold => "threshold",
                    Flag::Class => "class",
                },
                regions: p
                    .regions
                    .iter()
                    .enumerate()
                    .map(|(n, r)| RegionView {
                        number: n + 1,
                        lines_a: span(r.lines_a),
                        lines_b: span(r.lines_b),
                        first_a: r.lines_a.0,
                        first_b: r.lines_b.0,
                        tokens: r.tokens,
                        similarity: format!("{:.1}", r.similarity),
                    })
                    .collect(),
                lines_a: lines(source(&p.file_a), &p.regions, |r| r.lines_a),
                lines_b: lines(source(&p.file_b), &p.regions, |r| r.lines_b),
                shown,
            }
        })
        .collect()
}
