//! Each contest problem's full score, read from the problems this node serves: what the
//! board ([`super::board::compute`]) marks as solved on an ioi or oi board, and what the
//! Contest API gives as a problem's `max_score`. One source, so every route agrees.

use crate::contest::Contest;
use crate::judge::max_score::{max_score, PASS_FAIL};
use crate::server::state::AppState;

/// The full score of each of `c`'s problems, in label order: a scoring package's maximum,
/// 100 for a pass-fail problem (and for a package this node does not serve).
pub fn max_scores(state: &AppState, c: &Contest) -> Vec<i64> {
    c.problems
        .iter()
        .map(|p| {
            state
                .problems
                .get(&p.problem)
                .map_or(PASS_FAIL, |pkg| max_score(&pkg))
        })
        .collect()
}
