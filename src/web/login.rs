//! `GET /login`, `POST /login` (the session cookie), `POST /logout`.

use askama::Template;
use axum::extract::{Query, State};
use axum::http::header::{RETRY_AFTER, SET_COOKIE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Form};
use serde::Deserialize;

use crate::server::auth::{ClientAddr, PresentedToken};
use crate::server::services::login::{authenticate, sign_out};
use crate::server::{ApiError, AppState};

use super::page::{is_local_path, render, render_with, see_other, Nav, Visitor};

#[derive(Template)]
#[template(path = "login.html")]
struct LoginPage {
    nav: Nav,
    next: String,
    name: String,
    error: Option<String>,
}

/// Where to go after signing in.
#[derive(Debug, Deserialize)]
pub struct Next {
    next: Option<String>,
}

fn local_or_home(next: Option<String>) -> String {
    next.filter(|n| is_local_path(n))
        .unwrap_or_else(|| "/".into())
}

/// The sign-in form.
pub async fn form(Visitor { nav, .. }: Visitor, Query(q): Query<Next>) -> Response {
    render(&LoginPage {
        nav,
        next: local_or_home(q.next),
        name: String::new(),
        error: None,
    })
}

/// The sign-in form's fields (its CSRF token is checked before the handler runs).
#[derive(Debug, Deserialize)]
pub struct Credentials {
    name: String,
    password: String,
    next: Option<String>,
}

/// Signs in: the login rules and limits of `POST /api/login`, then the session cookie.
pub async fn submit(
    State(state): State<AppState>,
    ClientAddr(addr): ClientAddr,
    Visitor { nav, .. }: Visitor,
    Form(f): Form<Credentials>,
) -> Response {
    let next = local_or_home(f.next);
    match authenticate(&state, addr, &f.name, f.password).await {
        Ok((_, token)) => {
            let mut r = see_other(&next);
            r.headers_mut()
                .append(SET_COOKIE, state.cookies.session(&token));
            r
        }
        Err(e) => {
            let retry_after = match &e {
                ApiError::RateLimited {
                    retry_after_secs, ..
                } => Some(*retry_after_secs),
                ApiError::Busy { retry_after_s, .. } => Some(*retry_after_s),
                _ => None,
            };
            let (status, message) = match e {
                ApiError::BadCredentials => (
                    StatusCode::UNAUTHORIZED,
                    "wrong name or password".to_string(),
                ),
                e @ ApiError::RateLimited { .. } => (StatusCode::TOO_MANY_REQUESTS, e.to_string()),
                e @ ApiError::Busy { .. } => (StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
                e => {
                    tracing::error!(error = %e, "sign-in failed");
                    (
                        StatusCode::INTERNAL_SERVER_ERROR,
                        "the judge could not sign you in; try again".to_string(),
                    )
                }
            };
            let mut r = render_with(
                status,
                &LoginPage {
                    nav,
                    next,
                    name: f.name,
                    error: Some(message),
                },
            );
            if let Some(secs) = retry_after {
                r.headers_mut().insert(RETRY_AFTER, HeaderValue::from(secs));
            }
            r
        }
    }
}

/// Signs out: the session's token is revoked at once and the cookie removed.
pub async fn logout(
    State(state): State<AppState>,
    token: Option<Extension<PresentedToken>>,
) -> Response {
    if let Some(Extension(PresentedToken(hash))) = token {
        if let Err(e) = sign_out(&state, &hash).await {
            tracing::error!(error = %e, "cannot revoke a session at sign-out");
            return (
                StatusCode::INTERNAL_SERVER_ERROR,
                "sign-out failed; try again",
            )
                .into_response();
        }
    }
    let mut r = see_other("/login");
    r.headers_mut()
        .append(SET_COOKIE, state.cookies.clear_session());
    r
}
