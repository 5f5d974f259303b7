//! `GET /clics/contests/{id}/event-feed`: the contest's [`Log`](super::log::Log) as NDJSON, one event a line,
//! each with its token; `since_token` resumes after a token (400 for one this server never
//! wrote); a bare newline every [`KEEPALIVE`] without events; `stream=false` sends what
//! there is and ends. The connection holds a [`FeedSlot`] (bounded per caller and in
//! total) and ends when the client goes, or when the daemon stops.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use axum::Extension;
use hyper::body::Frame;
use serde::Deserialize;
use tokio::sync::mpsc;

use crate::accounts::Caller;

use super::super::error::{ApiError, ApiResult};
use super::super::state::AppState;
use super::log::Key;
use super::source::{self, Clics, FeedSlot};

/// A newline is sent when no event was for this long (the spec asks for one within 120 s).
pub const KEEPALIVE: Duration = Duration::from_secs(10);
/// How often an open feed looks for new events.
pub const POLL: Duration = Duration::from_millis(500);

/// The feed's query.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeedQuery {
    /// Resume after this event's token.
    pub since_token: Option<String>,
    /// `false`: send the events there are and end (as DOMjudge's `stream=false`).
    pub stream: Option<bool>,
}

/// The lines of a feed, as an HTTP body.
struct Lines(mpsc::Receiver<Bytes>);

impl hyper::body::Body for Lines {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.0.poll_recv(cx).map(|l| l.map(|b| Ok(Frame::data(b))))
    }
}

/// The event feed of contest `id`.
pub async fn get(
    State(state): State<AppState>,
    Extension(clics): Extension<Arc<Clics>>,
    caller: Caller,
    Path(id): Path<String>,
    query: Result<Query<FeedQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Response> {
    let Query(q) = query?;
    let log = source::log(&state, &clics, &caller, &id).await?;
    let since = match q.since_token.as_deref() {
        None => None,
        Some(t) => Some(Key::parse(t).ok_or_else(|| {
            ApiError::BadQuery(format!("since_token {t:?} is not a token of this feed"))
        })?),
    };
    let ndjson = [(CONTENT_TYPE, "application/x-ndjson")];
    if q.stream == Some(false) {
        let text: String = log
            .since(state.contests.now(), since)
            .iter()
            .map(|e| e.line() + "\n")
            .collect();
        return Ok((ndjson, text).into_response());
    }
    let slot = clics.open_feed(&caller)?;
    let (tx, rx) = mpsc::channel(64);
    tokio::spawn(follow(state, clics, caller, id, since, tx, slot));
    Ok((ndjson, Body::new(Lines(rx))).into_response())
}

/// Sends the events after `since` as they become visible, until the client or the daemon
/// goes.
async fn follow(
    state: AppState,
    clics: Arc<Clics>,
    caller: Caller,
    id: String,
    mut since: Option<Key>,
    tx: mpsc::Sender<Bytes>,
    _slot: FeedSlot,
) {
    let mut stopping = state.stopping.clone();
    let stop = async move {
        if stopping.wait_for(|s| *s).await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    tokio::pin!(stop);
    let mut quiet = Duration::ZERO;
    loop {
        let log = match source::log(&state, &clics, &caller, &id).await {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!(contest = %id, error = %e, "event feed ended");
                return;
            }
        };
        for e in log.since(state.contests.now(), since) {
            if tx.send(Bytes::from(e.line() + "\n")).await.is_err() {
                return;
            }
            since = Some(e.key);
            quiet = Duration::ZERO;
        }
        if quiet >= KEEPALIVE {
            if tx.send(Bytes::from_static(b"\n")).await.is_err() {
                return;
            }
            quiet = Duration::ZERO;
        }
        tokio::select! {
            _ = &mut stop => return,
            _ = tx.closed() => return,
            _ = tokio::time::sleep(POLL) => quiet += POLL,
        }
    }
}
