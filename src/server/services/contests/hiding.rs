//! What the contests hide on the plain endpoints: a problem every one of whose contests has
//! not opened yet (`GET /api/problems`, statements, plain submissions), and the results of an
//! `oi` contest's submissions until its end (`GET /api/submissions[/{id}]`). The rules are
//! [`access::see_problem`] and [`access::contest_results_hidden`]; the secret-test redaction
//! stays [`crate::server::feedback::redact`]'s.

use crate::accounts::access;
use crate::accounts::Caller;
use crate::config::Feedback;
use crate::store::Submission;

use crate::server::feedback::redact;
use crate::server::state::AppState;

use super::{ended, problems_public};

/// Whether `caller` may see problem `id` outside contests: a problem in no contest always;
/// one in contests once at least one of them shows its problems to everyone (open timing,
/// fixed after its start, window after its end); the jury always.
pub fn problem_visible(state: &AppState, caller: &Caller, id: &str) -> bool {
    let now = state.contests.now();
    let mut in_contests = false;
    let mut shown_by_one = false;
    for c in state.contests.all().iter() {
        if c.problems.iter().any(|p| p.problem == id) {
            in_contests = true;
            shown_by_one |= problems_public(c, now);
        }
    }
    access::see_problem(caller, in_contests, shown_by_one)
}

/// `submission` as `caller` may see it: secret tests as `view` allows, and nothing of the
/// results of an `oi` contest's submission before the end (status only: "judged").
pub fn shown(state: &AppState, caller: &Caller, view: Feedback, s: Submission) -> Submission {
    let mut s = redact(view, s);
    let hidden = s
        .contest
        .as_deref()
        .and_then(|id| state.contests.get(id))
        .is_some_and(|c| {
            access::contest_results_hidden(caller, c.format, ended(&c, state.contests.now()))
        });
    if hidden {
        s.results_hidden = true;
        s.verdict = None;
        s.score = None;
        s.time_ms = None;
        s.memory_kib = None;
        s.compile = None;
        s.message = None;
        s.tests.clear();
        s.groups.clear();
    }
    s
}
