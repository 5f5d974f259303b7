//! Comparing a class's sources pairwise by their winnowed fingerprints: the pairs whose
//! shared fingerprints reach the threshold or stand out of the class's distribution, most
//! similar first, with the matching lines. C, C++ and Rust share a normaliser and are
//! compared with each other (a `.c` renamed `.cpp` is the same tokens); Python with Python.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::distribution::Distribution;
use super::normalise::{normalise, Family, Token};
use super::regions::{regions, Region};
use super::winnow::{fingerprints, Params};

/// One source to compare.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The student (for an `--against` folder: `folder/student`).
    pub student: String,
    /// The file, as shown.
    pub file: String,
    /// Language id: sources of the same language group are compared (C, C++ and Rust are
    /// one group, Python another).
    pub language: String,
    /// The source text.
    pub text: String,
    /// Whether it belongs to the class (compared with everyone) or to an `--against`
    /// folder (compared with the class only, never with its own folder's or other folders').
    pub against: bool,
}

/// What the comparison needs besides the sources.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Winnowing parameters.
    pub params: Params,
    /// A pair is reported from this similarity, in percent.
    pub threshold_percent: f64,
    /// ... and only with at least this many shared fingerprints (a few lines of
    /// boilerplate are not copying, whatever share of a tiny file they are).
    pub min_shared: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            params: Params::default(),
            threshold_percent: 50.0,
            min_shared: 5,
        }
    }
}

/// Why a pair is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Flag {
    /// At or above the fixed threshold.
    Threshold,
    /// Under the threshold, but above the class's median + 3 MAD.
    Class,
}

/// A pair of similar sources.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pair {
    /// The first student (always from the class).
    pub student_a: String,
    /// The first student's file.
    pub file_a: String,
    /// The second student (from the class or an `--against` folder).
    pub student_b: String,
    /// The second student's file.
    pub file_b: String,
    /// Their language (`c/cpp` when the two differ).
    pub language: String,
    /// Why it is reported: the threshold, or the class's distribution.
    pub flag: Flag,
    /// Shared fingerprints over the fingerprints of the smaller of the two, in percent:
    /// a copy padded with extra code still scores high.
    pub similarity: f64,
    /// Shared fingerprints over the first file's, in percent.
    pub share_a: f64,
    /// Shared fingerprints over the second file's, in percent.
    pub share_b: f64,
    /// Fingerprints the two share.
    pub shared: usize,
    /// Matching line ranges in the first file (1-based, inclusive, merged).
    pub lines_a: Vec<(u32, u32)>,
    /// Matching line ranges in the second file.
    pub lines_b: Vec<(u32, u32)>,
    /// The matching regions (runs of equal normalised tokens grown from the shared
    /// fingerprints), each with its lines in both files and its share, in the first file's
    /// order: what the HTML report highlights side by side.
    pub regions: Vec<Region>,
}

/// A source's fingerprints: hash -> the line ranges of the k-grams selected with it, and
/// their token positions, with the tokens themselves (to grow matching regions from).
struct Prints {
    by_hash: HashMap<u64, Vec<(u32, u32)>>,
    positions: HashMap<u64, Vec<usize>>,
    tokens: Vec<Token>,
}

fn prints(text: &str, language: &str, params: Params, base: &HashSet<u64>) -> Prints {
    let tokens = normalise(text, Family::of(language));
    let mut by_hash: HashMap<u64, Vec<(u32, u32)>> = HashMap::new();
    let mut positions: HashMap<u64, Vec<usize>> = HashMap::new();
    for f in fingerprints(&tokens, params) {
        if base.contains(&f.hash) {
            continue;
        }
        let first = tokens.get(f.pos).map_or(0, |t| t.line);
        let last = tokens.get(f.pos + params.k - 1).map_or(first, |t| t.line);
        by_hash.entry(f.hash).or_default().push((first, last));
        positions.entry(f.hash).or_default().push(f.pos);
    }
    Prints {
        by_hash,
        positions,
        tokens,
    }
}

/// Sorts ranges and merges those that overlap or touch.
pub fn merge_ranges(mut ranges: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    ranges.sort_unstable();
    let mut out: Vec<(u32, u32)> = Vec::new();
    for (a, b) in ranges {
        match out.last_mut() {
            Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

/// The language group of a language id: sources of one group are compared.
fn group(language: &str) -> Family {
    match Family::of(language) {
        Family::Python => Family::Python,
        Family::C | Family::Rust => Family::C,
    }
}

/// The number of fingerprints two sources share, and their similarity.
fn score(pa: &Prints, pb: &Prints) -> (usize, f64) {
    let (small, large) = if pa.by_hash.len() <= pb.by_hash.len() {
        (pa, pb)
    } else {
        (pb, pa)
    };
    let shared = small
        .by_hash
        .keys()
        .filter(|h| large.by_hash.contains_key(h))
        .count();
    (shared, percent(shared, small.by_hash.len()))
}

/// Most positions of one fingerprint, in each file, used as seeds.
const SEEDS_PER_PRINT: usize = 16;

/// The regions of two sources, grown from every pairing of their shared fingerprints'
/// positions.
fn pair_regions(pa: &Prints, pb: &Prints, shared: &[u64], k: usize) -> Vec<Region> {
    let mut seeds: Vec<(usize, usize)> = shared
        .iter()
        .flat_map(|h| {
            // A k-gram repeated all over both files (a table of literals) seeds at most
            // SEEDS_PER_PRINT^2 runs: one is enough to find its region.
            let at_a = pa.positions.get(h).map_or(&[][..], Vec::as_slice);
            let at_b = pb.positions.get(h).map_or(&[][..], Vec::as_slice);
            at_a.iter()
                .take(SEEDS_PER_PRINT)
                .flat_map(move |&x| at_b.iter().take(SEEDS_PER_PRINT).map(move |&y| (x, y)))
        })
        .collect();
    seeds.sort_unstable();
    regions(&pa.tokens, &pb.tokens, seeds, k)
}

fn pair(a: (&SourceFile, &Prints), b: (&SourceFile, &Prints), flag: Flag, k: usize) -> Pair {
    let (fa, pa) = a;
    let (fb, pb) = b;
    let shared: Vec<u64> = pa
        .by_hash
        .keys()
        .filter(|h| pb.by_hash.contains_key(h))
        .copied()
        .collect();
    let (na, nb) = (pa.by_hash.len(), pb.by_hash.len());
    let similarity = percent(shared.len(), na.min(nb));
    let lines = |p: &Prints| {
        merge_ranges(
            shared
                .iter()
                .flat_map(|h| p.by_hash.get(h).into_iter().flatten().copied())
                .collect(),
        )
    };
    Pair {
        student_a: fa.student.clone(),
        file_a: fa.file.clone(),
        student_b: fb.student.clone(),
        file_b: fb.file.clone(),
        language: if fa.language == fb.language {
            fa.language.clone()
        } else {
            format!("{}/{}", fa.language, fb.language)
        },
        flag,
        similarity,
        share_a: percent(shared.len(), na),
        share_b: percent(shared.len(), nb),
        shared: shared.len(),
        lines_a: lines(pa),
        lines_b: lines(pb),
        regions: pair_regions(pa, pb, &shared, k),
    }
}

/// The reported pairs and the distribution of all compared pairs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// The pairs at or above the threshold, or standing out of the class, most similar
    /// first (each with at least [`Settings::min_shared`] shared fingerprints).
    pub pairs: Vec<Pair>,
    /// The similarity of every compared pair, summarised.
    pub distribution: Distribution,
}

/// [`analyse`]'s pairs alone.
pub fn compare(files: &[SourceFile], base: &[(String, String)], settings: &Settings) -> Vec<Pair> {
    analyse(files, base, settings).pairs
}

/// Compares every pair of `files` of the same language group (C, C++, Rust; Python) and
/// reports those at or above the threshold or above the class's median + 3 MAD, most similar
/// first. `base` holds the code handed out to the class (with its language): fingerprints
/// found in it never count, in any file. Files from `--against` folders are compared with
/// the class only.
pub fn analyse(files: &[SourceFile], base: &[(String, String)], settings: &Settings) -> Comparison {
    let mut base_hashes: HashMap<Family, HashSet<u64>> = HashMap::new();
    for (language, text) in base {
        let tokens = normalise(text, Family::of(language));
        base_hashes.entry(group(language)).or_default().extend(
            fingerprints(&tokens, settings.params)
                .iter()
                .map(|f| f.hash),
        );
    }
    let empty = HashSet::new();
    let all: Vec<Prints> = files
        .iter()
        .map(|f| {
            let base = base_hashes.get(&group(&f.language)).unwrap_or(&empty);
            prints(&f.text, &f.language, settings.params, base)
        })
        .collect();
    let groups: Vec<Family> = files.iter().map(|f| group(&f.language)).collect();
    let mut scored = Vec::new();
    for i in 0..files.len() {
        for j in i + 1..files.len() {
            if groups[i] != groups[j] || (files[i].against && files[j].against) {
                continue;
            }
            // The class's student comes first.
            let (x, y) = if files[i].against { (j, i) } else { (i, j) };
            let (shared, similarity) = score(&all[x], &all[y]);
            scored.push((x, y, shared, similarity));
        }
    }
    let distribution = Distribution::of(&scored.iter().map(|s| s.3).collect::<Vec<_>>());
    let mut pairs: Vec<Pair> = scored
        .into_iter()
        .filter(|&(_, _, shared, _)| shared >= settings.min_shared.max(1))
        .filter_map(|(x, y, _, similarity)| {
            let flag = if similarity >= settings.threshold_percent {
                Flag::Threshold
            } else if distribution.stands_out(similarity) {
                Flag::Class
            } else {
                return None;
            };
            Some(pair(
                (&files[x], &all[x]),
                (&files[y], &all[y]),
                flag,
                settings.params.k,
            ))
        })
        .collect();
    pairs.sort_by(|a, b| {
        b.similarity
            .total_cmp(&a.similarity)
            .then_with(|| (&a.student_a, &a.student_b).cmp(&(&b.student_a, &b.student_b)))
    });
    Comparison {
        pairs,
        distribution,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_merge_when_they_touch_or_overlap() {
        assert_eq!(
            merge_ranges(vec![(5, 7), (1, 2), (3, 4), (6, 9), (12, 12)]),
            [(1, 9), (12, 12)]
        );
    }
}
