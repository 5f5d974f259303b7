//! The web pages: rendered HTML, load, and a real headless Chromium through WebDriver.
//!
//! One test binary for the area (each links the whole crate once); a module per file.

// Each binary uses only a part of the shared fixtures.
#[allow(dead_code)]
#[path = "../fixtures/mod.rs"]
mod fixtures;

mod web_balloons;
mod web_browser;
mod web_clocks;
mod web_contest_admin;
mod web_contest_day;
mod web_contest_submissions;
mod web_front;
mod web_full_scores;
mod web_grade_report;
mod web_groups;
mod web_jury;
mod web_load;
mod web_notices;
mod web_pages;
mod web_rejudgings;
mod web_scoring;
mod web_stderr;
mod web_upload;
