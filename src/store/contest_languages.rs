//! The language of each submission of a contest: the one fact the Contest API's
//! submissions need that the board's read (`board_data`) leaves out. One query, the same
//! text on both stores but for the placeholder.

use std::collections::HashMap;

use super::any::Store;
use super::StoreError;

impl Store {
    /// Each submission of `contest` (by id) with its language id.
    pub async fn contest_languages(
        &self,
        contest: &str,
    ) -> Result<HashMap<i64, String>, StoreError> {
        let rows: Vec<(i64, String)> = match self {
            Store::Sqlite(s) => {
                sqlx::query_as("SELECT id, language FROM submissions WHERE contest = ?")
                    .bind(contest)
                    .fetch_all(&s.reader)
                    .await?
            }
            Store::Postgres(s) => {
                sqlx::query_as("SELECT id, language FROM submissions WHERE contest = $1")
                    .bind(contest)
                    .fetch_all(&s.pool)
                    .await?
            }
        };
        Ok(rows.into_iter().collect())
    }
}
