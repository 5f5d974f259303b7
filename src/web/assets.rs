//! The stylesheet and the script, built into the binary (no CDN, no build step): the pages
//! work on a machine with no internet.

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::IntoResponse;

/// `GET /static/style.css`.
pub async fn style() -> impl IntoResponse {
    (
        [
            (CONTENT_TYPE, "text/css; charset=utf-8"),
            (CACHE_CONTROL, "public, max-age=3600"),
        ],
        include_str!("static/style.css"),
    )
}

/// `GET /static/app.js`.
pub async fn script() -> impl IntoResponse {
    (
        [
            (CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (CACHE_CONTROL, "public, max-age=3600"),
        ],
        include_str!("static/app.js"),
    )
}

/// `GET /static/print.css`: the scoreboard on paper (`media="print"`).
pub async fn print_style() -> impl IntoResponse {
    (
        [
            (CONTENT_TYPE, "text/css; charset=utf-8"),
            (CACHE_CONTROL, "public, max-age=3600"),
        ],
        include_str!("static/print.css"),
    )
}
