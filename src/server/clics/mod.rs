//! The ICPC Contest API (CLICS, version 2023-06: [`mapping::SPEC_VERSION`]) under `/clics/`,
//! read-only, for the tools hosts already use (the ICPC resolver, external scoreboards).
//! Documented in `docs/clics.md`, not in the OpenAPI document: its objects are the
//! specification's, and the event feed is an endless NDJSON stream.
//!
//! - [`mapping`]: our contest, problems, users, languages, verdicts and board as CLICS
//!   objects (pure functions).
//! - [`log`]: the event feed as a pure function of the store's records, with stable tokens
//!   (`log/key.rs`: an event's key and token; `log/reader.rs`: what a reader is shown).
//! - [`rejudged`]: the judgements applied rejudgings make, superseding the old ones.
//! - [`source`]: the log read from the store and cached by data version; the feed bounds.
//! - [`endpoints`]: the REST endpoints.
//! - [`feed`]: the NDJSON event feed.

pub mod endpoints;
pub mod feed;
pub mod log;
pub mod mapping;
pub mod rejudged;
pub mod source;

use std::sync::Arc;

use axum::routing::get;
use axum::{Extension, Router};

use super::state::AppState;

/// The Contest API's routes, with their shared state.
pub fn router() -> Router<AppState> {
    let base = "/clics/contests/{id}";
    Router::new()
        .route("/clics", get(endpoints::root))
        .route("/clics/", get(endpoints::root))
        .route("/clics/contests", get(endpoints::contests))
        .route(base, get(endpoints::contest))
        .route(&format!("{base}/state"), get(endpoints::state))
        .route(&format!("{base}/access"), get(endpoints::access_info))
        .route(&format!("{base}/scoreboard"), get(endpoints::scoreboard))
        .route(&format!("{base}/event-feed"), get(feed::get))
        .route(
            &format!("{base}/{{collection}}"),
            get(endpoints::collection),
        )
        .route(
            &format!("{base}/{{collection}}/{{object}}"),
            get(endpoints::object),
        )
        .layer(Extension(Arc::new(source::Clics::default())))
}
