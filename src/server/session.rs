//! Browser sessions and CSRF tokens, for the web pages (and any cookie-carrying client).
//!
//! - The **session cookie** `sj_session` holds a login token (`sj_` + 64 hex, stored hashed in
//!   the tokens table like every token, lasting `[accounts] login_token_hours`); HttpOnly,
//!   SameSite=Lax, `Secure` when `[accounts] secure_cookies`. [`super::auth::identify`]
//!   accepts it where a request has no `Authorization` header.
//! - The **visitor cookie** `sj_visitor` (32 random bytes, HttpOnly, SameSite=Strict) is set on
//!   the pages of a browser without a session, so the sign-in form and the open mode's forms
//!   have a CSRF token too (no login CSRF).
//! - The **CSRF token** of a browser is the SHA-256 of a fixed label and its cookie's value
//!   (the session token when signed in, else the visitor value): another site can neither read
//!   the cookie nor compute the token, and the server needs no table of secrets.
//!
//! [`guard`] refuses with 403 every state-changing request (not GET/HEAD/OPTIONS) that is
//! authenticated by the session cookie, or that is aimed at a page (not `/api/`), unless it
//! carries the token: as the form field `csrf` (url-encoded or multipart forms) or the header
//! `X-CSRF-Token` (scripts). Requests with `Authorization: Bearer` need no token (a browser
//! never adds that header on another site's behalf), and anonymous JSON API calls are as
//! before (`POST /api/login`).

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, FromRequestParts, Multipart, Request};
use axum::http::header::{CONTENT_TYPE, COOKIE, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Response};
use http_body_util::BodyExt;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::accounts::Token;

use super::error::ApiError;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "sj_session";
/// The visitor cookie's name (CSRF key of a browser without a session).
pub const VISITOR_COOKIE: &str = "sj_visitor";
/// The form field that carries the CSRF token.
pub const CSRF_FIELD: &str = "csrf";
/// The header that carries the CSRF token (scripts, JSON clients using the cookie).
pub const CSRF_HEADER: &str = "x-csrf-token";
/// Form fields looked at for the token before giving up (a form puts it first).
const MAX_FIELDS_SCANNED: usize = 64;

/// How a request proved who it is (set by [`super::auth::identify`]).
#[derive(Debug, Clone)]
pub enum Credential {
    /// `Authorization: Bearer` with a live token.
    Bearer,
    /// The session cookie with a live token.
    Session(Token),
}

/// The value this browser's CSRF token is derived from (a session token or a visitor value),
/// and whether it is new (then [`guard`] sets the visitor cookie on the answer).
#[derive(Debug, Clone)]
pub struct CsrfKey {
    key: String,
    fresh_visitor: bool,
}

impl CsrfKey {
    /// The token forms of this page carry.
    pub fn token(&self) -> String {
        csrf_token(&self.key)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for CsrfKey {
    type Rejection = std::convert::Infallible;

    /// The key [`guard`] found; without the middleware a random one (forms then fail closed).
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(parts
            .extensions
            .get::<CsrfKey>()
            .cloned()
            .unwrap_or(CsrfKey {
                key: new_visitor_value(),
                fresh_visitor: false,
            }))
    }
}

/// Cookie settings: whether cookies carry `Secure`, and how long a session lasts.
#[derive(Debug, Clone, Copy)]
pub struct CookiePolicy {
    /// `[accounts] secure_cookies`.
    pub secure: bool,
    /// `[accounts] login_token_hours`.
    pub session_ttl: Duration,
}

impl CookiePolicy {
    /// The `Set-Cookie` value that signs a browser in with `token`.
    pub fn session(&self, token: &Token) -> HeaderValue {
        self.header(
            SESSION_COOKIE,
            token.reveal(),
            cookie::SameSite::Lax,
            Some(self.session_ttl),
        )
    }

    /// The `Set-Cookie` value that removes the session cookie (sign out).
    pub fn clear_session(&self) -> HeaderValue {
        self.header(
            SESSION_COOKIE,
            "",
            cookie::SameSite::Lax,
            Some(Duration::ZERO),
        )
    }

    fn visitor(&self, value: &str) -> HeaderValue {
        self.header(VISITOR_COOKIE, value, cookie::SameSite::Strict, None)
    }

    fn header(
        &self,
        name: &'static str,
        value: &str,
        same_site: cookie::SameSite,
        max_age: Option<Duration>,
    ) -> HeaderValue {
        let mut c = cookie::Cookie::build((name, value.to_string()))
            .path("/")
            .http_only(true)
            .same_site(same_site)
            .secure(self.secure);
        if let Some(age) = max_age {
            let secs = i64::try_from(age.as_secs()).unwrap_or(i64::MAX);
            c = c.max_age(cookie::time::Duration::seconds(secs));
        }
        // Names and values are ours (hex or empty), always valid header text.
        HeaderValue::from_str(&c.build().to_string())
            .unwrap_or_else(|_| HeaderValue::from_static(""))
    }
}

/// The CSRF token of a browser whose cookie holds `key`.
pub fn csrf_token(key: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"sudojudge csrf v1\0");
    h.update(key.as_bytes());
    hex::encode(h.finalize())
}

/// The value of the cookie `name` of a request (the first one, when sent twice).
pub fn cookie_value(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(cookie::Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|c| c.name() == name)
        .map(|c| c.value().to_string())
}

/// The session token a request's cookie holds, if it is shaped like a token.
pub fn session_token(headers: &HeaderMap) -> Option<Token> {
    cookie_value(headers, SESSION_COOKIE).and_then(|v| Token::parse(&v))
}

fn new_visitor_value() -> String {
    hex::encode(rand::random::<[u8; 32]>())
}

/// A visitor value as sent back: 64 lowercase hex digits, nothing else.
fn visitor_value(headers: &HeaderMap) -> Option<String> {
    cookie_value(headers, VISITOR_COOKIE)
        .filter(|v| v.len() == 64 && v.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn is_safe(method: &Method) -> bool {
    matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// A path for programs, not pages: the API and the Prometheus scrape (`/metrics`), which
/// answer refusals in JSON and take no CSRF token without a session cookie.
fn machine_path(path: &str) -> bool {
    path.starts_with("/api/") || path == "/metrics"
}

/// Middleware (inside [`super::auth::identify`]): gives every request its [`CsrfKey`], sets
/// the visitor cookie on a page answer when the browser had none, and refuses (403) a
/// state-changing request that needs the CSRF token and lacks it (see the module's rules).
pub async fn guard(policy: CookiePolicy, req: Request, next: Next) -> Response {
    let credential = req.extensions().get::<Credential>().cloned();
    let api = machine_path(req.uri().path());
    let key = match &credential {
        Some(Credential::Session(token)) => Some(token.reveal().to_string()),
        _ => visitor_value(req.headers()),
    };
    let needs_token = !is_safe(req.method())
        && match credential {
            Some(Credential::Bearer) => false,
            Some(Credential::Session(_)) => true,
            None => !api,
        };
    let (mut req, presented) = if needs_token {
        let (req, presented) = presented_token(req).await;
        (req, presented)
    } else {
        (req, None)
    };
    if needs_token {
        let ok = match (&key, &presented) {
            (Some(k), Some(p)) => bool::from(csrf_token(k).as_bytes().ct_eq(p.as_bytes())),
            _ => false,
        };
        if !ok {
            return refuse(api);
        }
    }
    let csrf = match key {
        Some(key) => CsrfKey {
            key,
            fresh_visitor: false,
        },
        None => CsrfKey {
            key: new_visitor_value(),
            fresh_visitor: !api,
        },
    };
    req.extensions_mut().insert(csrf.clone());
    let mut response = next.run(req).await;
    if csrf.fresh_visitor {
        response
            .headers_mut()
            .append(SET_COOKIE, policy.visitor(&csrf.key));
    }
    response
}

/// The message of a refused form.
const REFUSED: &str = "this form was refused: it did not carry this browser's CSRF token (it \
    was sent from another site, or the page is older than your sign-in). Reload the page and \
    send it again.";

fn refuse(api: bool) -> Response {
    if api {
        return ApiError::Csrf(format!(
            "{REFUSED} Scripts using the session cookie send the token in the {CSRF_HEADER} \
             header; API clients use Authorization: Bearer instead."
        ))
        .into_response();
    }
    let page = format!(
        "<!doctype html><html lang=en><meta charset=utf-8>\
         <meta name=viewport content=\"width=device-width, initial-scale=1\">\
         <title>Refused - sudojudge</title><link rel=stylesheet href=\"/static/style.css\">\
         <main class=narrow><h1>Refused</h1><p>{REFUSED}</p><p><a href=\"/\">Home</a></p></main>"
    );
    (StatusCode::FORBIDDEN, Html(page)).into_response()
}

/// The token a request carries (header first, then the form field), and the request rebuilt
/// with its body (already read whole and bounded by the body middleware).
async fn presented_token(req: Request) -> (Request, Option<String>) {
    if let Some(v) = req.headers().get(CSRF_HEADER).and_then(|v| v.to_str().ok()) {
        let v = v.trim().to_string();
        return (req, Some(v));
    }
    let (parts, body) = req.into_parts();
    let bytes = match body.collect().await {
        Ok(c) => c.to_bytes(),
        Err(_) => Bytes::new(),
    };
    let content_type = parts
        .headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    let found = if content_type.starts_with("application/x-www-form-urlencoded") {
        form_field(&bytes)
    } else if content_type.starts_with("multipart/form-data") {
        let probe = Request::from_parts(parts.clone(), Body::from(bytes.clone()));
        multipart_field(probe).await
    } else {
        None
    };
    (Request::from_parts(parts, Body::from(bytes)), found)
}

fn form_field(bytes: &[u8]) -> Option<String> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(bytes).ok()?;
    pairs
        .into_iter()
        .find(|(k, _)| k == CSRF_FIELD)
        .map(|(_, v)| v)
}

async fn multipart_field(req: Request) -> Option<String> {
    let mut form = Multipart::from_request(req, &()).await.ok()?;
    for _ in 0..MAX_FIELDS_SCANNED {
        let field = form.next_field().await.ok()??;
        if field.name() == Some(CSRF_FIELD) {
            return field.text().await.ok();
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_depend_on_the_key_and_cookies_parse() {
        let a = csrf_token("one");
        assert_eq!(a, csrf_token("one"));
        assert_ne!(a, csrf_token("two"));
        assert_eq!(a.len(), 64);
        let mut h = HeaderMap::new();
        h.insert(COOKIE, HeaderValue::from_static("a=1; sj_visitor=xyz; b=2"));
        assert_eq!(cookie_value(&h, VISITOR_COOKIE).as_deref(), Some("xyz"));
        assert_eq!(visitor_value(&h), None, "not 64 hex digits");
        assert_eq!(cookie_value(&h, SESSION_COOKIE), None);
        let t = Token::generate();
        let v = format!("{SESSION_COOKIE}={}", t.reveal());
        h.insert(COOKIE, HeaderValue::from_str(&v).unwrap());
        assert!(session_token(&h).unwrap().hash().matches(&t.hash()));
    }

    #[test]
    fn cookies_are_http_only_and_same_site() {
        let p = CookiePolicy {
            secure: false,
            session_ttl: Duration::from_secs(3600),
        };
        let s = p.session(&Token::generate());
        let s = s.to_str().unwrap();
        assert!(s.contains("HttpOnly") && s.contains("SameSite=Lax") && s.contains("Max-Age=3600"));
        assert!(!s.contains("Secure"));
        let secure = CookiePolicy { secure: true, ..p };
        assert!(secure.visitor("ab").to_str().unwrap().contains("Secure"));
        assert!(secure
            .visitor("ab")
            .to_str()
            .unwrap()
            .contains("SameSite=Strict"));
        assert!(p.clear_session().to_str().unwrap().contains("Max-Age=0"));
    }

    #[test]
    fn fields_are_found_in_both_kinds_of_form() {
        assert_eq!(form_field(b"a=1&csrf=abc%21&b=2").as_deref(), Some("abc!"));
        assert_eq!(form_field(b"a=1"), None);
        let body = "--X\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\ntok\r\n--X--\r\n";
        let req = Request::builder()
            .method(Method::POST)
            .header(CONTENT_TYPE, "multipart/form-data; boundary=X")
            .body(Body::from(body))
            .unwrap();
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        assert_eq!(rt.block_on(multipart_field(req)).as_deref(), Some("tok"));
    }
}
