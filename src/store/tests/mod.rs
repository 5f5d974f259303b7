//! The store's tests, each run on a SQLite file and on a database of a throwaway PostgreSQL
//! cluster through [`backends`]' `both!`, so the two backends are held to the same answers.

mod accounts;
mod backends;
mod balloons;
mod contest_removal;
mod contests;
mod data;
mod fair;
mod group_commit;
mod groups;
mod judgings;
mod lease;
mod negative_scores;
mod notices;
mod packages;
mod queue;
mod queue_groups;
mod queue_owners;
mod rejudgings;
mod sample;
mod test_scores;
mod test_texts;
mod upgrade;
