//! Similarity of a class's sources, the MOSS way: normalise each source to tokens, select
//! k-gram fingerprints by winnowing, and report the pairs of the same language that share
//! much of them, with the matching lines.
//!
//! - [`normalise`]: source text to normalised tokens (C/C++/Rust share a scanner, Python
//!   has its own); [`vocabulary`]: the keywords and operators it keeps.
//! - [`winnow`]: k-gram hashes and the winnowing selection.
//! - [`report`]: pairwise comparison, handed-out code (`--base`) and earlier years
//!   (`--against`).

pub mod normalise;
pub mod report;
pub mod vocabulary;
pub mod winnow;

pub use report::{compare, Pair, Settings, SourceFile};
