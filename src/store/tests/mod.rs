//! The store's tests, each run on a SQLite file and on a database of a throwaway PostgreSQL
//! cluster through [`backends`]' `both!`, so the two backends are held to the same answers.

mod accounts;
mod backends;
mod balloons;
mod contests;
mod data;
mod fair;
mod groups;
mod lease;
mod notices;
mod packages;
mod queue;
mod sample;
mod test_texts;
