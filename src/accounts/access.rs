//! **The access rules, in one place.** Every HTTP handler (and, later, the web pages and the
//! contests) asks these functions what a caller may do; none decides on its own. The rules are
//! pure functions of a [`Caller`] and the facts of the resource (a submission's owner), so they
//! are tested here without a database or a server.
//!
//! | action | open mode | anonymous | contestant | admin |
//! |---|---|---|---|---|
//! | health, problems, statements, login, OpenAPI (never asked: public) | yes | yes | yes | yes |
//! | submit, custom run | yes | 401 | yes (runs count against the user's rate) | yes |
//! | list submissions | all | 401 | own only | all |
//! | read a submission | yes | 401 | own; another's is 404 | yes |
//! | rejudge | yes | 401 | own 403, another's 404 | yes |
//! | `/api/me`, logout | open-mode answer | 401 | yes | yes |
//! | feedback on secret tests | the config's | - | verdict, time, memory | full |

use super::{Role, UserName};

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
pub use crate::config::Feedback;

/// When accounts are in force: `[accounts] auth`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AuthMode {
    /// Open mode while no user exists (loopback only); accounts as soon as one does.
    Auto,
    /// Accounts always, even with no user yet.
    Required,
}

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

/// `GET /api/nodes` (the judging machines, their package hashes): hosts only; open mode is
/// the host alone.
pub fn list_nodes(caller: &Caller) -> Decision {
    match caller {
        Caller::Open => Decision::Allow,
        Caller::Anonymous => Decision::Unauthenticated,
        c if c.is_admin() => Decision::Allow,
        _ => Decision::Forbidden,
    }
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

fn signed_in(caller: &Caller) -> Decision {
    match caller {
        Caller::Anonymous => Decision::Unauthenticated,
        _ => Decision::Allow,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(id: i64, role: Role) -> Caller {
        Caller::User(Identity {
            id,
            name: UserName::parse(&format!("u{id}")).unwrap(),
            display_name: String::new(),
            role,
        })
    }

    #[test]
    fn submissions_table() {
        let (admin, alice, bob) = (
            user(1, Role::Admin),
            user(2, Role::Contestant),
            user(3, Role::Contestant),
        );
        let alices = Some(2);
        use Decision::*;
        for (caller, read, rejudge_) in [
            (&Caller::Open, Allow, Allow),
            (&Caller::Anonymous, Unauthenticated, Unauthenticated),
            (&admin, Allow, Allow),
            (&alice, Allow, Forbidden),
            (&bob, Hidden, Hidden),
        ] {
            assert_eq!(read_submission(caller, alices), read, "{caller:?}");
            assert_eq!(rejudge(caller, alices), rejudge_, "{caller:?}");
        }
        // Open-mode submissions (no owner) belong to no contestant.
        assert_eq!(read_submission(&alice, None), Hidden);
        assert_eq!(read_submission(&admin, None), Allow);
        assert_eq!(list_submissions(&alice), Ok(SubmissionScope::Owner(2)));
        assert_eq!(list_submissions(&admin), Ok(SubmissionScope::All));
        assert_eq!(list_submissions(&Caller::Open), Ok(SubmissionScope::All));
        assert_eq!(list_submissions(&Caller::Anonymous), Err(Unauthenticated));
    }

    #[test]
    fn nodes_are_for_hosts() {
        use Decision::*;
        assert_eq!(list_nodes(&Caller::Open), Allow);
        assert_eq!(list_nodes(&user(1, Role::Admin)), Allow);
        assert_eq!(list_nodes(&user(2, Role::Contestant)), Forbidden);
        assert_eq!(list_nodes(&Caller::Anonymous), Unauthenticated);
    }

    #[test]
    fn creating_needs_a_caller() {
        for c in [
            Caller::Open,
            user(1, Role::Admin),
            user(2, Role::Contestant),
        ] {
            assert_eq!(submit(&c), Decision::Allow);
            assert_eq!(create_run(&c), Decision::Allow);
            assert_eq!(me(&c), Decision::Allow);
        }
        assert_eq!(submit(&Caller::Anonymous), Decision::Unauthenticated);
        assert_eq!(create_run(&Caller::Anonymous), Decision::Unauthenticated);
        assert_eq!(me(&Caller::Anonymous), Decision::Unauthenticated);
        assert_eq!(run_rate_key(&user(2, Role::Contestant)), Some(2));
        assert_eq!(run_rate_key(&Caller::Open), None);
    }

    #[test]
    fn feedback_views() {
        assert_eq!(
            feedback(&user(1, Role::Admin), Feedback::Contestant),
            Feedback::Full
        );
        assert_eq!(
            feedback(&user(2, Role::Contestant), Feedback::Full),
            Feedback::Contestant
        );
        assert_eq!(feedback(&Caller::Open, Feedback::Full), Feedback::Full);
        assert_eq!(
            feedback(&Caller::Open, Feedback::Contestant),
            Feedback::Contestant
        );
    }

    #[test]
    fn open_mode_is_for_loopback_without_users() {
        assert!(open_mode(AuthMode::Auto, false));
        assert!(!open_mode(AuthMode::Auto, true));
        assert!(!open_mode(AuthMode::Required, false));
        check_listen(AuthMode::Auto, false, true).unwrap();
        check_listen(AuthMode::Auto, true, false).unwrap();
        check_listen(AuthMode::Required, false, false).unwrap();
        let err = check_listen(AuthMode::Auto, false, false).unwrap_err();
        assert!(err.contains("sudojudge user add NAME --admin"), "{err}");
    }
}
