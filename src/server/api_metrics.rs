//! `GET /metrics` (Prometheus text), and the middleware that counts HTTP requests.
//!
//! Who may read it is [`access::read_metrics`]'s to say: the open mode's host, an admin, or
//! a scraper sending `Authorization: Bearer <[metrics] token>`.

use axum::extract::{MatchedPath, Request, State};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE};
use axum::http::{HeaderMap, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::accounts::{access, Caller};
use crate::server::services::queue;
use crate::store::unclaimable;

use super::auth::allow;
use super::error::ApiResult;
use super::state::AppState;

/// The content type of the Prometheus text exposition format.
pub const CONTENT_TYPE_TEXT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Every metric in the Prometheus text format; 401/403 for callers [`access::read_metrics`]
/// refuses.
#[utoipa::path(get, path = "/metrics", operation_id = "metrics", tag = "health",
    responses(
        (status = 200, description = "every metric, Prometheus text format 0.0.4",
         content_type = "text/plain", body = String),
        (status = 401, description = "no credentials", body = super::error::ErrorBody),
        (status = 403, description = "a contestant", body = super::error::ErrorBody),
    ),
    security((), ("bearer" = [])))]
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let token_ok = presents_token(&headers, state.metrics_token.as_deref());
    allow(access::read_metrics(&caller, token_ok), String::new)?;
    match queue::depth_by_status(&state).await {
        Ok(depths) => {
            for (status, n) in depths {
                state.metrics.set_queue_depth(status.as_str(), n);
            }
        }
        // The other metrics are still worth a scrape; the stale gauge says what it last saw.
        Err(e) => tracing::warn!(error = %e, "metrics: cannot read the queue depth"),
    }
    if queue::is_shared(&state) {
        read_nodes(&state).await;
    }
    state.metrics.set_password_checks(state.passwords.made());
    let body = state.metrics.render();
    Ok(([(CONTENT_TYPE, CONTENT_TYPE_TEXT)], body).into_response())
}

/// On a shared database: every node's heartbeat age from the nodes table (a node that left
/// it stops being set, and its series is dropped after [`crate::metrics::GAUGE_IDLE`]), and
/// how many queued submissions no live judging node can claim.
async fn read_nodes(state: &AppState) {
    let nodes = match queue::nodes(state).await {
        Ok(n) => n,
        Err(e) => {
            tracing::warn!(error = %e, "metrics: cannot read the nodes table");
            return;
        }
    };
    for n in &nodes {
        let age = std::time::Duration::from_millis(n.heartbeat_age_ms);
        state.metrics.set_node_heartbeat_age(&n.name, age);
    }
    match queue::queued_groups(state).await {
        Ok(groups) => {
            let judging = nodes.iter().filter(|n| n.alive && n.slots > 0);
            let n = unclaimable(&groups, judging.map(|n| &n.hashes));
            state.metrics.set_unclaimable(n);
        }
        Err(e) => tracing::warn!(error = %e, "metrics: cannot read the queued submissions"),
    }
}

/// Whether the request's bearer value is the configured metrics token (compared in constant
/// time, as digests so the lengths match too); never with no token configured.
pub fn presents_token(headers: &HeaderMap, configured: Option<&str>) -> bool {
    let Some(configured) = configured else {
        return false;
    };
    let Some(presented) = headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim())
    else {
        return false;
    };
    let a = Sha256::digest(presented.as_bytes());
    let b = Sha256::digest(configured.as_bytes());
    a.ct_eq(&b).into()
}

/// Middleware: counts every answered request by route pattern, method and status.
pub async fn count_requests(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_string(), |p| p.as_str().to_string());
    let method = method_label(req.method());
    let response = next.run(req).await;
    state
        .metrics
        .http_request(&route, method, response.status().as_u16());
    response
}

/// The method as a label: the standard ones by name, any other as `other` (a client may
/// send any token as a method, and each would be a new series).
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        Method::PATCH => "PATCH",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_configured_token_is_accepted() {
        let mut h = HeaderMap::new();
        assert!(!presents_token(&h, Some("s3cret")));
        h.insert(AUTHORIZATION, "Bearer s3cret".parse().unwrap());
        assert!(presents_token(&h, Some("s3cret")));
        assert!(!presents_token(&h, None));
        assert!(!presents_token(&h, Some("s3cret2")));
        h.insert(AUTHORIZATION, "Basic s3cret".parse().unwrap());
        assert!(!presents_token(&h, Some("s3cret")));
        assert_eq!(method_label(&Method::from_bytes(b"BREW").unwrap()), "other");
    }
}
