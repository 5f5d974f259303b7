//! Live notices (issue 26, point 5): the banner strip on a signed-in caller's contest pages
//! (the contest page, a problem, the board, the submissions, the balloons). The page carries
//! the contest clock's instant it was made at; the page's script asks
//! `/contests/{id}/notices?since=...` every few seconds and swaps the strip for the answer,
//! which lists what happened since (the jury's answers for a contestant, new questions for
//! the jury; [`notices::since`]). Anonymous spectators get no strip, and the route sends them
//! to sign in without reading the store.

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::header::CACHE_CONTROL;
use axum::response::IntoResponse;
use serde::Deserialize;

use crate::accounts::{access, Caller, Decision};
use crate::server::services::contests::notices::{self, Notice, NoticeKind};
use crate::server::{ApiError, AppState};

use super::page::{render, Visitor, WebError, WebResult};

/// How often the script asks for the strip again, in milliseconds.
pub const REFRESH_MS: u32 = 5000;

/// One banner as the strip shows it.
#[derive(Debug, Clone)]
pub struct Banner {
    /// What happened, in words.
    pub text: String,
    /// Where to read it (the contest page's card).
    pub href: String,
    /// The link's words.
    pub link: &'static str,
}

/// The notice strip of one contest (`templates/notices.html`).
#[derive(Debug, Clone)]
pub struct NoticeBar {
    /// The contest's id.
    pub id: String,
    /// The contest clock's instant the notices count from.
    pub since: String,
    /// How often the script asks again (ms).
    pub refresh: u32,
    /// The banners (none on the page itself: only what happens after it was made).
    pub banners: Vec<Banner>,
}

impl NoticeBar {
    /// The empty strip of contest `id` for a caller who may read the contest (`None` for an
    /// anonymous spectator: no notices, no polling).
    pub fn of(state: &AppState, caller: &Caller, id: &str) -> Option<NoticeBar> {
        (access::read_contest(caller) == Decision::Allow).then(|| NoticeBar {
            id: id.to_string(),
            since: notices::cursor(state),
            refresh: REFRESH_MS,
            banners: Vec::new(),
        })
    }
}

/// The words of a banner.
fn banner(contest: &str, n: &Notice) -> Banner {
    let about = match &n.label {
        Some(l) => format!(" (problem {l})"),
        None => String::new(),
    };
    let (text, link) = match n.kind {
        NoticeKind::YourAnswer => (
            format!("The jury answered your question{about}."),
            "Read it",
        ),
        NoticeKind::PublicAnswer => (
            format!("The jury answered a question for everyone{about}."),
            "Read it",
        ),
        NoticeKind::Announcement => (format!("New announcement from the jury{about}."), "Read it"),
        NoticeKind::Question => (
            format!(
                "New question from {}{about}.",
                n.author.as_deref().unwrap_or("a contestant")
            ),
            "Answer it",
        ),
    };
    Banner {
        text,
        href: format!("/contests/{contest}#c{}", n.id),
        link,
    }
}

#[derive(Template)]
#[template(path = "notices_only.html")]
struct Strip {
    n: NoticeBar,
}

/// The strip's query: the instant the page was made at (contest clock).
#[derive(Debug, Deserialize)]
pub struct NoticeQuery {
    since: String,
}

/// `GET /contests/{id}/notices?since=...`: the strip alone, with what happened since.
pub async fn show(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path(id): Path<String>,
    Query(q): Query<NoticeQuery>,
) -> WebResult {
    let since = notices::parse_since(&q.since).map_err(|e| WebError::api(&nav, e))?;
    let found = notices::since(&state, &caller, &id, since)
        .await
        .map_err(|e| match e {
            ApiError::Unauthenticated(_) => WebError::SignIn {
                next: format!("/contests/{id}"),
            },
            e => WebError::api(&nav, e),
        })?;
    let n = NoticeBar {
        banners: found.iter().map(|n| banner(&id, n)).collect(),
        since: notices::cursor_at(since),
        refresh: REFRESH_MS,
        id,
    };
    let mut r = render(&Strip { n });
    r.headers_mut().insert(
        CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
    Ok(r.into_response())
}
