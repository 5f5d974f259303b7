//! `/admin`: the queue, contests (results CSV, questions waiting for an answer), users (add,
//! import a roster, disable, enable, reset a password, cancel their queued submissions), and links to the submissions with filters. Everything here asks [`access::administer`]; users are made with
//! the same code as `sudojudge user add|import` ([`roster`], stored through [`users`]).

use askama::Template;
use axum::extract::{Multipart, Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::Form;
use serde::Deserialize;

use crate::accounts::{access, roster, Caller, Role, UserName};
use crate::server::services::contests::clarify;
use crate::server::services::contests::loaded::Origin;
use crate::server::services::users::{self, cancel_queued, NewUser, NotAdded, UserQueue};
use crate::server::services::{packages, queue};
use crate::server::AppState;

use super::page::{allow, render_with, see_other, Nav, Visitor, WebError, WebResult};

/// Roster bytes read at most (a class of thousands fits in far less).
const MAX_ROSTER_BYTES: usize = 256 * 1024;

#[derive(Template)]
#[template(path = "admin.html")]
struct AdminPage {
    nav: Nav,
    contests: Vec<ContestLine>,
    refused_contests: Vec<String>,
    refused_packages: Vec<String>,
    me: Option<String>,
    users: Vec<UserLine>,
    queued: u64,
    notice: Option<String>,
    error: Option<String>,
    created: Vec<(String, String, String)>,
}

/// A user on the admin page, with their queued submissions (cancel them all from here).
struct UserLine {
    name: String,
    display_name: String,
    role: &'static str,
    disabled: bool,
    queued: u64,
}

impl UserLine {
    fn of(UserQueue { user: u, queued }: UserQueue) -> UserLine {
        UserLine {
            queued,
            name: u.name.to_string(),
            display_name: u.display_name,
            role: u.role.as_str(),
            disabled: u.disabled,
        }
    }
}

/// A contest on the admin page: its links and the questions waiting for an answer.
struct ContestLine {
    id: String,
    title: String,
    /// "file NAME" (the file wins) or "database: edit".
    origin: String,
    unanswered: u64,
}

/// What the page says after an action.
#[derive(Default)]
pub(super) struct Outcome {
    pub(super) status: Option<StatusCode>,
    pub(super) notice: Option<String>,
    pub(super) error: Option<String>,
    pub(super) created: Vec<(String, String, String)>,
}

/// The admin page with what an action did.
pub(super) async fn page(
    state: &AppState,
    caller: &Caller,
    nav: Nav,
    outcome: Outcome,
) -> WebResult {
    let users = users::with_queued(state, caller)
        .await
        .map_err(|e| WebError::api(&nav, e))?;
    let queued = queue::depth(state)
        .await
        .map_err(|e| WebError::api(&nav, e))?;
    let users = users.into_iter().map(UserLine::of).collect();
    let mut contests = Vec::new();
    for c in state.contests.all().iter() {
        let id = c.id.as_str();
        let unanswered = clarify::unanswered(state, caller, id)
            .await
            .map_err(|e| WebError::api(&nav, e))?;
        let origin = match state.contests.served(id).map(|s| s.origin) {
            Some(Origin::File(p)) => format!("file {}", p.display()),
            _ => "database: edit".to_string(),
        };
        contests.push(ContestLine {
            origin,
            id: id.to_string(),
            title: c.title.clone(),
            unanswered,
        });
    }
    let refused_packages =
        packages::refused_folders(state, caller).map_err(|e| WebError::api(&nav, e))?;
    Ok(render_with(
        outcome.status.unwrap_or(StatusCode::OK),
        &AdminPage {
            nav,
            contests,
            refused_contests: state.contests.refused(),
            refused_packages,
            me: match caller {
                Caller::User(u) => Some(u.name.to_string()),
                _ => None,
            },
            users,
            queued,
            notice: outcome.notice,
            error: outcome.error,
            created: outcome.created,
        },
    ))
}

/// The page's navigation, once the caller is known to be an admin.
pub(super) fn admin_nav(caller: &Caller, nav: Nav) -> WebResult<Nav> {
    allow(access::administer(caller), &nav, "/admin", String::new)?;
    Ok(nav)
}

/// The admin page.
pub async fn show(State(state): State<AppState>, Visitor { caller, nav }: Visitor) -> WebResult {
    let nav = admin_nav(&caller, nav)?;
    page(&state, &caller, nav, Outcome::default()).await
}

/// The add-user form.
#[derive(Debug, Deserialize)]
pub struct AddUser {
    name: String,
    #[serde(default)]
    display_name: String,
    admin: Option<String>,
}

fn refused(why: String) -> Outcome {
    Outcome {
        status: Some(StatusCode::UNPROCESSABLE_ENTITY),
        error: Some(why),
        ..Outcome::default()
    }
}

fn store_refusal(e: NotAdded) -> Outcome {
    match e {
        NotAdded::Duplicate(name) => {
            refused(format!("user {name:?} already exists; nothing was written"))
        }
        NotAdded::Failed(other) => {
            tracing::error!(error = %other, "admin page: storing users failed");
            Outcome {
                status: Some(StatusCode::INTERNAL_SERVER_ERROR),
                error: Some("the users could not be stored; the host's log says why".into()),
                ..Outcome::default()
            }
        }
    }
}

/// Creates users with generated passwords (argon2 off the async threads); the outcome shows
/// the passwords once.
async fn create(
    state: &AppState,
    caller: &Caller,
    rows: Vec<roster::RosterRow>,
    role: Role,
) -> Outcome {
    let made = match tokio::task::spawn_blocking(move || roster::with_passwords(rows)).await {
        Ok(Ok(made)) => made,
        Ok(Err(e)) => return refused(e.to_string()),
        Err(e) => return refused(format!("password hashing failed: {e}")),
    };
    let users: Vec<NewUser> = made
        .iter()
        .map(|m| NewUser {
            name: m.row.name.clone(),
            display_name: m.row.display_name.clone(),
            role,
            password_hash: m.password_hash.clone(),
        })
        .collect();
    if let Err(e) = users::add(state, caller, &users).await {
        return store_refusal(e);
    }
    let groups: Vec<(String, String)> = made
        .iter()
        .filter_map(|m| Some((m.row.name.to_string(), m.row.group.clone()?)))
        .collect();
    if !groups.is_empty() {
        if let Err(e) = users::set_groups(state, caller, &groups).await {
            return refused(format!(
                "the users were created but not put in their groups: {e}"
            ));
        }
    }
    Outcome {
        notice: Some(format!("created {} {}(s)", made.len(), role.as_str())),
        created: made
            .into_iter()
            .map(|m| (m.row.name.to_string(), m.row.display_name, m.password))
            .collect(),
        ..Outcome::default()
    }
}

/// Adds one user.
pub async fn add(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Form(f): Form<AddUser>,
) -> WebResult {
    let nav = admin_nav(&caller, nav)?;
    let row = UserName::parse(f.name.trim())
        .map_err(crate::accounts::AccountError::from)
        .and_then(|name| {
            Ok(roster::RosterRow {
                name,
                display_name: roster::display_name(Some(&f.display_name))?,
                group: None,
            })
        });
    let outcome = match row {
        Ok(row) => {
            let role = if f.admin.is_some() {
                Role::Admin
            } else {
                Role::Contestant
            };
            create(&state, &caller, vec![row], role).await
        }
        Err(e) => refused(e.to_string()),
    };
    page(&state, &caller, nav, outcome).await
}

/// Imports a roster (uploaded or pasted): all or nothing, as `sudojudge user import`.
pub async fn import(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    mut form: Multipart,
) -> WebResult {
    let nav = admin_nav(&caller, nav)?;
    let mut text: Option<Vec<u8>> = None;
    for _ in 0..8 {
        let Ok(Some(field)) = form.next_field().await else {
            break;
        };
        let name = field.name().unwrap_or("").to_string();
        let Ok(bytes) = field.bytes().await else {
            break;
        };
        if bytes.len() > MAX_ROSTER_BYTES {
            let why = format!("the roster is over {} KiB", MAX_ROSTER_BYTES / 1024);
            return page(&state, &caller, nav, refused(why)).await;
        }
        let filled = !bytes.iter().all(u8::is_ascii_whitespace);
        if filled && (name == "file" || (name == "roster" && text.is_none())) {
            text = Some(bytes.to_vec());
        }
    }
    let outcome = match text.map(|t| roster::parse(t.as_slice())) {
        None => refused("choose a roster file or paste one".into()),
        Some(Err(e)) => refused(format!("roster: {e}")),
        Some(Ok(rows)) => create(&state, &caller, rows, roster::ROSTER_ROLE).await,
    };
    page(&state, &caller, nav, outcome).await
}

/// Disables (`disable`) or enables (`enable`) a user (disabling revokes every token at
/// once), cancels their queued submissions (`cancel`), or gives them a new password shown
/// once (`password`, ending their sessions).
pub async fn set_state(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path((name, action)): Path<(String, String)>,
) -> WebResult<Response> {
    let nav = admin_nav(&caller, nav)?;
    let disabled = match action.as_str() {
        "disable" => true,
        "enable" => false,
        "password" => {
            // A new generated password, shown once; their sessions end (the CLI's rule).
            let password = users::reset_password(&state, &caller, &name)
                .await
                .map_err(|e| WebError::api(&nav, e))?;
            let display = users::with_queued(&state, &caller)
                .await
                .map_err(|e| WebError::api(&nav, e))?
                .into_iter()
                .find(|u| u.user.name.as_str() == name)
                .map(|u| u.user.display_name)
                .unwrap_or_default();
            let outcome = Outcome {
                notice: Some(format!(
                    "new password for {name}: every session of theirs has ended"
                )),
                created: vec![(name, display, password)],
                ..Outcome::default()
            };
            return page(&state, &caller, nav, outcome).await;
        }
        "cancel" => {
            // Every queued submission of theirs: the API's service.
            let done = cancel_queued(&state, &caller, &name)
                .await
                .map_err(|e| WebError::api(&nav, e))?;
            let outcome = Outcome {
                notice: Some(format!(
                    "cancelled {} queued submission(s) of {}: kept as cancelled, never judged",
                    done.cancelled, done.user
                )),
                ..Outcome::default()
            };
            return page(&state, &caller, nav, outcome).await;
        }
        _ => return Err(WebError::not_found(&nav, format!("no action {action:?}"))),
    };
    let missing = || WebError::not_found(&nav, format!("no user {name:?}"));
    let user = UserName::parse(&name).map_err(|_| missing())?;
    let found = users::set_disabled(&state, &caller, &user, disabled)
        .await
        .map_err(|e| WebError::api(&nav, e))?;
    if !found {
        return Err(missing());
    }
    Ok(see_other("/admin"))
}
