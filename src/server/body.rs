//! Request bodies are read whole, bounded in size and in time, before any handler runs.
//!
//! An answer sent before the body is read (a 413 on the declared length, a 503 when a line is
//! full) made hyper close the connection while the client was still sending, so ordinary
//! clients (Python's urllib and requests send the whole body before they read) saw a broken
//! pipe instead of the answer. So a refused body is read and thrown away, up to
//! [`DISCARD_LIMIT_BYTES`], before the refusal is sent; a client that announced
//! `Expect: 100-continue` gets the refusal at once instead, and sends nothing. A body that
//! takes longer than `[server] body_timeout_ms` gets 408.

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::header::{CONTENT_LENGTH, EXPECT};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;

use super::error::ApiError;

/// A refused body is read and thrown away up to this size so the client reads the refusal;
/// a body declared larger is refused at once, and a longer one is cut off: the connection is
/// closed (the client may then see a broken pipe).
pub const DISCARD_LIMIT_BYTES: u64 = 32 << 20;

/// Marks a request whose body may be as large as a package upload's: set only by the upload
/// gate (`super::upload_gate`), once the caller is known to be an admin.
#[derive(Debug, Clone, Copy)]
pub struct UploadAllowed;

/// How large a body may be and how long the client has to send it.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimits {
    /// Largest body accepted, in bytes, on every route but `POST /api/runs`.
    pub max_bytes: usize,
    /// Largest body of `POST /api/runs` (a source and a stdin).
    pub max_run_bytes: usize,
    /// Largest body of an admin's package upload (a request the upload gate let through).
    pub max_upload_bytes: usize,
    /// Time to receive the whole body.
    pub timeout: Duration,
}

impl BodyLimits {
    fn for_path(&self, path: &str) -> usize {
        if path == "/api/runs" {
            self.max_run_bytes
        } else {
            self.max_bytes
        }
    }
}

/// Middleware: reads the body whole within `limits`, then hands it to the handler; answers
/// 413 (after discarding the body) or 408 itself.
pub async fn read_whole(limits: BodyLimits, req: Request, next: Next) -> Response {
    let (parts, body) = req.into_parts();
    let max_bytes = match parts.extensions.get::<UploadAllowed>() {
        Some(_) => limits.max_upload_bytes,
        None => limits.for_path(parts.uri.path()),
    };
    let too_large = |len: String| {
        ApiError::TooLarge(format!(
            "request body of {len} bytes; the limit is {max_bytes} bytes"
        ))
    };
    if let Some(len) = declared_length(&parts.headers).filter(|&n| n > max_bytes as u64) {
        if len <= DISCARD_LIMIT_BYTES && !expects_continue(&parts.headers) {
            discard(body, limits.timeout).await;
        }
        return too_large(len.to_string()).into_response();
    }
    let read = tokio::time::timeout(limits.timeout, collect(body, max_bytes)).await;
    match read {
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Ok(Err(Collect::TooLarge(rest))) => {
            discard(rest, limits.timeout).await;
            too_large("more than that".into()).into_response()
        }
        Ok(Err(Collect::Failed(e))) => {
            ApiError::MalformedJson(format!("cannot read the request body: {e}")).into_response()
        }
        Err(_) => ApiError::BodyTimeout(format!(
            "the request body did not arrive within {} ms",
            limits.timeout.as_millis()
        ))
        .into_response(),
    }
}

/// Reads and throws away what is left of a refused body (at most [`DISCARD_LIMIT_BYTES`],
/// within `timeout`), so the client finishes sending and reads the answer.
pub async fn discard(mut body: Body, timeout: Duration) {
    let drain = async {
        let mut seen: u64 = 0;
        while let Some(Ok(frame)) = body.frame().await {
            if let Some(data) = frame.data_ref() {
                seen += data.len() as u64;
                if seen > DISCARD_LIMIT_BYTES {
                    return;
                }
            }
        }
    };
    let _ = tokio::time::timeout(timeout, drain).await;
}

enum Collect {
    /// Over the limit; the rest of the body is still unread.
    TooLarge(Body),
    /// The connection failed mid-body.
    Failed(axum::Error),
}

async fn collect(mut body: Body, max_bytes: usize) -> Result<Bytes, Collect> {
    let mut buf = Vec::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(Collect::Failed)?;
        if let Some(data) = frame.data_ref() {
            if buf.len() + data.len() > max_bytes {
                return Err(Collect::TooLarge(body));
            }
            buf.extend_from_slice(data);
        }
    }
    Ok(Bytes::from(buf))
}

fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
}

fn expects_continue(headers: &HeaderMap) -> bool {
    headers
        .get(EXPECT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("100-continue"))
}
