//! `/contests`, `/contests/{id}` (clock, Start, problems, announcements, questions and the
//! ask/answer/announce forms, unfreeze), `/contests/{id}/problems/{label}` and its submit
//! form. Every rule and every write is a contest service's (`server::services::contests`), the same
//! functions the JSON API calls; this file only lays their answers out.

use askama::Template;
use axum::extract::{Multipart, Path, Query, State};
use axum::Form;
use serde::Deserialize;

use crate::accounts::{access, Caller, Decision};
use crate::server::services::contests::board;
use crate::server::services::contests::clarify::{
    self, AnswerRequest, ClarificationPage, ClarificationRequest,
};
use crate::server::services::contests::outside;
use crate::server::services::contests::view::{self, db_time, ContestView};
use crate::server::{ApiError, AppState};

use super::clock::ClockBar;
use super::notices::NoticeBar;
use super::page::{fmt, render, see_other, Nav, Visitor, WebError, WebResult};
use super::problems::{submit_source, ContestCrumb, ProblemPage, Target};

/// A contest in the list, with the caller's clock in words.
struct ListRow {
    id: String,
    title: String,
    format: &'static str,
    timing: &'static str,
    start: String,
    end: String,
    clock: String,
}

#[derive(Template)]
#[template(path = "contests.html")]
struct ListPage {
    nav: Nav,
    contests: Vec<ListRow>,
}

/// `h:mm:ss` of a number of seconds.
fn hms(secs: i64) -> String {
    let s = secs.max(0);
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// The caller's clock in words, and the seconds a ticking countdown shows (if any).
fn clock_words(v: &ContestView) -> (String, Option<i64>) {
    let you = &v.you;
    match you.phase {
        "not_started" => ("Starts in".into(), you.starts_in_s),
        "ready" => (
            "The window is open: start your timer when you are ready.".into(),
            None,
        ),
        "running" => match you.remaining_s {
            Some(r) => ("Running; time left".into(), Some(r)),
            None => ("Open: no clock, always running.".into(), None),
        },
        _ => ("Over.".into(), None),
    }
}

fn page_error(nav: &Nav, e: ApiError) -> WebError {
    match e {
        ApiError::Unauthenticated(_) => WebError::SignIn {
            next: "/contests".into(),
        },
        e => WebError::api(nav, e),
    }
}

/// Every contest with the caller's clock (an anonymous visitor: the front page, which lists
/// the contests for anyone).
pub async fn list(State(state): State<AppState>, Visitor { caller, nav }: Visitor) -> WebResult {
    if access::read_contest(&caller) == Decision::Unauthenticated {
        return Ok(see_other("/"));
    }
    let summaries = view::list(&state, &caller).map_err(|e| page_error(&nav, e))?;
    let mut contests = Vec::with_capacity(summaries.len());
    for s in summaries {
        let v = view::get(&state, &caller, &s.id)
            .await
            .map_err(|e| page_error(&nav, e))?;
        let (words, secs) = clock_words(&v);
        contests.push(ListRow {
            clock: match secs {
                Some(n) => format!("{words} {}", hms(n)),
                None => words,
            },
            id: s.id,
            title: s.title,
            format: s.format.as_str(),
            timing: s.timing,
            start: s.start.as_deref().map(fmt::when).unwrap_or_default(),
            end: s.end.as_deref().map(fmt::when).unwrap_or_default(),
        });
    }
    Ok(render(&ListPage { nav, contests }))
}

/// A problem of the contest page.
struct ProblemRow {
    label: String,
    title: String,
    time: String,
    memory: String,
}

/// A clarification as the page shows it.
struct ClarRow {
    id: i64,
    when: String,
    author: String,
    problem: String,
    question: String,
    answer: String,
}

#[derive(Template)]
#[template(path = "contest.html")]
struct ContestPage {
    nav: Nav,
    id: String,
    title: String,
    format: &'static str,
    timing: &'static str,
    window: String,
    clock: String,
    countdown: Option<i64>,
    countdown_text: String,
    can_start: bool,
    start_label: &'static str,
    jury: bool,
    can_unfreeze: bool,
    freeze_note: Option<String>,
    problems: Vec<ProblemRow>,
    problems_note: String,
    labels: Vec<String>,
    announcements: Vec<ClarRow>,
    questions: Vec<ClarRow>,
    can_ask: bool,
    max_chars: usize,
    older: Option<String>,
    error: Option<String>,
    notices: Option<NoticeBar>,
}

/// Clarifications per page of the contest page (newest first).
const CLARIFICATIONS_PER_PAGE: u32 = 50;

/// The contest page's query: the page of clarifications (ids below `before`).
#[derive(Debug, Default, Deserialize)]
pub struct ContestQuery {
    before: Option<i64>,
}

/// The contest page (with an error from a form, when one was refused).
async fn contest_page(
    state: &AppState,
    caller: &Caller,
    nav: Nav,
    id: &str,
    before: Option<i64>,
    error: Option<String>,
) -> WebResult {
    let v = view::get(state, caller, id)
        .await
        .map_err(|e| page_error(&nav, e))?;
    let c = state
        .contests
        .get(id)
        .ok_or_else(|| WebError::not_found(&nav, format!("no contest {id:?}")))?;
    let c = &*c;
    let jury = access::contest_jury(caller) == Decision::Allow;
    let (clock, countdown) = clock_words(&v);
    let freezes_at = crate::contest::freeze_begins(c);
    let now = state.contests.now();
    let page = ClarificationPage {
        after: None,
        before,
        limit: CLARIFICATIONS_PER_PAGE,
        newest_first: true,
    };
    let clarifications = clarify::list(state, caller, id, page)
        .await
        .map_err(|e| page_error(&nav, e))?;
    let older = (clarifications.len() == CLARIFICATIONS_PER_PAGE as usize)
        .then(|| clarifications.last().map(|k| k.id))
        .flatten()
        .map(|last| format!("/contests/{id}?before={last}"));
    let (announcements, questions): (Vec<_>, Vec<_>) = clarifications
        .into_iter()
        .map(|k| {
            let public = k.public;
            let row = ClarRow {
                id: k.id,
                when: fmt::when(&k.created_at),
                author: k.author.unwrap_or_default(),
                problem: k.problem.unwrap_or_default(),
                question: k.question.unwrap_or_default(),
                answer: k.answer.unwrap_or_default(),
            };
            (public, row)
        })
        .partition(|(announce, _)| *announce);
    let window = match (&v.summary.start, &v.summary.end) {
        (Some(s), Some(e)) => format!("{} to {} UTC", fmt::when(s), fmt::when(e)),
        _ => String::new(),
    };
    let problems_note = if v.problems_visible {
        "No problems.".to_string()
    } else {
        match v.you.phase {
            "ready" => "The problems are shown once you start your timer.".to_string(),
            _ => "The problems are shown when the contest starts.".to_string(),
        }
    };
    let may_start = !jury
        && v.you.participant
        && (v.you.phase == "ready" || (v.you.phase == "running" && !v.you.started));
    Ok(render(&ContestPage {
        id: id.to_string(),
        title: v.summary.title.clone(),
        format: v.summary.format.as_str(),
        timing: v.summary.timing,
        window,
        clock,
        countdown_text: countdown.map(hms).unwrap_or_default(),
        countdown,
        can_start: may_start,
        start_label: if v.summary.timing == "window" {
            "Start my timer"
        } else {
            "Take part"
        },
        jury,
        // The jury unfreezes only once the freeze has begun (the service refuses earlier).
        can_unfreeze: jury && freezes_at.is_some_and(|t| now >= t) && !v.unfrozen,
        freeze_note: freezes_at
            .filter(|t| jury && now < *t)
            .map(|t| format!("The board freezes at {} UTC.", fmt::when(&db_time(t)))),
        // A question names a problem only once the caller may see them (else the service
        // refuses it, the same for every name).
        labels: if v.problems_visible {
            c.problems.iter().map(|p| p.label.to_string()).collect()
        } else {
            Vec::new()
        },
        problems: v
            .problems
            .iter()
            .map(|p| ProblemRow {
                label: p.label.clone(),
                title: p.title.clone(),
                time: fmt::millis(p.time_limit_ms),
                memory: format!("{} MiB", p.memory_limit_mb),
            })
            .collect(),
        problems_note,
        announcements: announcements.into_iter().map(|(_, r)| r).collect(),
        questions: questions.into_iter().map(|(_, r)| r).collect(),
        can_ask: jury || (v.you.participant && matches!(caller, Caller::User(_))),
        max_chars: state.max_question_chars,
        older,
        error,
        notices: NoticeBar::of(state, caller, id),
        nav,
    }))
}

/// `/contests/{id}`.
pub async fn show(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path(id): Path<String>,
    Query(q): Query<ContestQuery>,
) -> WebResult {
    // A spectator may read a public board, not the contest page: the board it is.
    if access::read_contest(&caller) == Decision::Unauthenticated
        && state.contests.get(&id).is_some_and(|c| c.public_board)
    {
        return Ok(see_other(&format!("/contests/{id}/scoreboard")));
    }
    contest_page(&state, &caller, nav, &id, q.before, None).await
}

/// A refused contest form: the page again with the reason, in the refusal's status.
async fn refused(state: &AppState, caller: &Caller, nav: Nav, id: &str, e: ApiError) -> WebResult {
    if let ApiError::Unauthenticated(_) = e {
        return Err(WebError::SignIn {
            next: format!("/contests/{id}"),
        });
    }
    let (status, _) = e.status_and_code();
    let mut page = contest_page(state, caller, nav, id, None, Some(e.to_string())).await?;
    *page.status_mut() = status;
    Ok(page)
}

/// Start (window timing) or take part: the contest service's start.
pub async fn start(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path(id): Path<String>,
) -> WebResult {
    match view::start(&state, &caller, &id).await {
        Ok(_) => Ok(see_other(&format!("/contests/{id}"))),
        Err(e) => refused(&state, &caller, nav, &id, e).await,
    }
}

/// The unfreeze form: its confirmation box.
#[derive(Debug, Deserialize)]
pub struct UnfreezeForm {
    confirm: Option<String>,
}

/// The jury unfreezes the board, once it confirmed (the box ticked): an unfreeze publishes
/// every result the freeze hid, to everyone.
pub async fn unfreeze(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path(id): Path<String>,
    Form(f): Form<UnfreezeForm>,
) -> WebResult {
    if f.confirm.is_none() && access::contest_jury(&caller) == Decision::Allow {
        let why = "tick the box to confirm: an unfreeze publishes every result the freeze hid";
        return refused(&state, &caller, nav, &id, ApiError::Invalid(why.into())).await;
    }
    match board::unfreeze(&state, &caller, &id).await {
        Ok(()) => Ok(see_other(&format!("/contests/{id}/scoreboard"))),
        Err(e) => refused(&state, &caller, nav, &id, e).await,
    }
}

/// The ask/announce form.
#[derive(Debug, Deserialize)]
pub struct AskForm {
    #[serde(default)]
    problem: String,
    text: String,
}

/// A contestant asks, the jury announces: the clarification service's post.
pub async fn ask(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path(id): Path<String>,
    Form(f): Form<AskForm>,
) -> WebResult {
    let req = ClarificationRequest {
        text: f.text,
        problem: Some(f.problem).filter(|p| !p.is_empty()),
    };
    match clarify::post(&state, &caller, &id, req).await {
        Ok(_) => Ok(see_other(&format!("/contests/{id}"))),
        Err(e) => refused(&state, &caller, nav, &id, e).await,
    }
}

/// The jury's answer form.
#[derive(Debug, Deserialize)]
pub struct AnswerForm {
    answer: String,
    public: Option<String>,
}

/// The jury answers a question, privately or to everyone.
pub async fn answer(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path((id, clarification)): Path<(String, String)>,
    Form(f): Form<AnswerForm>,
) -> WebResult {
    let req = AnswerRequest {
        answer: f.answer,
        public: f.public.is_some(),
    };
    match clarify::answer(&state, &caller, &id, &clarification, req).await {
        Ok(()) => Ok(see_other(&format!("/contests/{id}"))),
        Err(e) => refused(&state, &caller, nav, &id, e).await,
    }
}

/// The problem page of a contest problem: the service's visibility rule, the caller's clock
/// deciding whether the form shows.
async fn problem_page(
    state: &AppState,
    caller: &Caller,
    nav: Nav,
    id: &str,
    label: &str,
) -> WebResult<ProblemPage> {
    let p = view::problem(state, caller, id, label)
        .await
        .map_err(|e| page_error(&nav, e))?;
    let v = view::get(state, caller, id)
        .await
        .map_err(|e| page_error(&nav, e))?;
    let mut closed = (!v.you.may_submit).then(|| match v.you.phase {
        "over" => "The contest is over for you: submitting is closed.".to_string(),
        "ready" => "Start your timer on the contest's page to submit.".to_string(),
        _ => match v.you.submit_refusal {
            // The API's own reason (in open mode: contests need accounts).
            Some(why) => format!("You cannot submit here: {why}."),
            None => "Submitting is not open to you now.".to_string(),
        },
    });
    if closed.is_none() {
        // Another contest holding the problem for the caller (the same rule as the submit).
        if let Err(e @ ApiError::InContest { .. }) =
            outside::check(state, caller, &p.id, Some(id)).await
        {
            closed = Some(e.to_string());
        }
    }
    let crumb = ContestCrumb {
        id: id.to_string(),
        title: v.summary.title.clone(),
        label: label.to_string(),
        clock: ClockBar::of(state, caller, id).await,
    };
    let action = format!("/contests/{id}/problems/{label}/submit");
    Ok(ProblemPage::new(
        state,
        nav,
        &p,
        Some(crumb),
        action,
        closed,
    ))
}

/// `/contests/{id}/problems/{label}`.
pub async fn problem(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path((id, label)): Path<(String, String)>,
) -> WebResult {
    Ok(render(
        &problem_page(&state, &caller, nav, &id, &label).await?,
    ))
}

/// The submit form of a contest problem: the contest service's submit (its 403 reasons and
/// 429 shown on the page).
pub async fn submit(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path((id, label)): Path<(String, String)>,
    form: Multipart,
) -> WebResult {
    let page = problem_page(&state, &caller, nav, &id, &label).await?;
    let target = Target::Contest {
        id: id.clone(),
        label: label.clone(),
    };
    submit_source(&state, &caller, page, target, form).await
}
