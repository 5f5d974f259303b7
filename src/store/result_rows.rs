//! A judged submission's test results as `INSERT` statements, built once for both stores.

use sqlx::{Database, Encode, QueryBuilder, Type};

use crate::judge::TestResult;

use super::model::signed;

/// Rows per statement: 12 bound parameters a row stays under SQLite's 32,766 and
/// PostgreSQL's 65,535 per statement.
const ROWS_PER_STATEMENT: usize = 1000;

/// The statements inserting `tests` as submission `id`'s result rows (ordinal = position).
pub(super) fn insert_statements<'a, DB>(
    id: i64,
    tests: &'a [TestResult],
) -> Vec<QueryBuilder<'a, DB>>
where
    DB: Database,
    i64: Encode<'a, DB> + Type<DB>,
    Option<i64>: Encode<'a, DB> + Type<DB>,
    String: Encode<'a, DB> + Type<DB>,
    Option<String>: Encode<'a, DB> + Type<DB>,
    Option<f64>: Encode<'a, DB> + Type<DB>,
    &'a str: Encode<'a, DB> + Type<DB>,
{
    let rows: Vec<(usize, &TestResult)> = tests.iter().enumerate().collect();
    rows.chunks(ROWS_PER_STATEMENT)
        .map(|chunk| {
            let mut insert = QueryBuilder::<DB>::new(
                "INSERT INTO test_results (submission_id, ordinal, name, verdict, time_ms, \
                 wall_ms, memory_kib, exit_code, signal, message, stderr_tail, team_message, score) ",
            );
            insert.push_values(chunk, |mut row, (ordinal, t)| {
                row.push_bind(id)
                    .push_bind(signed(*ordinal as u64))
                    .push_bind(t.name.clone())
                    .push_bind(t.verdict.as_str())
                    .push_bind(signed(t.time_ms))
                    .push_bind(signed(t.wall_ms))
                    .push_bind(signed(t.memory_kib))
                    .push_bind(t.exit_code.map(i64::from))
                    .push_bind(t.signal.map(i64::from))
                    .push_bind(t.message.clone())
                    .push_bind(t.stderr_tail.clone())
                    .push_bind(t.team_message.clone())
                    .push_bind(t.score.map(|p| p.0));
            });
            insert
        })
        .collect()
}
