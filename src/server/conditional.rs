//! Serving a body computed once (the cached scoreboard) cheaply: the request's
//! `Accept-Encoding` decides whether the stored gzip body is sent, and `If-None-Match`
//! against the body's entity tag answers 304 without a body. Nothing here compresses: the
//! caller keeps both bodies, so a crowd of readers costs no CPU per read but the copy.

use axum::http::header::{
    ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, ETAG, IF_NONE_MATCH, VARY,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// One body in two encodings with its entity tag, as the cache keeps it.
#[derive(Debug, Clone, Copy)]
pub struct Representations<'a> {
    /// The body as is.
    pub identity: &'a axum::body::Bytes,
    /// The same body gzip-compressed.
    pub gzip: &'a axum::body::Bytes,
    /// The weak entity tag of the body (`W/"..."`), the same for both encodings.
    pub etag: &'a str,
    /// The body's media type.
    pub content_type: &'static str,
}

/// The answer to a GET of `body` for a request with `headers`: 304 when `If-None-Match`
/// names the current tag, else 200 with the gzip body when `Accept-Encoding` allows it, else
/// the plain one. The body differs with the caller (their audience), so caches must keep it
/// private and ask again every time (`no-cache`: the 304 makes asking cheap).
pub fn respond(headers: &HeaderMap, body: Representations<'_>) -> Response {
    let mut out = HeaderMap::new();
    if let Ok(tag) = HeaderValue::from_str(body.etag) {
        out.insert(ETAG, tag);
    }
    out.insert(
        VARY,
        HeaderValue::from_static("accept-encoding, authorization"),
    );
    out.insert(CACHE_CONTROL, HeaderValue::from_static("private, no-cache"));
    if none_match(headers, body.etag) {
        return (StatusCode::NOT_MODIFIED, out).into_response();
    }
    out.insert(CONTENT_TYPE, HeaderValue::from_static(body.content_type));
    if accepts_gzip(headers) {
        out.insert(CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        (out, body.gzip.clone()).into_response()
    } else {
        (out, body.identity.clone()).into_response()
    }
}

/// Whether `If-None-Match` lists `etag` (or `*`), compared weakly (RFC 9110 13.1.2: `W/`
/// ignored). Several headers and comma-separated lists are read; an unreadable one matches
/// nothing.
pub fn none_match(headers: &HeaderMap, etag: &str) -> bool {
    let ours = opaque(etag);
    headers
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|tag| tag == "*" || opaque(tag) == ours)
}

/// An entity tag without its weakness prefix.
fn opaque(tag: &str) -> &str {
    tag.strip_prefix("W/").unwrap_or(tag)
}

/// Whether `Accept-Encoding` allows gzip (RFC 9110 12.5.3): `gzip`, `x-gzip` or `*` listed
/// with a quality above 0 (and gzip not refused by name when `*` allows it).
pub fn accepts_gzip(headers: &HeaderMap) -> bool {
    let mut named = None;
    let mut any = false;
    for coding in headers
        .get_all(ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
    {
        let mut parts = coding.split(';');
        let name = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let allowed = parts
            .filter_map(|p| p.trim().strip_prefix("q=").or(p.trim().strip_prefix("Q=")))
            .all(|q| q.trim().parse::<f32>().is_ok_and(|q| q > 0.0));
        match name.as_str() {
            "gzip" | "x-gzip" => named = Some(named.unwrap_or(false) || allowed),
            "*" => any = allowed,
            _ => {}
        }
    }
    named.unwrap_or(any)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(name: axum::http::HeaderName, values: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append(name.clone(), HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn gzip_is_sent_only_when_the_client_allows_it() {
        for (value, gzip) in [
            ("gzip, deflate, br, zstd", true),
            ("br;q=1.0, gzip;q=0.8, *;q=0.1", true),
            ("GZIP", true),
            ("x-gzip", true),
            ("*", true),
            ("gzip;q=0", false),
            ("gzip;q=0.0, *", false),
            ("*;q=0", false),
            ("deflate, br", false),
            ("identity", false),
            ("", false),
            ("gzip;q=nonsense", false),
        ] {
            assert_eq!(
                accepts_gzip(&with(ACCEPT_ENCODING, &[value])),
                gzip,
                "{value:?}"
            );
        }
        assert!(!accepts_gzip(&HeaderMap::new()));
        assert!(accepts_gzip(&with(ACCEPT_ENCODING, &["br", "gzip"])));
    }

    #[test]
    fn if_none_match_compares_weakly_and_reads_lists() {
        let tag = r#"W/"abc""#;
        for (value, hit) in [
            (r#"W/"abc""#, true),
            (r#""abc""#, true),
            (r#""x", W/"abc""#, true),
            ("*", true),
            (r#"W/"abd""#, false),
            (r#""ab""#, false),
            ("", false),
        ] {
            assert_eq!(
                none_match(&with(IF_NONE_MATCH, &[value]), tag),
                hit,
                "{value:?}"
            );
        }
        assert!(!none_match(&HeaderMap::new(), tag));
    }
}
