//! [`JudgementStore`] for [`Store`]: the applied rejudgings' changes, one query on both
//! backends.

use crate::store::any::each;
use crate::store::dialect::Dialect;
use crate::store::judgements::{JudgementStore, Rejudged};
use crate::store::{Store, StoreError};

/// The runs of `$1`'s applied rejudgings that changed their submission's verdict or score.
const REJUDGED: &str = "SELECT r.submission_id, r.rejudging_id, g.applied_clock AS applied_at,
        r.old_verdict, r.old_score, r.verdict, r.score
     FROM rejudging_runs r JOIN rejudgings g ON g.id = r.rejudging_id
     WHERE g.contest = $1 AND g.state = 'applied' AND g.applied_clock IS NOT NULL
       AND r.old_verdict IS NOT NULL AND r.verdict IS NOT NULL
       AND (r.old_verdict <> r.verdict OR COALESCE(r.old_score, -1) <> COALESCE(r.score, -1))
     ORDER BY g.applied_clock, g.id, r.submission_id";

impl JudgementStore for Store {
    async fn rejudged(&self, contest: &str) -> Result<Vec<Rejudged>, StoreError> {
        each!(self, |db| Ok(sqlx::query_as(REJUDGED)
            .bind(contest)
            .fetch_all(db.read())
            .await?))
    }
}
