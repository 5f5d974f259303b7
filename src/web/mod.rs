//! The web pages: server-rendered HTML (askama templates under `templates/`, checked at
//! compile time) over the same services as the JSON API, served by the same daemon.
//!
//! Nothing here decides who may see what: every page asks [`crate::accounts::access`], and
//! what a view shows of secret tests is [`crate::server::feedback::redact`]'s. Sessions and
//! CSRF tokens are [`crate::server::session`]'s (the guard runs before any page handler).
//!
//! - [`page`]: the navigation bar, rendering, page errors (sign-in redirect, 403/404 pages).
//! - [`assets`]: the one stylesheet and the few lines of script, built into the binary.
//! - [`markdown`]: statements to HTML, raw HTML shown as text.
//! - [`upload`]: the submit form (paste or upload, language guessed), bounded.
//! - [`login`]: sign in and out.
//! - [`home`]: the front page (`/`): contests running, upcoming and past, for anyone.
//! - [`problems`], [`submissions`], [`admin`]: the pages.
//! - [`admin_packages`]: the admin page's "Add a problem" form (a package upload).
//! - [`statement_pdf`]: the PDF a Kattis package ships beside a LaTeX statement.
//! - [`rejudgings`]: the jury's rejudgings, their preview, apply and drop.
//! - [`balloons`]: the jury's balloon list with its "delivered" marks.
//! - [`notices`]: the live notice strip of a contest's pages (answers, announcements; the
//!   jury's new questions).
//! - [`clock`]: the contest clock bar at the top of the contest pages.
//! - [`contest_submissions`]: a contest's submissions (own; the jury's all, filtered).
//! - [`contest_admin`]: the jury makes and edits contests (`/admin/contests/...`).
//! - [`contests`], [`scoreboard`]: the contest pages over the contest services
//!   (`server::services::contests`), the same functions the JSON API calls.

pub mod admin;
pub mod admin_packages;
pub mod assets;
pub mod balloons;
pub mod clock;
pub mod contest_admin;
pub mod contest_submissions;
pub mod contests;
pub mod home;
pub mod login;
pub mod markdown;
pub mod notices;
pub mod page;
pub mod problems;
pub mod rejudgings;
pub mod scoreboard;
pub mod statement_pdf;
pub mod submissions;
pub mod upload;

use axum::routing::{get, post};
use axum::Router;

use crate::server::AppState;

/// Every page's route; the daemon serves them beside the API (`server::app`).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(home::show))
        .route("/static/style.css", get(assets::style))
        .route("/static/app.js", get(assets::script))
        .route("/static/print.css", get(assets::print_style))
        .route("/login", get(login::form).post(login::submit))
        .route("/logout", post(login::logout))
        .route("/contests", get(contests::list))
        .route("/contests/{id}", get(contests::show))
        .route("/contests/{id}/start", post(contests::start))
        .route("/contests/{id}/unfreeze", post(contests::unfreeze))
        .route("/contests/{id}/clarifications", post(contests::ask))
        .route(
            "/contests/{id}/clarifications/{clarification}/answer",
            post(contests::answer),
        )
        .route("/contests/{id}/problems/{label}", get(contests::problem))
        .route(
            "/contests/{id}/problems/{label}/submit",
            post(contests::submit),
        )
        .route("/contests/{id}/scoreboard", get(scoreboard::show))
        .route("/contests/{id}/balloons", get(balloons::show))
        .route(
            "/contests/{id}/balloons/{user}/{label}",
            post(balloons::mark),
        )
        .route("/contests/{id}/submissions", get(contest_submissions::list))
        .route("/contests/{id}/notices", get(notices::show))
        .route("/problems", get(problems::list))
        .route("/problems/{id}", get(problems::show))
        .route("/problems/{id}/submit", post(problems::submit))
        .route("/problems/{id}/statement.pdf", get(statement_pdf::show))
        .route("/submissions", get(submissions::list))
        .route("/submissions/{id}", get(submissions::show))
        .route("/submissions/{id}/source", get(submissions::source))
        .route("/submissions/{id}/rejudge", post(submissions::rejudge))
        .route(
            "/rejudgings",
            get(rejudgings::list).post(rejudgings::create),
        )
        .route("/rejudgings/{id}", get(rejudgings::show))
        .route("/rejudgings/{id}/apply", post(rejudgings::apply))
        .route("/rejudgings/{id}/cancel", post(rejudgings::cancel))
        .route("/admin", get(admin::show))
        .route(
            "/admin/contests/new",
            get(contest_admin::new).post(contest_admin::create),
        )
        .route(
            "/admin/contests/{id}/edit",
            get(contest_admin::edit).post(contest_admin::update),
        )
        .route("/admin/contests/{id}/delete", post(contest_admin::delete))
        .route("/admin/users", post(admin::add))
        .route("/admin/users/import", post(admin::import))
        .route("/admin/problems", post(admin_packages::add))
        .route("/admin/users/{name}/{action}", post(admin::set_state))
}
