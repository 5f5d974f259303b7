//! Databases as an older build left them, for the upgrade tests: migrated only up to a
//! version, with rows written by that version's schema, then closed for the new code to open.

use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;

use sqlx::migrate::Migrator;

use super::backends::PgServer;

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

/// The same on a new database of the shared PostgreSQL test server: the server (hold it while
/// the database is used: the last holder's drop stops it) and the database's URL, or `None`
/// without a server (the test is then skipped, as `both!` skips).
pub(super) async fn old_postgres(
    version: i64,
    rows: &[impl AsRef<str>],
) -> Option<(Arc<PgServer>, String)> {
    let server = PgServer::shared()?;
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
    Some((server, url))
}
