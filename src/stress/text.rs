//! The generic shrink of a text input (a Kattis package's, whose format only its validators
//! know): delta debugging over lines, then over the tokens of each line, then smaller
//! numbers, round after round until a whole round keeps nothing.
//!
//! A candidate is kept only when the probe says it is still valid and still disagrees the
//! same way ([`Probe::Kept`]). Removing lines or tokens usually breaks a count written
//! before them (`n`, then `n` numbers), so a removal the validators reject is tried again
//! with one of the nearest integers before it lowered by the number of units removed
//! ([`MAX_COUNT_GUESSES`] of them). When the shrink ends on its own, no single line and no
//! single token can be removed, and no number reset to 0 or halved, with the input still
//! valid and still disagreeing.

use std::collections::HashMap;
use std::ops::Range;
use std::time::Instant;

use sha2::{Digest, Sha256};

/// Integers before a removed part tried as its count, nearest first.
pub const MAX_COUNT_GUESSES: usize = 3;

/// What one candidate input turned out to be.
#[derive(Debug)]
pub enum Probe<T> {
    /// The input validators reject it.
    Invalid,
    /// Valid, but the disagreement went away or changed kind.
    Lost,
    /// Valid and still disagreeing the same way: it replaces the current input.
    Kept(T),
}

/// Where the shrink must stop.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// No candidate is tried after this instant.
    pub deadline: Instant,
    /// Candidates tried at most.
    pub max_runs: usize,
}

/// The shrunk input.
#[derive(Debug)]
pub struct Shrunk<T> {
    /// The smallest input found.
    pub input: Vec<u8>,
    /// Its judgement (the first one when nothing was kept).
    pub judged: T,
    /// Candidates probed.
    pub runs: usize,
    /// Whether a whole round kept nothing (`false`: the budget ran out first).
    pub minimal: bool,
}

/// Whitespace-separated tokens of an input: its size as `stress` reports it.
pub fn token_count(input: &[u8]) -> usize {
    token_ranges(input, 0..input.len()).len()
}

/// The lines of `text` as byte ranges, each with its `\n`.
fn line_ranges(text: &[u8]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in text.iter().enumerate() {
        if b == b'\n' {
            out.push(start..i + 1);
            start = i + 1;
        }
    }
    if start < text.len() {
        out.push(start..text.len());
    }
    out
}

/// The tokens (runs of non-whitespace) of `text[within]`, as ranges of `text`.
fn token_ranges(text: &[u8], within: Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = None;
    for i in within.clone() {
        match (text[i].is_ascii_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.push(s..i);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(s..within.end);
    }
    out
}

fn integer(token: &[u8]) -> Option<i128> {
    let text = std::str::from_utf8(token).ok()?;
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The bytes removed with units `a..b` of `units`: the units and the separators after them
/// (before them when they run to the end), so the rest keeps its own spacing.
fn removal_span(units: &[Range<usize>], a: usize, b: usize) -> Range<usize> {
    if b < units.len() {
        units[a].start..units[b].start
    } else if a > 0 {
        units[a - 1].end..units[b - 1].end
    } else {
        units[a].start..units[b - 1].end
    }
}

fn spliced(text: &[u8], span: Range<usize>, with: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + with.len());
    out.extend_from_slice(&text[..span.start]);
    out.extend_from_slice(with);
    out.extend_from_slice(&text[span.end..]);
    out
}

/// What a tried candidate was, as the shrinker needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tried {
    Kept,
    Invalid,
    Lost,
    /// The budget ran out: nothing was probed.
    Out,
}

struct Shrinker<T, F> {
    current: Vec<u8>,
    judged: T,
    probe: F,
    /// Candidates already probed, by hash: whether the validators rejected them.
    seen: HashMap<[u8; 32], bool>,
    runs: usize,
    budget: Budget,
    out_of_budget: bool,
}

impl<T, E, F: FnMut(&[u8]) -> Result<Probe<T>, E>> Shrinker<T, F> {
    fn try_one(&mut self, candidate: Vec<u8>) -> Result<Tried, E> {
        let key: [u8; 32] = Sha256::digest(&candidate).into();
        if let Some(&invalid) = self.seen.get(&key) {
            return Ok(if invalid { Tried::Invalid } else { Tried::Lost });
        }
        if self.runs >= self.budget.max_runs || Instant::now() >= self.budget.deadline {
            self.out_of_budget = true;
            return Ok(Tried::Out);
        }
        self.runs += 1;
        let probed = (self.probe)(&candidate)?;
        self.seen.insert(key, matches!(probed, Probe::Invalid));
        Ok(match probed {
            Probe::Kept(judged) => {
                self.current = candidate;
                self.judged = judged;
                Tried::Kept
            }
            Probe::Invalid => Tried::Invalid,
            Probe::Lost => Tried::Lost,
        })
    }

    /// Removes `span` (`units` lines or tokens); when the validators reject that, tries
    /// each of the nearest integers ending before `counts_before` lowered by `units`.
    fn remove(
        &mut self,
        span: Range<usize>,
        units: usize,
        counts_before: usize,
    ) -> Result<bool, E> {
        let candidate = spliced(&self.current, span, b"");
        match self.try_one(candidate.clone())? {
            Tried::Kept => return Ok(true),
            Tried::Invalid => {}
            Tried::Lost | Tried::Out => return Ok(false),
        }
        let guesses: Vec<(Range<usize>, i128)> = token_ranges(&candidate, 0..counts_before)
            .into_iter()
            .rev()
            .filter_map(|r| integer(&candidate[r.clone()]).map(|v| (r, v)))
            .filter(|(_, v)| *v >= units as i128)
            .take(MAX_COUNT_GUESSES)
            .collect();
        for (range, value) in guesses {
            let lowered = (value - units as i128).to_string();
            let repaired = spliced(&candidate, range, lowered.as_bytes());
            match self.try_one(repaired)? {
                Tried::Kept => return Ok(true),
                Tried::Out => return Ok(false),
                Tried::Invalid | Tried::Lost => {}
            }
        }
        Ok(false)
    }

    /// Delta debugging over the units `units(text)` lists: chunks of half, then a quarter
    /// ... then single units removed, until a pass of single units removes nothing. `scope`
    /// gives where the counts of a removal may stand (`None`: anywhere before it).
    fn ddmin(
        &mut self,
        units: impl Fn(&[u8]) -> Vec<Range<usize>>,
        scope: Option<usize>,
    ) -> Result<bool, E> {
        let mut changed = false;
        let mut parts = 2usize;
        loop {
            let count = units(&self.current).len();
            if count == 0 {
                return Ok(changed);
            }
            let chunk = count.div_ceil(parts).max(1);
            let mut removed = false;
            let mut start = 0;
            loop {
                let list = units(&self.current);
                if start >= list.len() {
                    break;
                }
                let end = (start + chunk).min(list.len());
                let span = removal_span(&list, start, end);
                let counts_before = scope.unwrap_or(list[start].start).min(span.start);
                if self.remove(span, end - start, counts_before)? {
                    removed = true;
                    changed = true;
                } else {
                    start = end;
                }
                if self.out_of_budget {
                    return Ok(changed);
                }
            }
            if !removed {
                if chunk == 1 {
                    return Ok(changed);
                }
                parts = parts.saturating_mul(2);
            }
        }
    }

    fn lines(&mut self) -> Result<bool, E> {
        self.ddmin(line_ranges, None)
    }

    fn tokens(&mut self) -> Result<bool, E> {
        let mut changed = false;
        let mut i = 0;
        while i < line_ranges(&self.current).len() && !self.out_of_budget {
            let line = |text: &[u8]| line_ranges(text).get(i).cloned().unwrap_or(0..0);
            let start = line(&self.current).start;
            // A count may stand before the line, or first on it.
            let own_first = token_ranges(&self.current, line(&self.current))
                .first()
                .map_or(start, |t| t.end);
            changed |= self.ddmin(|text| token_ranges(text, line(text)), Some(own_first))?;
            i += 1;
        }
        Ok(changed)
    }

    /// Each integer reset to 0, else halved (toward 0) while that keeps.
    fn numbers(&mut self) -> Result<bool, E> {
        let mut changed = false;
        let mut k = 0;
        loop {
            let Some(range) = token_ranges(&self.current, 0..self.current.len())
                .get(k)
                .cloned()
            else {
                return Ok(changed);
            };
            k += 1;
            let Some(mut value) = integer(&self.current[range]) else {
                continue;
            };
            let mut next = 0;
            while value != 0 && next != value {
                let range = token_ranges(&self.current, 0..self.current.len())[k - 1].clone();
                let candidate = spliced(&self.current, range, next.to_string().as_bytes());
                match self.try_one(candidate)? {
                    Tried::Kept => {
                        value = next;
                        changed = true;
                    }
                    Tried::Out => return Ok(changed),
                    Tried::Invalid | Tried::Lost if next == 0 => {}
                    Tried::Invalid | Tried::Lost => break,
                }
                next = value / 2;
                if next == 0 {
                    // 0 was tried first.
                    break;
                }
            }
        }
    }
}

/// Shrinks `input` (judged `first`) while `probe` keeps the candidates, as the module says.
pub fn shrink<T, E>(
    input: Vec<u8>,
    first: T,
    budget: Budget,
    probe: impl FnMut(&[u8]) -> Result<Probe<T>, E>,
) -> Result<Shrunk<T>, E> {
    let mut s = Shrinker {
        seen: HashMap::from([(Sha256::digest(&input).into(), false)]),
        current: input,
        judged: first,
        probe,
        runs: 0,
        budget,
        out_of_budget: false,
    };
    let mut minimal = false;
    while !s.out_of_budget {
        let mut changed = s.lines()?;
        if !s.out_of_budget {
            changed |= s.tokens()?;
        }
        if !s.out_of_budget {
            changed |= s.numbers()?;
        }
        if !changed && !s.out_of_budget {
            minimal = true;
            break;
        }
    }
    Ok(Shrunk {
        input: s.current,
        judged: s.judged,
        runs: s.runs,
        minimal,
    })
}

#[cfg(test)]
#[path = "text_tests.rs"]
mod tests;
