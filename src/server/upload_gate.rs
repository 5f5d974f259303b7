//! The gate of package uploads (`POST /api/problems`, `POST /admin/problems`): their bodies
//! may be as large as `[problems] max_upload_kib`, far past every other route's, so before
//! such a body is read the caller must be an admin (the open mode's host), and one upload
//! body at a time is read per node. Anyone else gets the refusal their credentials earn
//! (401, 403) with the ordinary body limit, so nobody else can make the node hold a large
//! body.

use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::accounts::{access, Caller};

use super::auth::{allow, caller_of, loopback_host};
use super::body::{discard, UploadAllowed};
use super::error::ApiError;
use super::state::AppState;

/// The routes that take a package zip.
pub const UPLOAD_PATHS: [&str; 2] = ["/api/problems", "/admin/problems"];

/// Middleware (outside the body reader): lets an admin's upload through, with the marker
/// the body reader reads, one at a time; refuses the rest of the callers of the upload
/// routes before their body is read. Other requests pass untouched.
pub async fn gate(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    if req.method() != Method::POST || !UPLOAD_PATHS.contains(&req.uri().path()) {
        return next.run(req).await;
    }
    let (caller, _) = caller_of(&state, req.headers()).await;
    let caller = match caller {
        Caller::Open if !loopback_host(&req) => Caller::Anonymous,
        c => c,
    };
    if let Err(refused) = allow(access::administer(&caller), String::new) {
        let (_, body) = req.into_parts();
        discard(body, state.body_timeout).await;
        return refused.into_response();
    }
    let Ok(_permit) = state.upload_line.try_acquire() else {
        return ApiError::Busy {
            message: "another package upload is being read on this node; try again".into(),
            retry_after_s: 1,
        }
        .into_response();
    };
    req.extensions_mut().insert(UploadAllowed);
    next.run(req).await
}
