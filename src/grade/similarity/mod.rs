//! Similarity of a class's sources, the MOSS way: normalise each source to tokens, select
//! k-gram fingerprints by winnowing, and report the pairs that share much of them, or far
//! more than the rest of the class, with the matching lines.
//!
//! - [`normalise`]: source text to normalised tokens (C/C++/Rust share a scanner, Python
//!   has its own); [`vocabulary`]: the keywords and operators it keeps.
//! - [`winnow`]: k-gram hashes and the winnowing selection.
//! - [`report`]: pairwise comparison across C, C++ and Rust (and Python with Python),
//!   handed-out code (`--base`) and earlier years (`--against`).
//! - [`regions`]: the matching regions of a pair (token runs grown from the shared
//!   fingerprints, mapped to lines), which the HTML report highlights.
//! - [`distribution`]: the class's own distribution of similarity (median + 3 MAD).

pub mod distribution;
pub mod normalise;
pub mod regions;
pub mod report;
pub mod vocabulary;
pub mod winnow;

pub use distribution::Distribution;
pub use regions::Region;
pub use report::{analyse, compare, Comparison, Flag, Pair, Settings, SourceFile};
