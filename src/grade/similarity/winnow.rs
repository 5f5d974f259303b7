//! Winnowing (Schleimer, Wilkerson and Aiken, "Winnowing: local algorithms for document
//! fingerprinting", SIGMOD 2003; the method of MOSS): hash every k-gram of normalised
//! tokens, and in every window of `w` consecutive k-gram hashes keep the smallest (the
//! rightmost one on a tie), each selected position once.
//!
//! The guarantee: any match of at least `w + k - 1` tokens shares a fingerprint; nothing
//! shorter than `k` tokens ever does (the noise threshold).

use super::normalise::Token;

/// The winnowing parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Params {
    /// k-gram length in tokens: the noise threshold.
    pub k: usize,
    /// Window size in k-grams; matches of `w + k - 1` tokens are always found.
    pub w: usize,
}

impl Default for Params {
    /// k = 12 tokens (about one statement with its neighbours: `for ( I = N ; I < I ; I ++ )`
    /// alone is 12), w = 8: every shared run of 19 tokens is found.
    fn default() -> Params {
        Params { k: 12, w: 8 }
    }
}

/// One selected k-gram: its hash and where it starts (token index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fingerprint {
    /// The k-gram's hash.
    pub hash: u64,
    /// Index of the k-gram's first token.
    pub pos: usize,
}

/// FNV-1a of a token's text: a stable number per token kind.
fn token_hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Mixes a k-gram's polynomial hash so that nearby values spread (splitmix64's finaliser).
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The hash of every k-gram, by a rolling polynomial hash (mod 2^64).
pub fn kgram_hashes(tokens: &[Token], k: usize) -> Vec<u64> {
    const BASE: u64 = 0x100_0000_01b3;
    let k = k.max(1);
    if tokens.len() < k {
        return Vec::new();
    }
    let ids: Vec<u64> = tokens.iter().map(|t| token_hash(&t.text)).collect();
    let top = (1..k).fold(1u64, |p, _| p.wrapping_mul(BASE)); // BASE^(k-1)
    let mut h = ids[..k]
        .iter()
        .fold(0u64, |h, &id| h.wrapping_mul(BASE).wrapping_add(id));
    let mut out = Vec::with_capacity(ids.len() - k + 1);
    out.push(mix(h));
    for i in k..ids.len() {
        h = h
            .wrapping_sub(ids[i - k].wrapping_mul(top))
            .wrapping_mul(BASE)
            .wrapping_add(ids[i]);
        out.push(mix(h));
    }
    out
}

/// Selects the fingerprints of `hashes` by winnowing with window `w`. A text with fewer
/// than `w` k-grams keeps its smallest one.
pub fn winnow(hashes: &[u64], w: usize) -> Vec<Fingerprint> {
    let w = w.max(1);
    let mut out: Vec<Fingerprint> = Vec::new();
    if hashes.is_empty() {
        return out;
    }
    let windows = hashes.len().saturating_sub(w) + 1;
    for start in 0..windows {
        let end = (start + w).min(hashes.len());
        let mut best = start;
        for i in start..end {
            if hashes[i] <= hashes[best] {
                best = i;
            }
        }
        if out.last().is_none_or(|f| f.pos != best) {
            out.push(Fingerprint {
                hash: hashes[best],
                pos: best,
            });
        }
    }
    out
}

/// The fingerprints of a token stream.
pub fn fingerprints(tokens: &[Token], params: Params) -> Vec<Fingerprint> {
    winnow(&kgram_hashes(tokens, params.k), params.w)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(s: &str) -> Vec<Token> {
        s.split_whitespace()
            .map(|t| Token {
                text: t.to_string(),
                line: 1,
            })
            .collect()
    }

    #[test]
    fn rolling_hashes_equal_hashes_computed_from_scratch() {
        let t = tokens("a b c d a b c d e");
        let rolled = kgram_hashes(&t, 3);
        assert_eq!(rolled.len(), 7);
        for (i, h) in rolled.iter().enumerate() {
            assert_eq!(*h, kgram_hashes(&t[i..i + 3], 3)[0]);
        }
        assert_eq!(rolled[0], rolled[4], "the same k-gram, the same hash");
        assert!(kgram_hashes(&t[..2], 3).is_empty());
    }

    #[test]
    fn the_paper_example_picks_the_window_minima() {
        // Figure 2 of the paper: hashes of the 5-grams, window 4.
        let hashes = [
            77, 74, 42, 17, 98, 50, 17, 98, 8, 88, 67, 39, 77, 74, 42, 17, 98,
        ];
        let picked: Vec<u64> = winnow(&hashes, 4).iter().map(|f| f.hash).collect();
        assert_eq!(picked, [17, 17, 8, 39, 17]);
    }

    #[test]
    fn every_window_holds_a_fingerprint_and_short_texts_keep_one() {
        let hashes: Vec<u64> = (0..200u64).map(|i| mix(i) % 50).collect();
        let f = winnow(&hashes, 6);
        for start in 0..=hashes.len() - 6 {
            assert!(f.iter().any(|p| (start..start + 6).contains(&p.pos)));
        }
        assert_eq!(winnow(&[5, 3, 9], 6).len(), 1);
        assert!(winnow(&[], 6).is_empty());
    }

    #[test]
    fn a_long_shared_run_always_shares_a_fingerprint() {
        let p = Params::default();
        let shared = "for ( I = N ; I < I ; I ++ ) { I += I [ I ] ; } return I ;";
        let a = tokens(&format!("int I ( ) {{ {shared} }}"));
        let b = tokens(&format!("while ( I ) {{ I -- ; I = I * N ; {shared} }} }}"));
        let fa: std::collections::HashSet<u64> =
            fingerprints(&a, p).iter().map(|f| f.hash).collect();
        assert!(fingerprints(&b, p).iter().any(|f| fa.contains(&f.hash)));
    }
}
