//! Databases as an older build left them, for the upgrade tests: migrated only up to a
//! version, with rows written by that version's schema, then closed for the new code to open.

use std::borrow::Cow;
use std::path::Path;

use sqlx::migrate::Migrator;

/// `all` without the migrations after `version`.
fn up_to(all: Migrator, version: i64) -> Migrator {
    Migrator {
        migrations: Cow::Owned(
            all.iter()
                .filter(|m| m.version <= version)
                .cloned()
                .collect(),
        ),
        ..all
    }
}

/// A SQLite database at `path` made by the migrations up to `version`, then `rows` (SQL
/// statements) run on it.
pub(super) async fn old_sqlite(path: &Path, version: i64, rows: &[impl AsRef<str>]) {
    let options = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(true)
        .foreign_keys(true);
    let pool = sqlx::SqlitePool::connect_with(options).await.unwrap();
    up_to(sqlx::migrate!("migrations/sqlite"), version)
        .run(&pool)
        .await
        .unwrap();
    for statement in rows {
        sqlx::query(statement.as_ref())
            .execute(&pool)
            .await
            .unwrap();
    }
    pool.close().await;
}

/// The same on a new database of the shared PostgreSQL test server; its URL, or `None`
/// without a server (the test is then skipped, as `both!` skips).
pub(super) async fn old_postgres(version: i64, rows: &[impl AsRef<str>]) -> Option<String> {
    let server = super::backends::PgServer::shared()?;
    let url = server.database();
    let pool = sqlx::PgPool::connect(&url).await.unwrap();
    up_to(sqlx::migrate!("migrations/postgres"), version)
        .run(&pool)
        .await
        .unwrap();
    for statement in rows {
        sqlx::query(statement.as_ref())
            .execute(&pool)
            .await
            .unwrap();
    }
    pool.close().await;
    Some(url)
}
