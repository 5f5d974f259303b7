//! `GET /problems`, `GET /problems/{id}` (statement, limits, submit form) and
//! `POST /problems/{id}/submit`. Statements are public, as in the API; submitting follows
//! [`access::submit`]. The contest pages reuse [`ProblemPage`] and [`submit_source`].

use askama::Template;
use axum::extract::{Multipart, Path, State};
use axum::http::StatusCode;
use axum::response::Response;

use crate::accounts::{access, Caller};
use crate::problem::Problem;
use crate::server::services::contests::hiding::problem_visible;
use crate::server::services::contests::outside;
use crate::server::services::contests::submit::{self, ContestSubmitRequest};
use crate::server::services::submissions::enqueue;
use crate::server::AppState;

use super::page::{allow, fmt, render, render_with, see_other, Nav, Visitor, WebError, WebResult};
use super::{markdown, upload};

/// A problem's facts as the pages show them.
#[derive(Debug, Clone)]
pub struct ProblemView {
    /// Id.
    pub id: String,
    /// Title.
    pub title: String,
    /// CPU time limit per test.
    pub time: String,
    /// Memory limit.
    pub memory: String,
    /// Output limit.
    pub output: String,
    /// Number of tests.
    pub tests: usize,
}

impl ProblemView {
    /// The view of a loaded problem.
    pub fn of(p: &Problem) -> ProblemView {
        ProblemView {
            id: p.id.clone(),
            title: p.title.clone(),
            time: fmt::millis(p.time_limit_ms),
            memory: format!("{} MiB", p.memory_limit_mb),
            output: format!("{} MiB", p.output_limit_mb),
            tests: p.tests.len(),
        }
    }
}

/// A language of the submit form.
#[derive(Debug, Clone)]
pub struct LanguageOption {
    id: String,
    name: String,
    extensions: String,
    selected: bool,
}

/// The contest a problem page belongs to (its breadcrumb and label).
#[derive(Debug, Clone)]
pub struct ContestCrumb {
    /// Contest id.
    pub id: String,
    /// Contest title.
    pub title: String,
    /// The problem's label in it.
    pub label: String,
    /// The contest's clock for the caller.
    pub clock: Option<super::clock::ClockBar>,
}

#[derive(Template)]
#[template(path = "problems.html")]
struct ListPage {
    nav: Nav,
    problems: Vec<ProblemView>,
}

/// A problem page: statement, limits and the submit form.
#[derive(Template)]
#[template(path = "problem.html")]
pub struct ProblemPage {
    nav: Nav,
    problem: ProblemView,
    statement: std::sync::Arc<str>,
    contest: Option<ContestCrumb>,
    action: String,
    languages: Vec<LanguageOption>,
    source: String,
    error: Option<String>,
    closed: Option<String>,
}

impl ProblemPage {
    /// The page of `p`, its form posting to `action`; `closed` replaces the form with why
    /// submitting is not possible now.
    pub fn new(
        state: &AppState,
        nav: Nav,
        p: &Problem,
        contest: Option<ContestCrumb>,
        action: String,
        closed: Option<String>,
    ) -> ProblemPage {
        ProblemPage {
            nav,
            problem: ProblemView::of(p),
            statement: markdown::render_statement(&p.statement),
            contest,
            action,
            languages: languages(state, None),
            source: String::new(),
            error: None,
            closed,
        }
    }
}

fn languages(state: &AppState, selected: Option<&str>) -> Vec<LanguageOption> {
    state
        .language_table
        .iter()
        .map(|l| LanguageOption {
            id: l.id.clone(),
            name: l.name.clone(),
            extensions: l.extensions.join(" "),
            selected: selected == Some(l.id.as_str()),
        })
        .collect()
}

/// Every problem with its limits.
pub async fn list(State(state): State<AppState>, Visitor { caller, nav }: Visitor) -> Response {
    render(&ListPage {
        nav,
        problems: state
            .problems
            .values()
            .iter()
            .filter(|p| problem_visible(&state, &caller, &p.id))
            .map(|p| ProblemView::of(p))
            .collect(),
    })
}

/// The problem `id` if the caller may see it outside contests (a problem only in contests
/// that have not opened is a 404, as in the API).
fn visible(
    state: &AppState,
    caller: &Caller,
    nav: &Nav,
    id: &str,
) -> WebResult<std::sync::Arc<Problem>> {
    state
        .problems
        .get(id)
        .filter(|p| problem_visible(state, caller, &p.id))
        .ok_or_else(|| WebError::not_found(nav, format!("no problem {id:?}")))
}

/// One problem's page.
pub async fn show(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path(id): Path<String>,
) -> WebResult {
    let p = visible(&state, &caller, &nav, &id)?;
    let action = format!("/problems/{}/submit", p.id);
    // A contest holding the problem for the caller: the form gives way to the reason (the
    // submit handler refuses it anyway, through the same rule).
    let closed = match outside::check(&state, &caller, &p.id, None).await {
        Err(e @ crate::server::ApiError::InContest { .. }) => Some(e.to_string()),
        _ => None,
    };
    Ok(render(&ProblemPage::new(
        &state, nav, &p, None, action, closed,
    )))
}

/// The submit form of `/problems/{id}`.
pub async fn submit(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path(id): Path<String>,
    form: Multipart,
) -> WebResult {
    let p = visible(&state, &caller, &nav, &id)?;
    let here = format!("/problems/{}", p.id);
    allow(access::submit(&caller), &nav, &here, String::new)?;
    let page = ProblemPage::new(&state, nav, &p, None, format!("{here}/submit"), None);
    submit_source(&state, &caller, page, Target::Plain, form).await
}

/// Where a submit form's submission goes.
#[derive(Debug, Clone)]
pub enum Target {
    /// The plain problem (`/problems/{id}`): the API's `POST /api/submissions`.
    Plain,
    /// A contest's problem: the contest service's submit (its rules, rate and clock).
    Contest {
        /// Contest id.
        id: String,
        /// The problem's label.
        label: String,
    },
}

/// Reads a submit form and stores the submission (of `page`'s problem), then goes to its
/// page; a refused form comes back with its source and the reason.
pub async fn submit_source(
    state: &AppState,
    caller: &Caller,
    mut page: ProblemPage,
    target: Target,
    form: Multipart,
) -> WebResult {
    let read = upload::read(form, &state.language_table, state.max_source_bytes).await;
    let refused = |mut page: ProblemPage, status: StatusCode, why: String| {
        page.error = Some(why);
        Ok(render_with(status, &page))
    };
    let sent = match read {
        Ok(f) => f,
        Err(why) => return refused(page, StatusCode::UNPROCESSABLE_ENTITY, why),
    };
    page.languages = languages(state, sent.language.as_deref());
    page.source = sent.source.clone();
    let Some(language) = sent.language else {
        return refused(
            page,
            StatusCode::UNPROCESSABLE_ENTITY,
            "choose a language (it is guessed only from an uploaded file's extension)".into(),
        );
    };
    let stored = match target {
        Target::Plain => {
            let problem = page.problem.id.clone();
            enqueue(state, caller, problem, language, sent.source).await
        }
        Target::Contest { id, label } => {
            let req = ContestSubmitRequest {
                problem: label,
                language,
                source: sent.source,
            };
            submit::submit(state, caller, &id, req).await
        }
    };
    match stored {
        Ok(id) => Ok(see_other(&format!("/submissions/{id}"))),
        Err(e) => {
            let (status, _) = e.status_and_code();
            refused(page, status, e.to_string())
        }
    }
}
