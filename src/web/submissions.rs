//! `GET /submissions` (mine; everyone's with filters for admins), `GET /submissions/{id}`
//! (verdict, score, tests, compile log, source; live while judging), the raw source, and
//! `POST /submissions/{id}/rejudge`. Who sees what is [`access`]'s; what a view shows of
//! secret tests and of an `oi` contest before its end is [`submissions::shown_to`]'s, exactly as in the API.

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::accounts::{access, Caller, SubmissionScope};
use crate::judge::Verdict;
use crate::server::feedback::is_sample;
use crate::server::services::contests::hiding::problem_visible;
use crate::server::services::submissions::{self, requeue, ListFilter, Status, Submission};
use crate::server::AppState;

use super::page::{allow, fmt, refusal, render, see_other, Nav, Visitor, WebError, WebResult};

/// Rows per page of the list.
const PAGE_ROWS: u32 = 50;
/// Source shown on the page at most (the rest through `/submissions/{id}/source`), so a
/// page stays under 100 KB.
const SHOWN_SOURCE_BYTES: usize = 48 * 1024;
/// Compile log shown at most.
const SHOWN_LOG_BYTES: usize = 16 * 1024;
/// A sample's input or answer shown at most.
const SHOWN_SAMPLE_BYTES: usize = 4 * 1024;

/// A submission as the pages show it.
#[derive(Debug, Clone)]
pub struct Row {
    /// Id.
    pub id: i64,
    /// When it was stored.
    pub when: String,
    /// Owner's name, or `-` for open-mode work.
    pub user: String,
    /// Problem id.
    pub problem: String,
    /// The contest and the problem's label in it (`practice D`), or empty.
    pub contest: String,
    /// The problem's label in its contest, or empty.
    pub label: String,
    /// Language id.
    pub language: String,
    /// Verdict, or the status while judging.
    pub result: String,
    /// CSS class of the result.
    pub class: String,
    /// Score, or empty.
    pub score: String,
    /// CPU time.
    pub time: String,
    /// Memory.
    pub memory: String,
}

/// One page of a submissions list as rows, and the link to the next older page with the
/// list's own filters kept: the submissions list and a contest's share it.
pub(super) fn page_rows(
    found: &[Submission],
    path: &str,
    filters: [(&str, &str); 3],
) -> (Vec<Row>, Option<String>) {
    let rows: Vec<Row> = found.iter().map(Row::of).collect();
    let older = (rows.len() == PAGE_ROWS as usize)
        .then(|| rows.last().map(|r| r.id))
        .flatten()
        .map(|before| {
            let before = before.to_string();
            let mut pairs = filters.to_vec();
            pairs.push(("before", &before));
            let q = serde_urlencoded::to_string(pairs).unwrap_or_default();
            format!("{path}?{q}")
        });
    (rows, older)
}

impl Row {
    /// The row of a (redacted) submission.
    pub fn of(s: &Submission) -> Row {
        let (result, class) = match (s.status, s.verdict) {
            (Status::Done, _) if s.results_hidden => ("judged".to_string(), "judged".to_string()),
            (Status::Done, Some(v)) => (v.as_str().to_string(), v.as_str().to_ascii_lowercase()),
            (Status::Cancelled, _) => ("cancelled".to_string(), "judged".to_string()),
            (status, _) => (status.as_str().to_string(), "pending".to_string()),
        };
        Row {
            id: s.id,
            when: fmt::when(&s.created_at),
            user: s.user.clone().unwrap_or_else(|| "-".into()),
            problem: s.problem.clone(),
            contest: match (&s.contest, &s.label) {
                (Some(c), Some(l)) => format!("{c} {l}"),
                (Some(c), None) => c.clone(),
                _ => String::new(),
            },
            label: s.label.clone().unwrap_or_default(),
            language: s.language.clone(),
            result,
            class,
            score: s.score.map(|n| n.to_string()).unwrap_or_default(),
            time: s.time_ms.map(fmt::millis).unwrap_or_default(),
            memory: s.memory_kib.map(fmt::kib).unwrap_or_default(),
        }
    }
}

/// The list's filters (admins: user, problem, verdict; contestants: problem, verdict).
#[derive(Debug, Default, Deserialize)]
pub struct Filters {
    #[serde(default)]
    user: String,
    #[serde(default)]
    problem: String,
    #[serde(default)]
    verdict: String,
    before: Option<i64>,
}

#[derive(Template)]
#[template(path = "submissions.html")]
struct ListPage {
    nav: Nav,
    all: bool,
    filter: Filters,
    problems: Vec<(String, bool)>,
    verdicts: Vec<(&'static str, bool)>,
    rows: Vec<Row>,
    pending: bool,
    older: Option<String>,
    clocks: Vec<super::clock::ClockBar>,
}

/// The submissions the caller may list, newest first.
pub async fn list(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Query(filter): Query<Filters>,
) -> WebResult {
    let scope = access::list_submissions(&caller)
        .map_err(|d| refusal(d, &nav, "/submissions", String::new))?;
    let (owner, all) = match scope {
        SubmissionScope::All => (None, true),
        SubmissionScope::Owner(id) => (Some(id), false),
    };
    let verdict = match filter.verdict.as_str() {
        "" => None,
        v => Some(Verdict::parse(v).map_err(|e| {
            WebError::page(
                &nav,
                axum::http::StatusCode::BAD_REQUEST,
                "Bad filter",
                e.to_string(),
            )
        })?),
    };
    let wanted = ListFilter {
        problem: Some(filter.problem.clone()).filter(|p| !p.is_empty()),
        user: Some(filter.user.clone()).filter(|u| all && !u.is_empty()),
        verdict,
        contest: None,
    };
    let found =
        submissions::list_filtered(&state, &caller, owner, &wanted, PAGE_ROWS, filter.before)
            .await
            .map_err(|e| WebError::api(&nav, e))?;
    let (rows, older) = page_rows(
        &found,
        "/submissions",
        [
            ("user", filter.user.as_str()),
            ("problem", filter.problem.as_str()),
            ("verdict", filter.verdict.as_str()),
        ],
    );
    let clocks = super::clock::ClockBar::running(&state, &caller).await;
    Ok(render(&ListPage {
        clocks,
        nav,
        all,
        pending: rows.iter().any(|r| r.class == "pending"),
        // Only the problems the caller may see: a problem of an unopened contest is not
        // named here either.
        problems: state
            .problems
            .keys()
            .iter()
            .filter(|p| problem_visible(&state, &caller, p))
            .map(|p| (p.clone(), *p == filter.problem))
            .collect(),
        verdicts: Verdict::ALL
            .iter()
            .map(|v| (v.as_str(), v.as_str() == filter.verdict))
            .collect(),
        filter,
        rows,
        older,
    }))
}

/// A test's row on the submission page.
#[derive(Debug, Clone)]
struct TestRow {
    name: String,
    verdict: String,
    class: String,
    time: String,
    memory: String,
    message: String,
    /// A run-time error's stderr tail, when this reader may see it (the jury always; a
    /// contestant on samples only: `feedback::redact`).
    stderr: Option<String>,
    /// The output validator's `teammessage.txt`: meant for the contestant, shown on every test.
    team: Option<String>,
    sample: Option<SampleData>,
}

/// A scoring problem's group on the submission page: its name and score (a contestant sees
/// these, while the tests inside a secret group are numbers).
#[derive(Debug, Clone)]
struct GroupRow {
    name: String,
    verdict: String,
    class: String,
    score: String,
}

impl GroupRow {
    fn of(g: &crate::judge::GroupResult) -> GroupRow {
        let verdict = g.verdict.map_or("not run", |v| v.as_str());
        GroupRow {
            name: g.name.clone(),
            verdict: verdict.to_string(),
            class: g
                .verdict
                .map_or("pending".to_string(), |v| v.as_str().to_ascii_lowercase()),
            score: match g.max {
                Some(max) => format!("{} / {}", g.score.shown(), max.shown()),
                None => g.score.shown(),
            },
        }
    }
}

/// A sample test's input and answer (public data).
#[derive(Debug, Clone)]
struct SampleData {
    input: String,
    answer: String,
}

#[derive(Template)]
#[template(path = "submission.html")]
struct DetailPage {
    nav: Nav,
    s: Row,
    problem_href: Option<String>,
    pending: bool,
    message: Option<String>,
    can_rejudge: bool,
    /// A scoring problem's groups (`data/` itself left out: its score is the submission's).
    groups: Vec<GroupRow>,
    tests: Vec<TestRow>,
    compile_log: Option<String>,
    source: String,
    truncated: bool,
    /// The contest's id and title (linked), when submitted to one.
    contest: Option<(String, String)>,
    /// The language's name as the config gives it (`C17 (gcc, GNU C17)`), else its id.
    language_name: String,
}

fn no_submission(id: &str) -> String {
    format!("no submission {id}")
}

/// A submission the caller may read (another's is a 404 worded like a missing one).
async fn readable(state: &AppState, caller: &Caller, nav: &Nav, id: &str) -> WebResult<Submission> {
    let here = format!("/submissions/{id}");
    let found = submissions::find(state, id)
        .await
        .map_err(|e| WebError::api(nav, e))?;
    let Some(s) = found else {
        allow(access::read_submission(caller, None), nav, &here, || {
            no_submission(id)
        })?;
        return Err(WebError::not_found(nav, no_submission(id)));
    };
    allow(access::read_submission(caller, s.owner), nav, &here, || {
        no_submission(id)
    })?;
    Ok(submissions::shown_to(state, caller, s))
}

/// The first `max` bytes of `text` (on a character boundary), and whether it was cut.
pub fn clip(text: &str, max: usize) -> (String, bool) {
    if text.len() <= max {
        return (text.to_string(), false);
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (text[..end].to_string(), true)
}

async fn sample_data(state: &AppState, problem: &str, test: &str) -> Option<SampleData> {
    let package = state.problems.get(problem)?;
    let case = package.tests.iter().find(|t| t.name == test)?;
    let read = |p: std::path::PathBuf| async move {
        let bytes = tokio::fs::read(&p).await.ok()?;
        let text = String::from_utf8_lossy(&bytes);
        let (shown, cut) = clip(&text, SHOWN_SAMPLE_BYTES);
        Some(if cut { shown + "\n..." } else { shown })
    };
    Some(SampleData {
        input: read(case.input.clone()).await?,
        answer: read(case.answer.clone()).await?,
    })
}

/// One submission's page.
pub async fn show(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path(id): Path<String>,
) -> WebResult {
    let s = readable(&state, &caller, &nav, &id).await?;
    let mut tests = Vec::with_capacity(s.tests.len());
    for t in &s.tests {
        let sample = if is_sample(&t.name) {
            sample_data(&state, &s.problem, &t.name).await
        } else {
            None
        };
        tests.push(TestRow {
            name: t.name.clone(),
            verdict: t.verdict.as_str().to_string(),
            class: t.verdict.as_str().to_ascii_lowercase(),
            time: fmt::millis(t.time_ms),
            memory: fmt::kib(t.memory_kib),
            message: t.message.clone().unwrap_or_default(),
            stderr: t.stderr_tail.clone(),
            team: t.team_message.clone(),
            sample,
        });
    }
    let (source, truncated) = clip(s.source.as_deref().unwrap_or(""), SHOWN_SOURCE_BYTES);
    let compile_log = s
        .compile
        .as_ref()
        .filter(|c| !c.log.trim().is_empty())
        .map(|c| clip(&c.log, SHOWN_LOG_BYTES).0);
    let contest = s.contest.as_ref().map(|c| {
        let title = state
            .contests
            .get(c)
            .map_or_else(|| c.clone(), |k| k.title.clone());
        (c.clone(), title)
    });
    let language_name = state
        .language_table
        .iter()
        .find(|l| l.id == s.language)
        .map_or_else(|| s.language.clone(), |l| l.name.clone());
    Ok(render(&DetailPage {
        contest,
        language_name,
        can_rejudge: access::rejudge(&caller, s.owner) == crate::accounts::Decision::Allow,
        problem_href: match (&s.contest, &s.label) {
            (Some(c), Some(l)) => Some(format!("/contests/{c}/problems/{l}")),
            _ => state
                .problems
                .contains_key(&s.problem)
                .then(|| format!("/problems/{}", s.problem)),
        },
        pending: !s.status.is_final(),
        message: s.message.clone(),
        s: Row::of(&s),
        nav,
        groups: s
            .groups
            .iter()
            .filter(|g| !g.name.is_empty())
            .map(GroupRow::of)
            .collect(),
        tests,
        compile_log,
        source,
        truncated,
    }))
}

/// The whole source as plain text (same rule as the page).
pub async fn source(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path(id): Path<String>,
) -> WebResult {
    let s = readable(&state, &caller, &nav, &id).await?;
    Ok((
        [
            (CONTENT_TYPE, "text/plain; charset=utf-8"),
            (axum::http::header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        s.source.unwrap_or_default(),
    )
        .into_response())
}

/// Rejudges a submission (admins), then shows it.
pub async fn rejudge(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    Path(id): Path<String>,
) -> WebResult<Response> {
    let here = format!("/submissions/{id}");
    let owner = submissions::owner(&state, &id)
        .await
        .map_err(|e| WebError::api(&nav, e))?;
    let Some((n, owner)) = owner else {
        allow(access::rejudge(&caller, None), &nav, &here, || {
            no_submission(&id)
        })?;
        return Err(WebError::not_found(&nav, no_submission(&id)));
    };
    allow(access::rejudge(&caller, owner), &nav, &here, || {
        no_submission(&id)
    })?;
    requeue(&state, n)
        .await
        .map_err(|e| WebError::api(&nav, e))?;
    Ok(see_other(&here))
}
