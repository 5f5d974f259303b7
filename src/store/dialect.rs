//! [`Dialect`]: what differs between the two backends, and nothing else. Every trait of the
//! store ([`super::Queue`], [`super::AccountStore`], ...) is implemented once, for
//! [`super::Store`], in `store/sql/`: each method's body is written once and compiled for
//! each backend by `each!` (`any.rs`), with `db` the [`super::SqliteStore`] or the
//! [`super::PgStore`]. The SQL is one text where both accept it (`$N` placeholders, numbered
//! in order of first appearance, since SQLite numbers them so; `CAST(.. AS ..)` where
//! PostgreSQL must know a parameter's type); what cannot be one text is a method here,
//! implemented in `sqlite/dialect.rs` and `postgres/dialect.rs`: the clock, the transaction
//! a write runs in, the claim (`FOR UPDATE SKIP LOCKED`), advisory locks and `NOTIFY`.

use sqlx::query::Query;
use sqlx::{Database, Pool, Transaction};

use super::StoreError;

/// The connection of a backend's transactions.
pub(crate) type Conn<D> = <<D as Dialect>::Db as Database>::Connection;

/// A statement with its parameters bound, for a backend's [`Dialect::execute`].
pub(crate) type Args<'q, D> =
    Query<'q, <D as Dialect>::Db, <<D as Dialect>::Db as Database>::Arguments<'q>>;

/// One backend's side of the store: its pools, transactions and SQL that has no common text.
pub(crate) trait Dialect: Send + Sync {
    /// The sqlx database.
    type Db: Database;

    /// The pool reads go through (SQLite's read-only pool; PostgreSQL's one pool).
    fn read(&self) -> &Pool<Self::Db>;

    /// A write transaction (SQLite: `BEGIN IMMEDIATE` on its one writer).
    async fn write(&self) -> Result<Transaction<'static, Self::Db>, StoreError>;

    /// Runs `query`, one statement, as a write; returns how many rows it changed (SQLite: in
    /// a [`Dialect::write`] of its own; PostgreSQL: as it is, one statement being one
    /// transaction).
    async fn execute<'q>(&self, query: Args<'q, Self>) -> Result<u64, StoreError>;

    /// A read transaction whose statements see one snapshot.
    async fn snapshot(&self) -> Result<Transaction<'static, Self::Db>, StoreError>;

    /// Serialises the transactions that lock `key` until their commit (PostgreSQL's advisory
    /// lock, so counts made under it are exact across nodes; nothing on SQLite, whose one
    /// writer already runs one transaction at a time).
    async fn lock(&self, tx: &mut Conn<Self>, key: &str) -> Result<(), StoreError>;

    /// Wakes idle workers on every node once `tx` commits (PostgreSQL's `NOTIFY`; nothing on
    /// SQLite, where the one daemon pokes its own workers).
    async fn queued(&self, tx: &mut Conn<Self>) -> Result<(), StoreError>;

    /// The current time as the text columns store it (ISO 8601 UTC with milliseconds).
    fn now(&self) -> &'static str;

    /// The time `$n` (a whole number of seconds, or NULL) from now, as text.
    fn later(&self, n: u8) -> String;

    /// The current instant as the lease and heartbeat columns store it.
    fn instant(&self) -> &'static str;

    /// The end of a lease of `$n` milliseconds starting now.
    fn lease_end(&self, n: u8) -> String;

    /// Milliseconds since the instant in `column` (a lease or heartbeat column).
    fn age_ms(&self, column: &str) -> String;

    /// What locks a row read in a write transaction (`FOR UPDATE`; SQLite's writer is alone).
    fn lock_row(&self) -> &'static str;

    /// What locks the row a claim's subquery picks and skips those other nodes hold (`FOR
    /// UPDATE SKIP LOCKED`; nothing on SQLite, whose writer is alone).
    fn skip_locked(&self) -> &'static str;

    /// Whether the queued submission `q` is one this node takes: `$n` is [`NodeData`]'s claim
    /// filter (`NodeData::claim_filter`: a JSON object of problem id to hash; NULL takes
    /// anything): the node has the
    /// problem, and the submission's hash is unset or the node's.
    fn accepts(&self, n: u8) -> String;

    /// A rejudge's new `submitted_data_hash`: the rejudging node's hash of the submission's
    /// problem (`$n`, the `NodeData` JSON), or the stored one when there is none.
    fn stamp(&self, n: u8) -> String;

    /// The claim of `next`, a `SELECT q.id FROM submissions q ...` giving at most one queued
    /// submission (`sql/fair_claim.rs`): it becomes `compiling` for worker `$1` under a lease
    /// of instance `$2` for `$3` milliseconds; returns the [`super::Claimed`] columns, or no
    /// row (PostgreSQL: when another node holds it locked, `FOR UPDATE SKIP LOCKED`).
    fn claim(&self, next: &str) -> String;

    /// Planner settings the fair claim's transaction runs under, if any (PostgreSQL: without
    /// them it hash-joins the whole table and reads each owner's queue whole, 13 ms instead
    /// of 0.5 ms with 10,000 queued; `sql/fair_claim.rs`).
    fn claim_plan(&self) -> Option<&'static str>;

    /// A contest's submissions of one owner packed into one text per owner (`$1`, the
    /// contest; see `contest_rows::unpack`).
    fn packed_entries(&self) -> &'static str;
}
