//! The stderr tails of run-time errors (`test_results.stderr_tail`, migrations sqlite/0010
//! and postgres/0004): written in the transaction that stores a submission's results, read
//! with them. One SQL text for both stores; only the connection type differs.

use sqlx::{PgConnection, SqliteConnection};

use crate::judge::TestResult;

use super::StoreError;

const SAVE: &str =
    "UPDATE test_results SET stderr_tail = $1 WHERE submission_id = $2 AND ordinal = $3";

const LOAD: &str = "SELECT ordinal, stderr_tail FROM test_results \
                    WHERE submission_id = $1 AND stderr_tail IS NOT NULL";

/// `(ordinal, tail)` of the tests that have one.
fn tails(tests: &[TestResult]) -> impl Iterator<Item = (i64, &str)> {
    tests
        .iter()
        .enumerate()
        .filter_map(|(i, t)| Some((i as i64, t.stderr_tail.as_deref()?)))
}

fn fill(tests: &mut [TestResult], rows: Vec<(i64, String)>) {
    for (ordinal, tail) in rows {
        if let Some(t) = usize::try_from(ordinal).ok().and_then(|i| tests.get_mut(i)) {
            t.stderr_tail = Some(tail);
        }
    }
}

/// Stores the tails of submission `id`'s `tests` (their rows were just inserted).
pub(super) async fn save_sqlite(
    tx: &mut SqliteConnection,
    id: i64,
    tests: &[TestResult],
) -> Result<(), StoreError> {
    for (ordinal, tail) in tails(tests) {
        sqlx::query(SAVE)
            .bind(tail)
            .bind(id)
            .bind(ordinal)
            .execute(&mut *tx)
            .await?;
    }
    Ok(())
}

/// Stores the tails of submission `id`'s `tests` (their rows were just inserted).
pub(super) async fn save_pg(
    tx: &mut PgConnection,
    id: i64,
    tests: &[TestResult],
) -> Result<(), StoreError> {
    for (ordinal, tail) in tails(tests) {
        sqlx::query(SAVE)
            .bind(tail)
            .bind(id)
            .bind(ordinal)
            .execute(&mut *tx)
            .await?;
    }
    Ok(())
}

/// Puts submission `id`'s stored tails into its `tests` (in ordinal order).
pub(super) async fn load_sqlite(
    tx: &mut SqliteConnection,
    id: i64,
    tests: &mut [TestResult],
) -> Result<(), StoreError> {
    let rows = sqlx::query_as(LOAD).bind(id).fetch_all(&mut *tx).await?;
    fill(tests, rows);
    Ok(())
}

/// Puts submission `id`'s stored tails into its `tests` (in ordinal order).
pub(super) async fn load_pg(
    tx: &mut PgConnection,
    id: i64,
    tests: &mut [TestResult],
) -> Result<(), StoreError> {
    let rows = sqlx::query_as(LOAD).bind(id).fetch_all(&mut *tx).await?;
    fill(tests, rows);
    Ok(())
}
