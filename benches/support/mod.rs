//! What the benchmarks share: the number of rounds and the median of their figures.
#![allow(dead_code)]

/// `$SUDOJUDGE_BENCH_ROUNDS`, else `default`.
pub fn rounds(default: usize) -> usize {
    env_or("SUDOJUDGE_BENCH_ROUNDS", default)
}

/// A count from the environment variable `name`, else `default`.
pub fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The median (sorts `v`).
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}
