//! **The access rules, in one place.** Every HTTP handler (and, later, the web pages and the
//! contests) asks these functions what a caller may do; none decides on its own. The rules are
//! pure functions of a [`Caller`] and the facts of the resource (a submission's owner), so they
//! are tested here without a database or a server.
//!
//! | action | open mode | anonymous | contestant | admin |
//! |---|---|---|---|---|
//! | health: `ok` and `version` | yes | yes | yes | yes |
//! | health: every field (queue, sandbox, node, nodes, data hashes; also the `[metrics] token`) | yes | - | - | yes |
//! | problems, statements, login, OpenAPI (never asked: public) | yes | yes | yes | yes |
//! | submit, custom run | yes | 401 | yes (runs count against the user's rate) | yes |
//! | list submissions | all | 401 | own only | all |
//! | read a submission | yes | 401 | own; another's is 404 | yes |
//! | rejudge | yes | 401 | own 403, another's 404 | yes |
//! | `/api/me`, logout | open-mode answer | 401 | yes | yes |
//! | `/metrics` (also: anyone sending the `[metrics] token`) | yes | 401 | 403 | yes |
//! | administer: users (add, import, disable), the admin page | yes | 401 | 403 | yes |
//! | feedback on secret tests | the config's | - | verdict, time, memory | full |
//! | contests: list, read, scoreboard, clarifications | yes (as admin) | 401 | yes | yes |
//! | a contest's problems, a problem only in unopened contests | yes | hidden | once their time runs | yes |
//! | submit to a contest, start a timer | 403 `no_account` | 401 | when admitted and running (403 with the reason) | any time (jury: not on the board) |
//! | oi verdicts and scores before the end | yes | - | hidden ("judged") | yes |
//! | scoreboard | the admin's | 401 | frozen/hidden as the format says | whole |
//! | scoreboard CSV, unfreeze, contest rejudge, answer, announce | yes | 401 | 403 | yes |
//! | ask a question | 403 `no_account` | 401 | when admitted | - (admins announce) |
//! | submit a problem outside a contest that holds it for the caller | yes | 401 | 403 `in_contest` | yes (jury) |

use super::{Role, UserName};
use crate::contest::{Audience, Format, Phase};

/// A signed-in user as the rules see them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// The user's id in the store.
    pub id: i64,
    /// The user's name.
    pub name: UserName,
    /// The name shown to people.
    pub display_name: String,
    /// What the user may do.
    pub role: Role,
}

/// Who is asking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Caller {
    /// The open single-user mode: no accounts exist, the daemon listens on loopback only and
    /// `[accounts] auth` is `"auto"`; every caller is the host, as before accounts existed.
    Open,
    /// No valid credentials while accounts are in force.
    Anonymous,
    /// A user with a valid token.
    User(Identity),
}

/// The answer to "may this caller do this?", each refusal with its HTTP status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Go ahead.
    Allow,
    /// Sign in first (401).
    Unauthenticated,
    /// Signed in, but not allowed (403).
    Forbidden,
    /// Not allowed, and not told the thing exists (404, so ids reveal nothing).
    Hidden,
}

/// Which submissions a caller may list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubmissionScope {
    /// Everyone's.
    All,
    /// Only those owned by this user id.
    Owner(i64),
}

/// How much of a judgement a caller sees for secret tests (the type lives with the
/// `[server] feedback` setting it is read from).
pub use crate::config::{AuthMode, Feedback};

impl Caller {
    /// The user's id, when the caller is a user.
    pub fn user_id(&self) -> Option<i64> {
        match self {
            Caller::User(u) => Some(u.id),
            _ => None,
        }
    }

    fn is_admin(&self) -> bool {
        matches!(self, Caller::User(u) if u.role == Role::Admin)
    }
}

/// Whether requests without credentials are the open mode's host.
pub fn open_mode(auth: AuthMode, users_exist: bool) -> bool {
    auth == AuthMode::Auto && !users_exist
}

/// Whether `serve` may start: open mode is for loopback addresses only. `Err` says how to fix.
pub fn check_listen(auth: AuthMode, users_exist: bool, loopback: bool) -> Result<(), String> {
    if loopback || !open_mode(auth, users_exist) {
        return Ok(());
    }
    Err(
        "refusing to serve a non-loopback address in open mode (no accounts: anyone who can \
         reach it could read every submission). Create an admin first with \
         `sudojudge user add NAME --admin` (same --config/--database), or set \
         `[accounts] auth = \"required\"`, or listen on 127.0.0.1"
            .to_string(),
    )
}

/// Submitting to a problem.
pub fn submit(caller: &Caller) -> Decision {
    signed_in(caller)
}

/// Starting a custom run (`POST /api/runs`).
pub fn create_run(caller: &Caller) -> Decision {
    signed_in(caller)
}

/// Whose rate a custom run counts against: the user's; `None` in open mode (not limited).
pub fn run_rate_key(caller: &Caller) -> Option<i64> {
    caller.user_id()
}

/// Which submissions a caller may list.
pub fn list_submissions(caller: &Caller) -> Result<SubmissionScope, Decision> {
    match caller {
        Caller::Open => Ok(SubmissionScope::All),
        Caller::Anonymous => Err(Decision::Unauthenticated),
        Caller::User(u) if u.role == Role::Admin => Ok(SubmissionScope::All),
        Caller::User(u) => Ok(SubmissionScope::Owner(u.id)),
    }
}

/// Reading one submission (source and results) owned by `owner` (`None`: open-mode work).
pub fn read_submission(caller: &Caller, owner: Option<i64>) -> Decision {
    match caller {
        Caller::Open => Decision::Allow,
        Caller::Anonymous => Decision::Unauthenticated,
        c if c.is_admin() => Decision::Allow,
        c if owner.is_some() && owner == c.user_id() => Decision::Allow,
        _ => Decision::Hidden,
    }
}

/// Rejudging a submission owned by `owner`: hosts only.
pub fn rejudge(caller: &Caller, owner: Option<i64>) -> Decision {
    match read_submission(caller, owner) {
        Decision::Allow if matches!(caller, Caller::Open) || caller.is_admin() => Decision::Allow,
        Decision::Allow => Decision::Forbidden,
        refused => refused,
    }
}

/// Reading `GET /metrics`: the open mode's host, an admin, or a scraper presenting the
/// `[metrics] token` (`token_ok`; Prometheus holds no account). Counts by problem, verdict
/// and route are the host's business, not a contestant's.
pub fn read_metrics(caller: &Caller, token_ok: bool) -> Decision {
    match caller {
        _ if token_ok => Decision::Allow,
        Caller::Open => Decision::Allow,
        Caller::Anonymous => Decision::Unauthenticated,
        c if c.is_admin() => Decision::Allow,
        Caller::User(_) => Decision::Forbidden,
    }
}

/// What `GET /api/health` shows a caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HealthView {
    /// `ok` and `version` only: whether the judge is up, and which.
    Public,
    /// Every field: queue depth, workers, the sandbox profile, the node's name, the nodes on
    /// the database and each problem's data hash (the host's tools and tests read them).
    Full,
}

/// What `GET /api/health` shows: everything to the host (the open mode's caller, an admin,
/// or a scraper presenting the `[metrics] token`, `token_ok`); `ok` and the version to anyone
/// else (the host's name, its queue, its sandbox and its packages' hashes are no stranger's
/// business, nor a contestant's).
pub fn read_health(caller: &Caller, token_ok: bool) -> HealthView {
    match caller {
        _ if token_ok => HealthView::Full,
        Caller::Open => HealthView::Full,
        c if c.is_admin() => HealthView::Full,
        _ => HealthView::Public,
    }
}

/// The host's work: managing users, the admin page. The open mode's caller is the host.
pub fn administer(caller: &Caller) -> Decision {
    match caller {
        Caller::Open => Decision::Allow,
        Caller::Anonymous => Decision::Unauthenticated,
        c if c.is_admin() => Decision::Allow,
        _ => Decision::Forbidden,
    }
}

/// `GET /api/nodes` (the judging machines, their package hashes): the host's business.
pub fn list_nodes(caller: &Caller) -> Decision {
    administer(caller)
}

/// `GET /api/me` and `POST /api/logout`: a signed-in user (open mode answers for the host).
pub fn me(caller: &Caller) -> Decision {
    match caller {
        Caller::Anonymous => Decision::Unauthenticated,
        _ => Decision::Allow,
    }
}

/// How much of secret tests' results a caller sees. Open mode is the host alone, who gets
/// whatever the configuration says (`open_mode_view`).
pub fn feedback(caller: &Caller, open_mode_view: Feedback) -> Feedback {
    match caller {
        Caller::Open => open_mode_view,
        c if c.is_admin() => Feedback::Full,
        _ => Feedback::Contestant,
    }
}

/// Why a contest action is refused (403): each reason has its own code in the JSON error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContestRefusal {
    /// Open mode: contests need accounts (a contestant is a user).
    NoAccount,
    /// The contest lists its participants and the caller is not one of them.
    NotParticipant,
    /// Before the contest's start (or its window's).
    NotStarted,
    /// Window timing: the caller has not started their timer.
    TimerNotStarted,
    /// The caller's own timer is over (the contest still runs for others).
    TimeOver,
    /// The contest is over.
    ContestOver,
    /// The contest's problems are not shown to this caller yet.
    ProblemsHidden,
}

impl ContestRefusal {
    /// The machine-readable code of the 403.
    pub fn code(self) -> &'static str {
        match self {
            ContestRefusal::NoAccount => "no_account",
            ContestRefusal::NotParticipant => "not_a_participant",
            ContestRefusal::NotStarted => "not_started",
            ContestRefusal::TimerNotStarted => "timer_not_started",
            ContestRefusal::TimeOver => "time_over",
            ContestRefusal::ContestOver => "contest_over",
            ContestRefusal::ProblemsHidden => "problems_hidden",
        }
    }

    /// What the caller reads.
    pub fn message(self) -> &'static str {
        match self {
            ContestRefusal::NoAccount => {
                "contests need accounts: create one with `sudojudge user add` and sign in"
            }
            ContestRefusal::NotParticipant => "you are not a participant of this contest",
            ContestRefusal::NotStarted => "the contest has not started yet",
            ContestRefusal::TimerNotStarted => {
                "start your timer first (POST /api/contests/{id}/start)"
            }
            ContestRefusal::TimeOver => "your time is over",
            ContestRefusal::ContestOver => "the contest is over",
            ContestRefusal::ProblemsHidden => {
                "the problems are shown when the contest starts (window timing: when you start \
                 your timer)"
            }
        }
    }
}

/// The facts about one caller and one contest that the contest rules read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContestFacts {
    /// The contest admits this caller (`participants` is "anyone" or lists them).
    pub admitted: bool,
    /// Where the caller's clock stands now.
    pub phase: Phase,
    /// The contest is over for everyone (`false` for open timing).
    pub ended: bool,
}

fn jury(caller: &Caller) -> bool {
    matches!(caller, Caller::Open) || caller.is_admin()
}

/// Reading contests, their boards and their clarifications: anyone signed in.
pub fn read_contest(caller: &Caller) -> Decision {
    signed_in(caller)
}

/// The list of contests (titles, formats, times: what the front page shows): anyone, as
/// DOMjudge's and CMS's front pages show them before sign-in.
pub fn list_contests(_caller: &Caller) -> Decision {
    Decision::Allow
}

/// Reading a contest's board: anyone signed in; anonymous spectators too when the contest's
/// file says `public_board = true` (they get the contestants' board, frozen included).
pub fn read_scoreboard(caller: &Caller, public_board: bool) -> Decision {
    match caller {
        Caller::Anonymous if public_board => Decision::Allow,
        other => read_contest(other),
    }
}

/// Which board a caller sees: admins and the open mode's host the whole one.
pub fn contest_audience(caller: &Caller) -> Audience {
    if jury(caller) {
        Audience::Admin
    } else {
        Audience::Public
    }
}

/// Seeing a contest's problems: the jury always; others once their time runs, and after the
/// end (window timing: after starting their own timer).
pub fn see_contest_problems(caller: &Caller, facts: ContestFacts) -> Result<(), ContestRefusal> {
    if jury(caller) || matches!(facts.phase, Phase::Running { .. } | Phase::Over) {
        Ok(())
    } else {
        Err(ContestRefusal::ProblemsHidden)
    }
}

/// Whether a non-jury caller may see a problem outside contests: `in_contests` is false for
/// a problem in no contest; `shown_by_one` is true when at least one contest listing it shows
/// its problems to everyone (open timing, fixed after the start, window after the end).
pub fn see_problem(caller: &Caller, in_contests: bool, shown_by_one: bool) -> bool {
    jury(caller) || !in_contests || shown_by_one
}

/// The one rule of contest participation: an account, admitted, while the caller's clock
/// runs. `starting` asks for `POST /start` (which may also start a window timer: allowed in
/// `Ready` too).
fn take_part(caller: &Caller, facts: ContestFacts, starting: bool) -> Result<(), ContestRefusal> {
    match caller {
        Caller::Open => return Err(ContestRefusal::NoAccount),
        Caller::Anonymous => return Err(ContestRefusal::NoAccount),
        Caller::User(_) => {}
    }
    if !facts.admitted {
        return Err(ContestRefusal::NotParticipant);
    }
    match facts.phase {
        Phase::Running { .. } => Ok(()),
        Phase::Ready { .. } if starting => Ok(()),
        Phase::Ready { .. } => Err(ContestRefusal::TimerNotStarted),
        Phase::NotStarted { .. } => Err(ContestRefusal::NotStarted),
        Phase::Over if facts.ended => Err(ContestRefusal::ContestOver),
        Phase::Over => Err(ContestRefusal::TimeOver),
    }
}

/// Submitting to a contest: the jury at any time (jury submissions are judged in the
/// contest's mode but never on the board); a contestant when admitted and running.
/// Anonymous callers are asked to sign in first (`Err(Decision)`).
pub fn contest_submit(
    caller: &Caller,
    facts: ContestFacts,
) -> Result<Result<(), ContestRefusal>, Decision> {
    match caller {
        Caller::Anonymous => Err(Decision::Unauthenticated),
        c if c.is_admin() => Ok(Ok(())),
        c => Ok(take_part(c, facts, false)),
    }
}

/// `POST /api/contests/{id}/start`: a contestant admitted, from the (window) start until
/// their time is over; starting again is harmless.
pub fn contest_start(
    caller: &Caller,
    facts: ContestFacts,
) -> Result<Result<(), ContestRefusal>, Decision> {
    match caller {
        Caller::Anonymous => Err(Decision::Unauthenticated),
        c => Ok(take_part(c, facts, true)),
    }
}

/// Asking the jury a question: an admitted contestant (at any time: before, during, after).
pub fn ask_question(
    caller: &Caller,
    admitted: bool,
) -> Result<Result<(), ContestRefusal>, Decision> {
    match caller {
        Caller::Anonymous => Err(Decision::Unauthenticated),
        Caller::Open => Ok(Err(ContestRefusal::NoAccount)),
        _ if !admitted => Ok(Err(ContestRefusal::NotParticipant)),
        _ => Ok(Ok(())),
    }
}

/// The jury's contest actions: the CSV board, unfreezing, a contest-wide rejudge,
/// answering questions and announcing.
pub fn contest_jury(caller: &Caller) -> Decision {
    match caller {
        Caller::Anonymous => Decision::Unauthenticated,
        c if jury(c) => Decision::Allow,
        _ => Decision::Forbidden,
    }
}

/// How a contest that lists a problem holds it for one caller, as
/// [`submit_outside`] reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContestHold<'a> {
    /// The contest's id.
    pub contest: &'a str,
    /// Fixed or window timing (`false`: open timing, practice without an end).
    pub timed: bool,
    /// The contest admits the caller (`participants` is "anyone" or lists them).
    pub admitted: bool,
    /// The caller has a participation (started a timer, took part, or submitted to it).
    pub registered: bool,
    /// Timed contests: between the contest's (or its window's) start and its end.
    pub live: bool,
}

/// Submitting a problem outside a contest that holds it: to the plain problem (`target`
/// `None`) or to another contest (`target` `Some(id)`). The jury is never held. Otherwise
/// the first contest of `holds` (other than `target`) that holds the problem for the caller
/// refuses it (`Err` with its id, a 403 `in_contest`):
///
/// - a **fixed or window** contest holds it for every contestant it admits while it is
///   live, from its start (a window's opening, whether or not the caller started a timer)
///   to its end (a window's end, even after the caller's own time is over): its results,
///   penalty, rate, freeze and hidden `oi` results would be bypassed through the plain route
///   or another contest;
/// - an **open** contest (practice, no end) holds it on the plain route for the contestants
///   who take part in it (a participation: "Take part", or a first submission to it), never
///   against a submission to another contest (a timed contest's own route wins).
///
/// Before a timed contest's start nothing is held: nobody can submit to it yet, and its
/// problems are hidden outside contests unless another contest shows them. A submission to a
/// timed contest that itself holds the problem for the caller is never refused by another:
/// when the host runs two contests with one problem for the same contestants at once, each is
/// theirs (neither would be usable otherwise).
pub fn submit_outside<'a>(
    caller: &Caller,
    target: Option<&str>,
    holds: &[ContestHold<'a>],
) -> Result<(), &'a str> {
    if jury(caller) || !matches!(caller, Caller::User(_)) {
        return Ok(());
    }
    let target_holds = holds
        .iter()
        .any(|h| Some(h.contest) == target && h.timed && h.admitted && h.live);
    if target_holds {
        return Ok(());
    }
    let held = holds.iter().find(|h| {
        Some(h.contest) != target
            && if h.timed {
                h.admitted && h.live
            } else {
                target.is_none() && h.admitted && h.registered
            }
    });
    match held {
        Some(h) => Err(h.contest),
        None => Ok(()),
    }
}

/// Whether a contest submission's results are hidden from `caller`: in an `oi` contest,
/// from contestants until the end (they see "judged").
pub fn contest_results_hidden(caller: &Caller, format: Format, ended: bool) -> bool {
    format == Format::Oi && !ended && !jury(caller)
}

fn signed_in(caller: &Caller) -> Decision {
    match caller {
        Caller::Anonymous => Decision::Unauthenticated,
        _ => Decision::Allow,
    }
}

#[cfg(test)]
#[path = "access_tests.rs"]
mod tests;
