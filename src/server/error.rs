//! API errors: one enum, each variant a fitting HTTP status, sent as
//! `{"error":{"code","message"}}`.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::http::header::{RETRY_AFTER, WWW_AUTHENTICATE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use crate::store::StoreError;

/// The body of every error: `{"error":{"code","message"}}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// The error.
    pub error: ErrorDetail,
}

/// One error.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorDetail {
    /// Machine-readable code (`not_found`, `unauthenticated`, `rate_limited`...).
    pub code: String,
    /// What went wrong, for people.
    pub message: String,
    /// `in_contest`: the contest that holds the problem for the caller.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contest: Option<String>,
    /// `invalid_contest`, `rewrites_history`: each field at fault and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fields: Option<Vec<crate::contest::FieldError>>,
}

/// Everything a request can fail with.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The body is not valid JSON of the expected shape.
    #[error("{0}")]
    MalformedJson(String),
    /// The body is JSON but not declared as such.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// A query string parameter is invalid.
    #[error("{0}")]
    BadQuery(String),
    /// The submission names a problem this judge does not have.
    #[error("unknown problem {0:?}")]
    UnknownProblem(String),
    /// The submission names a language this judge does not have.
    #[error("unknown language {0:?}; known: {1}")]
    UnknownLanguage(String, String),
    /// A field is present but unusable (empty source...).
    #[error("{0}")]
    Invalid(String),
    /// A text field is longer than its bound (a question): 422 `too_long`.
    #[error("{0}")]
    TooLong(String),
    /// The source, stdin or body is larger than allowed.
    #[error("{0}")]
    TooLarge(String),
    /// No such resource.
    #[error("{0}")]
    NotFound(String),
    /// The request conflicts with the resource's state (rejudge while judging).
    #[error("{0}")]
    Conflict(String),
    /// The client took longer than `[server] body_timeout_ms` to send its body.
    #[error("{0}")]
    BodyTimeout(String),
    /// The server is full (queue, custom-run line): try again after `retry_after_s`.
    #[error("{message}")]
    Busy {
        /// What is full.
        message: String,
        /// Seconds to wait before trying again (the `Retry-After` header).
        retry_after_s: u64,
    },
    /// The caller has `[server] max_queued_per_user` submissions waiting already: 429
    /// `too_many_queued` with `Retry-After`.
    #[error("{message}")]
    OwnQueueFull {
        /// What is full.
        message: String,
        /// Seconds to wait before trying again (the `Retry-After` header).
        retry_after_s: u64,
    },
    /// The request took longer than `[server] request_timeout_ms`.
    #[error("{0}")]
    Timeout(String),
    /// No valid credentials where accounts are in force.
    #[error("{0}")]
    Unauthenticated(String),
    /// A login with a wrong name or password (never says which).
    #[error("wrong name or password")]
    BadCredentials,
    /// Signed in, but the access rules refuse.
    #[error("{0}")]
    Forbidden(String),
    /// A state-changing request authenticated by the session cookie without its CSRF token.
    #[error("{0}")]
    Csrf(String),
    /// A contest rule refuses: 403 with the reason as the code (`not_started`, `contest_over`,
    /// `not_a_participant`...).
    #[error("{}", .0.message())]
    Contest(crate::accounts::access::ContestRefusal),
    /// The contest's `languages` list refuses the submission's language: 403
    /// `language_not_allowed` with the list.
    #[error("{0}")]
    LanguageNotAllowed(#[from] crate::contest::languages::LanguageRefused),
    /// The open mode refuses a request naming a host that is not loopback (DNS rebinding).
    #[error("{0}")]
    MisdirectedHost(String),
    /// A contest holds the problem for the caller (it takes part, the contest has not ended):
    /// 403 `in_contest`, naming the contest; submit it through that contest.
    #[error(
        "problem {problem:?} belongs to contest {contest:?}, which you take part in and which \
         has not ended: submit it through the contest (/contests/{contest})"
    )]
    InContest {
        /// The problem's id.
        problem: String,
        /// The contest holding it.
        contest: String,
    },
    /// Too many attempts; retry after the given seconds.
    #[error("{message}; retry in {retry_after_secs} s")]
    RateLimited {
        /// Seconds to wait (sent as `Retry-After`).
        retry_after_secs: u64,
        /// What was limited.
        message: String,
    },
    /// A contest definition with fields at fault: 422 `invalid_contest`, every field listed.
    #[error("the contest is not valid: {}", fields_text(.0))]
    InvalidContest(Vec<crate::contest::FieldError>),
    /// A contest edit that would rewrite what already happened: 409 `rewrites_history`, each
    /// refused field with the reason.
    #[error("the edit would rewrite the contest's history: {}", fields_text(.0))]
    RewritesHistory(Vec<crate::contest::FieldError>),
    /// A contest id taken by another contest (a file's or the database's): 409 `id_taken`.
    #[error("{0}")]
    IdTaken(String),
    /// An edit of a contest read from a file (the file wins): 409 `file_contest`.
    #[error("{0}")]
    FileContest(String),
    /// The store failed: the server's fault.
    #[error("storage error: {0}")]
    Store(#[from] StoreError),
    /// Any other fault of the server.
    #[error("{0}")]
    Internal(String),
}

impl ApiError {
    /// The HTTP status and the machine-readable code.
    pub fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::MalformedJson(_) => (StatusCode::BAD_REQUEST, "malformed_json"),
            ApiError::UnsupportedMediaType(_) => {
                (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")
            }
            ApiError::BadQuery(_) => (StatusCode::BAD_REQUEST, "bad_query"),
            ApiError::UnknownProblem(_) => (StatusCode::UNPROCESSABLE_ENTITY, "unknown_problem"),
            ApiError::UnknownLanguage(..) => (StatusCode::UNPROCESSABLE_ENTITY, "unknown_language"),
            ApiError::Invalid(_) => (StatusCode::UNPROCESSABLE_ENTITY, "invalid"),
            ApiError::TooLarge(_) => (StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
            ApiError::TooLong(_) => (StatusCode::UNPROCESSABLE_ENTITY, "too_long"),
            ApiError::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            ApiError::Conflict(_) => (StatusCode::CONFLICT, "conflict"),
            ApiError::BodyTimeout(_) => (StatusCode::REQUEST_TIMEOUT, "body_timeout"),
            ApiError::Busy { .. } => (StatusCode::SERVICE_UNAVAILABLE, "busy"),
            ApiError::OwnQueueFull { .. } => (StatusCode::TOO_MANY_REQUESTS, "too_many_queued"),
            ApiError::Timeout(_) => (StatusCode::SERVICE_UNAVAILABLE, "timeout"),
            ApiError::Unauthenticated(_) => (StatusCode::UNAUTHORIZED, "unauthenticated"),
            ApiError::BadCredentials => (StatusCode::UNAUTHORIZED, "bad_credentials"),
            ApiError::Forbidden(_) => (StatusCode::FORBIDDEN, "forbidden"),
            ApiError::Csrf(_) => (StatusCode::FORBIDDEN, "csrf"),
            ApiError::Contest(reason) => (StatusCode::FORBIDDEN, reason.code()),
            ApiError::LanguageNotAllowed(_) => (StatusCode::FORBIDDEN, "language_not_allowed"),
            ApiError::MisdirectedHost(_) => (StatusCode::MISDIRECTED_REQUEST, "host_not_allowed"),
            ApiError::InContest { .. } => (StatusCode::FORBIDDEN, "in_contest"),
            ApiError::RateLimited { .. } => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
            ApiError::InvalidContest(_) => (StatusCode::UNPROCESSABLE_ENTITY, "invalid_contest"),
            ApiError::RewritesHistory(_) => (StatusCode::CONFLICT, "rewrites_history"),
            ApiError::IdTaken(_) => (StatusCode::CONFLICT, "id_taken"),
            ApiError::FileContest(_) => (StatusCode::CONFLICT, "file_contest"),
            ApiError::Store(_) => (StatusCode::INTERNAL_SERVER_ERROR, "storage"),
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status_and_code();
        if status == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!(code, error = %self, "request failed");
        } else if status.is_server_error() {
            tracing::debug!(code, error = %self, "request refused");
        }
        let body = ErrorBody {
            error: ErrorDetail {
                code: code.to_string(),
                message: self.to_string(),
                contest: match &self {
                    ApiError::InContest { contest, .. } => Some(contest.clone()),
                    _ => None,
                },
                fields: match &self {
                    ApiError::InvalidContest(f) | ApiError::RewritesHistory(f) => Some(f.clone()),
                    _ => None,
                },
            },
        };
        let mut response = (status, Json(body)).into_response();
        let headers = response.headers_mut();
        match &self {
            ApiError::Busy { retry_after_s, .. } | ApiError::OwnQueueFull { retry_after_s, .. } => {
                headers.insert(RETRY_AFTER, HeaderValue::from(*retry_after_s));
            }
            ApiError::RateLimited {
                retry_after_secs, ..
            } => {
                headers.insert(RETRY_AFTER, HeaderValue::from(*retry_after_secs));
            }
            ApiError::Unauthenticated(_) | ApiError::BadCredentials => {
                headers.insert(WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            }
            _ => {}
        }
        response
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        let text = rejection.body_text();
        match rejection {
            JsonRejection::MissingJsonContentType(_) => ApiError::UnsupportedMediaType(text),
            r if r.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                ApiError::TooLarge(format!("request body too large: {text}"))
            }
            _ => ApiError::MalformedJson(text),
        }
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> Self {
        ApiError::BadQuery(rejection.body_text())
    }
}

/// Fields at fault as one line: `field: message; field: message`.
fn fields_text(fields: &[crate::contest::FieldError]) -> String {
    fields
        .iter()
        .map(|f| format!("{}: {}", f.field, f.message))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Handlers' result type.
pub type ApiResult<T> = Result<T, ApiError>;
