//! The one implementation of each trait of the store, for [`super::Store`]: every method's
//! body is written once and compiled for each backend by `each!`, over the
//! [`super::dialect::Dialect`] (`db`), which holds what the two backends do differently.
//! One file per concern, named as the trait's file: `queue.rs`, `submissions.rs`,
//! `gauges.rs`, `accounts.rs`, `contests.rs`, `nodes.rs`.

mod accounts;
mod contest_defs;
mod contest_removal;
mod contests;
mod fair_claim;
mod gauges;
mod group_commit;
mod insert_bounded;
mod judgements;
mod judgings;
mod nodes;
mod packages;
mod queue;
mod rejudge_queue;
mod rejudgings;
mod submissions;
