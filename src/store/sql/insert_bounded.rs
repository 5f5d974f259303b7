//! The bounded insert of one submission, shared by `enqueue_bounded`'s direct path
//! (`queue.rs`) and the group commit's batches (`group_commit.rs`).

/// A new submission, queued, if fewer than `$6` are queued and, when `$7` is set, fewer
/// than `$7` of the owner's (`$4`): the counts (`queue_owners`, O(owners)) and the insert
/// are one statement.
pub(crate) const INSERT_BOUNDED: &str =
    "INSERT INTO submissions (problem, language, source, user_id, submitted_data_hash)
     SELECT $1, $2, $3, $4, $5
     WHERE (SELECT COALESCE(SUM(queued), 0) FROM queue_owners) < $6
       AND (CAST($7 AS BIGINT) IS NULL OR (SELECT COALESCE(SUM(queued), 0) FROM queue_owners
                                           WHERE owner = $4) < $7)
     RETURNING id";

/// A bounded insert (`Queue::enqueue_bounded`) in the write transaction `$tx` of `$db`,
/// evaluating to its [`Enqueued`] (`?` leaves the enclosing function); the caller notifies
/// and commits. Shared by the direct path and the group commit's batches.
macro_rules! insert_bounded {
    ($db:ident, $tx:ident, $new:expr, $bounds:expr) => {{
        let (new, bounds): (&$crate::store::NewSubmission, $crate::store::QueueBounds) =
            ($new, $bounds);
        let per_user = match (new.owner, bounds.per_user) {
            (Some(owner), Some(n)) => {
                $db.lock(&mut $tx, &format!("queued/{owner}")).await?;
                Some(i64::try_from(n).unwrap_or(i64::MAX))
            }
            _ => None,
        };
        let id: Option<i64> =
            sqlx::query_scalar($crate::store::sql::insert_bounded::INSERT_BOUNDED)
                .bind(&new.problem)
                .bind(&new.language)
                .bind(&new.source)
                .bind(new.owner)
                .bind(&new.data_hash)
                .bind(i64::try_from(bounds.max_queued).unwrap_or(i64::MAX))
                .bind(per_user)
                .fetch_optional(&mut *$tx)
                .await?;
        match (id, new.owner, per_user) {
            (Some(id), _, _) => $crate::store::Enqueued::Stored(id),
            (None, Some(owner), Some(n)) => {
                let mine: i64 = sqlx::query_scalar($crate::store::queue::OWNER_QUEUED)
                    .bind(owner)
                    .fetch_one(&mut *$tx)
                    .await?;
                if mine >= n {
                    $crate::store::Enqueued::OwnerFull
                } else {
                    $crate::store::Enqueued::QueueFull
                }
            }
            (None, _, _) => $crate::store::Enqueued::QueueFull,
        }
    }};
}
pub(super) use insert_bounded;
