//! What every page shares: the navigation bar's facts ([`Nav`]), rendering a template to an
//! answer, and the pages' errors ([`WebError`]: a sign-in redirect, or a page with a status).

use askama::Template;
use axum::extract::FromRequestParts;
use axum::http::header::LOCATION;
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};

use crate::accounts::{access, Caller, Decision};
use crate::server::session::CsrfKey;
use crate::server::ApiError;

/// The navigation bar's facts and the CSRF token of the page's forms.
#[derive(Debug, Clone)]
pub struct Nav {
    /// The signed-in user's name (display name if set).
    pub user: Option<String>,
    /// Whether the admin link shows.
    pub admin: bool,
    /// Whether the caller may list submissions (signed in, or the open mode).
    pub signed_in: bool,
    /// The open single-user mode (no accounts).
    pub open_mode: bool,
    /// The token every form of the page carries.
    pub csrf: String,
}

impl Nav {
    /// The bar for `caller`, with forms keyed to this browser.
    pub fn new(caller: &Caller, csrf: &CsrfKey) -> Nav {
        Nav {
            user: match caller {
                Caller::User(u) if !u.display_name.is_empty() => Some(u.display_name.clone()),
                Caller::User(u) => Some(u.name.to_string()),
                _ => None,
            },
            admin: access::administer(caller) == Decision::Allow,
            signed_in: access::list_submissions(caller).is_ok(),
            open_mode: matches!(caller, Caller::Open),
            csrf: csrf.token(),
        }
    }
}

/// Who is asking, with their navigation bar: the extractor every page handler starts from.
#[derive(Debug, Clone)]
pub struct Visitor {
    /// The caller the `identify` middleware found.
    pub caller: Caller,
    /// Their navigation bar and forms' CSRF token.
    pub nav: Nav,
}

impl<S: Send + Sync> FromRequestParts<S> for Visitor {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let caller = Caller::from_request_parts(parts, state).await?;
        let csrf = CsrfKey::from_request_parts(parts, state).await?;
        Ok(Visitor {
            nav: Nav::new(&caller, &csrf),
            caller,
        })
    }
}

/// A template rendered to an HTML answer (a render failure is a 500 naming no data).
pub fn render<T: Template>(template: &T) -> Response {
    render_with(StatusCode::OK, template)
}

/// [`render`] with a status other than 200.
pub fn render_with<T: Template>(status: StatusCode, template: &T) -> Response {
    match template.render() {
        Ok(html) => (status, Html(html)).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "a page failed to render");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                "the page failed to render",
            )
                .into_response()
        }
    }
}

/// A 303 to `to` (after a form, or to the sign-in page).
pub fn see_other(to: &str) -> Response {
    let mut r = StatusCode::SEE_OTHER.into_response();
    if let Ok(v) = HeaderValue::from_str(to) {
        r.headers_mut().insert(LOCATION, v);
    }
    r
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage<'a> {
    nav: Nav,
    title: &'a str,
    message: &'a str,
}

/// Why a page is not shown.
#[derive(Debug)]
pub enum WebError {
    /// Sign in first; back to `next` afterwards.
    SignIn {
        /// The page asked for.
        next: String,
    },
    /// A page with this status, title and message.
    Page {
        /// The HTTP status.
        status: StatusCode,
        /// The heading.
        title: &'static str,
        /// What happened.
        message: String,
        /// The navigation bar.
        nav: Box<Nav>,
    },
}

impl WebError {
    /// A 404 page.
    pub fn not_found(nav: &Nav, message: String) -> WebError {
        WebError::page(nav, StatusCode::NOT_FOUND, "Not found", message)
    }

    /// A page with any status.
    pub fn page(nav: &Nav, status: StatusCode, title: &'static str, message: String) -> WebError {
        WebError::Page {
            status,
            title,
            message,
            nav: Box::new(nav.clone()),
        }
    }

    /// The page of an API error (its status and message; a store failure says no more).
    pub fn api(nav: &Nav, e: ApiError) -> WebError {
        let (status, _) = e.status_and_code();
        let title = if status.is_server_error() {
            "Server error"
        } else {
            "Refused"
        };
        let message = match e {
            ApiError::Store(_) | ApiError::Internal(_) => {
                "the judge failed to answer; the host's log says why".to_string()
            }
            other => other.to_string(),
        };
        WebError::page(nav, status, title, message)
    }
}

/// Turns an access decision into a page error: sign in (back to `here`), 403, or a 404 saying
/// `missing` exactly as for a thing that does not exist.
pub fn allow(
    decision: Decision,
    nav: &Nav,
    here: &str,
    missing: impl FnOnce() -> String,
) -> Result<(), WebError> {
    match decision {
        Decision::Allow => Ok(()),
        refused => Err(refusal(refused, nav, here, missing)),
    }
}

/// The page error of a refusal (see [`allow`]).
pub fn refusal(
    decision: Decision,
    nav: &Nav,
    here: &str,
    missing: impl FnOnce() -> String,
) -> WebError {
    match decision {
        Decision::Unauthenticated => WebError::SignIn {
            next: here.to_string(),
        },
        Decision::Forbidden => WebError::page(
            nav,
            StatusCode::FORBIDDEN,
            "Not allowed",
            "only an admin may do this".into(),
        ),
        Decision::Hidden => WebError::not_found(nav, missing()),
        Decision::Allow => WebError::page(
            nav,
            StatusCode::INTERNAL_SERVER_ERROR,
            "Server error",
            "an allowed action was refused".into(),
        ),
    }
}

impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        match self {
            WebError::SignIn { next } => {
                let next = if is_local_path(&next) {
                    next
                } else {
                    "/".into()
                };
                let query =
                    serde_urlencoded::to_string([("next", next.as_str())]).unwrap_or_default();
                see_other(&format!("/login?{query}"))
            }
            WebError::Page {
                status,
                title,
                message,
                nav,
            } => render_with(
                status,
                &ErrorPage {
                    nav: *nav,
                    title,
                    message: &message,
                },
            ),
        }
    }
}

/// Whether `path` is a path of this site (so a redirect to it never leaves the site).
pub fn is_local_path(path: &str) -> bool {
    path.starts_with('/')
        && !path.starts_with("//")
        && !path.contains('\\')
        && !path.chars().any(char::is_control)
}

/// Page results.
pub type WebResult<T = Response> = Result<T, WebError>;

/// Formatting of figures shared by the pages.
pub mod fmt {
    /// `1.5 s`, `250 ms`.
    pub fn millis(ms: u64) -> String {
        if ms >= 1000 && ms.is_multiple_of(100) {
            format!("{} s", ms as f64 / 1000.0)
        } else {
            format!("{ms} ms")
        }
    }

    /// `64 MiB`, `3.2 MiB`, `512 KiB`.
    pub fn kib(kib: u64) -> String {
        if kib >= 1024 {
            format!("{:.1} MiB", kib as f64 / 1024.0)
        } else {
            format!("{kib} KiB")
        }
    }

    /// `h:mm:ss` of a number of seconds (a clock's text before the script ticks it).
    pub fn hms(secs: i64) -> String {
        let s = secs.max(0);
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    }

    /// An ISO 8601 UTC time as `2026-11-23 16:42:01`.
    pub fn when(iso: &str) -> String {
        iso.replace('T', " ")
            .trim_end_matches('Z')
            .split('.')
            .next()
            .unwrap_or("")
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_local_paths_are_redirect_targets() {
        assert!(is_local_path("/submissions/3"));
        for bad in [
            "//evil.example/",
            "https://evil.example/",
            "/\\evil",
            "",
            "/a\nb",
        ] {
            assert!(!is_local_path(bad), "{bad:?}");
        }
        assert_eq!(fmt::millis(1000), "1 s");
        assert_eq!(fmt::millis(1500), "1.5 s");
        assert_eq!(fmt::millis(42), "42 ms");
        assert_eq!(fmt::kib(65536), "64.0 MiB");
        assert_eq!(fmt::hms(3725), "1:02:05");
        assert_eq!(fmt::when("2026-11-23T16:42:01.123Z"), "2026-11-23 16:42:01");
    }
}
