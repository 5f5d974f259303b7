//! `/admin/contests/new` and `/admin/contests/{id}/edit`: the jury makes and edits contests
//! while the judge runs (title, format, timing, times, freeze, problems, participants or
//! groups, languages, rate). The form is turned into a [`ContestDefinition`] and handed to
//! the service the API calls ([`defs`]), so the same checks and history rules apply; every
//! field at fault is shown beside its input. A contest read from a file is shown, not
//! edited: the page says the file wins and names it. `/admin/contests/{id}/delete` deletes
//! one made here that nobody used yet (the API's rule, [`removal`]).

use askama::Template;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::Form;
use serde::Deserialize;

use crate::accounts::{access, Caller};
use crate::contest::definition::{
    ContestDefinition, ProblemDefinition, RateDefinition, TimingDefinition,
};
use crate::contest::FieldError;
use crate::server::services::contests::{defs, removal};
use crate::server::{ApiError, AppState};

use super::page::{allow, render_with, see_other, Nav, Visitor, WebError, WebResult};

#[derive(Template)]
#[template(path = "contest_edit.html")]
struct EditPage {
    nav: Nav,
    /// `None`: a new contest.
    id: Option<String>,
    /// A contest file's path: shown, not edited.
    file: Option<String>,
    form: ContestForm,
    errors: Vec<FieldError>,
    refusal: Option<String>,
    formats: [&'static str; 3],
    kinds: [&'static str; 3],
}

impl EditPage {
    /// The messages of the fields whose key starts with `key`, joined.
    fn err(&self, key: &str) -> String {
        self.errors
            .iter()
            .filter(|e| e.field.starts_with(key))
            .map(|e| {
                if e.field == key {
                    e.message.clone()
                } else {
                    format!("{}: {}", e.field, e.message)
                }
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// The form's fields, as text (what the jury typed comes back on a refusal).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ContestForm {
    #[serde(default)]
    id: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    format: String,
    #[serde(default)]
    timing_kind: String,
    #[serde(default)]
    start: String,
    #[serde(default)]
    duration: String,
    #[serde(default)]
    window_start: String,
    #[serde(default)]
    window_end: String,
    #[serde(default)]
    freeze_minutes: String,
    /// One problem a line: `A sudoku`.
    #[serde(default)]
    problems: String,
    /// Names and `group:NAME` entries, separated by commas, spaces or lines; blank: anyone.
    #[serde(default)]
    participants: String,
    /// Language ids, separated likewise; blank: every language.
    #[serde(default)]
    languages: String,
    #[serde(default)]
    rate_submissions: String,
    #[serde(default)]
    rate_per_minutes: String,
    #[serde(default)]
    public_board: Option<String>,
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

fn opt(text: &str) -> Option<String> {
    let t = text.trim();
    (!t.is_empty()).then(|| t.to_string())
}

fn number(text: &str, field: &str, errors: &mut Vec<FieldError>) -> Option<i64> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    match t.parse() {
        Ok(n) => Some(n),
        Err(_) => {
            errors.push(FieldError::new(
                field,
                format!("{t:?} is not a whole number"),
            ));
            None
        }
    }
}

impl ContestForm {
    fn of(d: &ContestDefinition) -> ContestForm {
        let t = &d.timing;
        ContestForm {
            id: d.id.clone().unwrap_or_default(),
            title: d.title.clone(),
            format: d.format.clone(),
            timing_kind: t.kind.clone(),
            start: t.start.clone().unwrap_or_default(),
            duration: t.duration.clone().unwrap_or_default(),
            window_start: t.window_start.clone().unwrap_or_default(),
            window_end: t.window_end.clone().unwrap_or_default(),
            freeze_minutes: if d.freeze_minutes == 0 {
                String::new()
            } else {
                d.freeze_minutes.to_string()
            },
            problems: d
                .problems
                .iter()
                .map(|p| format!("{} {}", p.label, p.problem))
                .collect::<Vec<_>>()
                .join("\n"),
            participants: d.participants.as_deref().unwrap_or_default().join(", "),
            languages: d.languages.as_deref().unwrap_or_default().join(", "),
            rate_submissions: d.rate.map_or(String::new(), |r| r.submissions.to_string()),
            rate_per_minutes: d.rate.map_or(String::new(), |r| r.per_minutes.to_string()),
            public_board: d.public_board.then(|| "1".to_string()),
        }
    }

    /// The definition the form describes, or the fields the form itself cannot read.
    fn definition(&self) -> Result<ContestDefinition, Vec<FieldError>> {
        let mut errors = Vec::new();
        let freeze = number(&self.freeze_minutes, "freeze_minutes", &mut errors).unwrap_or(0);
        let rate = match (
            number(&self.rate_submissions, "rate.submissions", &mut errors),
            number(&self.rate_per_minutes, "rate.per_minutes", &mut errors),
        ) {
            (None, None) => None,
            (Some(submissions), Some(per_minutes)) => Some(RateDefinition {
                submissions,
                per_minutes,
            }),
            _ => {
                errors.push(FieldError::new(
                    "rate",
                    "give both the submissions and the minutes, or neither",
                ));
                None
            }
        };
        let mut problems = Vec::new();
        for (i, line) in self
            .problems
            .lines()
            .filter(|l| !l.trim().is_empty())
            .enumerate()
        {
            match line.split_whitespace().collect::<Vec<_>>().as_slice() {
                [label, problem] => problems.push(ProblemDefinition {
                    label: label.to_string(),
                    problem: problem.to_string(),
                }),
                _ => errors.push(FieldError::new(
                    &format!("problems[{i}]"),
                    format!(
                        "{:?}: write a label and a problem id, like \"A sudoku\"",
                        line.trim()
                    ),
                )),
            }
        }
        let participants = words(&self.participants);
        let languages = words(&self.languages);
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(ContestDefinition {
            id: opt(&self.id),
            title: self.title.trim().to_string(),
            format: self.format.trim().to_string(),
            timing: TimingDefinition {
                kind: self.timing_kind.trim().to_string(),
                start: opt(&self.start),
                duration: opt(&self.duration),
                window_start: opt(&self.window_start),
                window_end: opt(&self.window_end),
            },
            freeze_minutes: freeze,
            participants: (!participants.is_empty()).then_some(participants),
            rate,
            languages: (!languages.is_empty()).then_some(languages),
            public_board: self.public_board.is_some(),
            problems,
        })
    }
}

fn admin_nav(caller: &Caller, nav: Nav, here: &str) -> WebResult<Nav> {
    allow(access::administer(caller), &nav, here, String::new)?;
    Ok(nav)
}

fn page(
    status: StatusCode,
    nav: Nav,
    id: Option<String>,
    file: Option<String>,
    form: ContestForm,
    errors: Vec<FieldError>,
    refusal: Option<String>,
) -> Response {
    render_with(
        status,
        &EditPage {
            nav,
            id,
            file,
            form,
            errors,
            refusal,
            formats: ["icpc", "ioi", "oi"],
            kinds: ["fixed", "window", "open"],
        },
    )
}

/// The refusal of a save shown on the form: its fields beside their inputs, or its reason.
/// Contest `id`'s form page with its stored origin (a file's path, if any): `form` as sent,
/// else the stored definition, and `why` it was refused.
fn stored_page(
    state: &AppState,
    caller: &Caller,
    nav: Nav,
    id: String,
    form: Option<ContestForm>,
    status: StatusCode,
    why: Option<String>,
) -> WebResult<Response> {
    let view = defs::definition(state, caller, &id).map_err(|e| WebError::api(&nav, e))?;
    let form = form.unwrap_or_else(|| ContestForm::of(&view.definition));
    Ok(page(
        status,
        nav,
        Some(id),
        view.path,
        form,
        Vec::new(),
        why,
    ))
}

fn refused(nav: Nav, id: Option<String>, form: ContestForm, e: ApiError) -> WebResult<Response> {
    let (status, _) = e.status_and_code();
    match e {
        ApiError::InvalidContest(fields) => Ok(page(status, nav, id, None, form, fields, None)),
        ApiError::RewritesHistory(ref fields) => {
            let fields = fields.clone();
            Ok(page(
                status,
                nav,
                id,
                None,
                form,
                fields,
                Some(e.to_string()),
            ))
        }
        ApiError::IdTaken(_) | ApiError::Conflict(_) | ApiError::FileContest(_) => {
            let why = e.to_string();
            Ok(page(status, nav, id, None, form, Vec::new(), Some(why)))
        }
        other => Err(WebError::api(&nav, other)),
    }
}

/// The empty form of a new contest.
pub async fn new(Visitor { caller, nav }: Visitor) -> WebResult<Response> {
    let nav = admin_nav(&caller, nav, "/admin/contests/new")?;
    let form = ContestForm {
        format: "icpc".into(),
        timing_kind: "fixed".into(),
        ..ContestForm::default()
    };
    Ok(page(
        StatusCode::OK,
        nav,
        None,
        None,
        form,
        Vec::new(),
        None,
    ))
}

/// Makes the contest the form describes; to its page when made.
pub async fn create(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Form(form): Form<ContestForm>,
) -> WebResult<Response> {
    let nav = admin_nav(&caller, nav, "/admin/contests/new")?;
    let definition = match form.definition() {
        Ok(d) => d,
        Err(fields) => {
            let status = StatusCode::UNPROCESSABLE_ENTITY;
            return Ok(page(status, nav, None, None, form, fields, None));
        }
    };
    match defs::create(&state, &caller, definition).await {
        Ok(made) => Ok(see_other(&format!("/contests/{}", made.id))),
        Err(e) => refused(nav, None, form, e),
    }
}

/// The form of contest `id`, filled; a file's contest is shown with its path, not editable.
pub async fn edit(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path(id): Path<String>,
) -> WebResult<Response> {
    let here = format!("/admin/contests/{id}/edit");
    let nav = admin_nav(&caller, nav, &here)?;
    stored_page(&state, &caller, nav, id, None, StatusCode::OK, None)
}

/// Saves the edit of contest `id`; to its page when saved.
pub async fn update(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path(id): Path<String>,
    Form(form): Form<ContestForm>,
) -> WebResult<Response> {
    let here = format!("/admin/contests/{id}/edit");
    let nav = admin_nav(&caller, nav, &here)?;
    let mut form = form;
    form.id = id.clone();
    let definition = match form.definition() {
        Ok(d) => d,
        Err(fields) => {
            let status = StatusCode::UNPROCESSABLE_ENTITY;
            return Ok(page(status, nav, Some(id), None, form, fields, None));
        }
    };
    match defs::update(&state, &caller, &id, definition).await {
        Ok(_) => Ok(see_other(&format!("/contests/{id}"))),
        Err(ApiError::FileContest(why)) => {
            let status = StatusCode::CONFLICT;
            stored_page(&state, &caller, nav, id, Some(form), status, Some(why))
        }
        Err(e) => refused(nav, Some(id), form, e),
    }
}

/// Deletes contest `id` (made here, nobody used it yet: no submission); to the admin page
/// when deleted, else back to its form with the reason (it has submissions; a file's).
pub async fn delete(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path(id): Path<String>,
) -> WebResult<Response> {
    let here = format!("/admin/contests/{id}/edit");
    let nav = admin_nav(&caller, nav, &here)?;
    match removal::delete(&state, &caller, &id).await {
        Ok(()) => Ok(see_other("/admin")),
        Err(e @ (ApiError::Conflict(_) | ApiError::Forbidden(_))) => {
            let (status, _) = e.status_and_code();
            let why = Some(e.to_string());
            stored_page(&state, &caller, nav, id, None, status, why)
        }
        Err(e) => Err(WebError::api(&nav, e)),
    }
}
