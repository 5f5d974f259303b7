//! The daemon through its HTTP API: accounts, requests, refusals, contests, scoreboards, metrics, restarts.
//!
//! One test binary for the area (each links the whole crate once); a module per file.

// Each binary uses only a part of the shared fixtures.
#[allow(dead_code)]
#[path = "../fixtures/mod.rs"]
mod fixtures;

mod api_accounts;
mod api_backpressure;
mod api_connection_shares;
mod api_connections;
mod api_contests;
mod api_feedback;
mod api_hostile;
mod api_languages;
mod api_load;
mod api_login_flood;
mod api_login_limits;
mod api_metrics;
mod api_metrics_refusals;
mod api_openapi;
mod api_requests;
mod api_restart;
mod api_scoreboard_http;
mod api_scoreboard_load;
mod api_startup;
mod api_strangers;
mod api_verdicts;
mod clics_feed;
mod clics_immediate_rejudge;
mod clics_rejudged;
mod contest_delete;
mod contest_edits;
mod contest_rules;
mod contest_views;
mod full_scores;
mod kattis_interactive;
mod kattis_packages;
mod kattis_scoring;
mod kattis_team_messages;
mod negative_scores;
mod package_dropped;
mod package_upload;
mod rejudgings;
