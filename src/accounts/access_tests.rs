//! The access rules' table, row by row.

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
    assert_eq!(administer(&admin), Allow);
    assert_eq!(administer(&Caller::Open), Allow);
    assert_eq!(administer(&alice), Forbidden);
    assert_eq!(administer(&Caller::Anonymous), Unauthenticated);
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

#[test]
fn contest_rules_give_each_refusal_its_reason() {
    use jiff::SignedDuration;
    let (admin, alice) = (user(1, Role::Admin), user(2, Role::Contestant));
    let running = Phase::Running {
        elapsed: None,
        remaining: None,
    };
    let facts = |admitted, phase, ended| ContestFacts {
        admitted,
        phase,
        ended,
    };
    let early = Phase::NotStarted {
        starts_in: SignedDuration::from_mins(5),
    };
    let ready = Phase::Ready {
        window_ends_in: SignedDuration::from_hours(1),
    };
    use ContestRefusal::*;
    for (f, submit, start) in [
        (facts(true, running, false), Ok(()), Ok(())),
        (
            facts(false, running, false),
            Err(NotParticipant),
            Err(NotParticipant),
        ),
        (facts(true, early, false), Err(NotStarted), Err(NotStarted)),
        (facts(true, ready, false), Err(TimerNotStarted), Ok(())),
        (
            facts(true, Phase::Over, false),
            Err(TimeOver),
            Err(TimeOver),
        ),
        (
            facts(true, Phase::Over, true),
            Err(ContestOver),
            Err(ContestOver),
        ),
    ] {
        assert_eq!(contest_submit(&alice, f), Ok(submit), "{f:?}");
        assert_eq!(contest_start(&alice, f), Ok(start), "{f:?}");
        // The jury submits at any time, and always sees the problems.
        assert_eq!(contest_submit(&admin, f), Ok(Ok(())), "{f:?}");
        assert!(see_contest_problems(&admin, f).is_ok());
    }
    let before = facts(true, early, false);
    assert_eq!(see_contest_problems(&alice, before), Err(ProblemsHidden));
    assert_eq!(
        see_contest_problems(&alice, facts(true, ready, false)),
        Err(ProblemsHidden)
    );
    assert!(see_contest_problems(&alice, facts(false, Phase::Over, true)).is_ok());
    assert_eq!(
        contest_submit(&Caller::Anonymous, before),
        Err(Decision::Unauthenticated)
    );
    assert_eq!(contest_submit(&Caller::Open, before), Ok(Err(NoAccount)));
    assert_eq!(ask_question(&alice, false), Ok(Err(NotParticipant)));
    assert_eq!(ask_question(&alice, true), Ok(Ok(())));
    assert_eq!(contest_jury(&alice), Decision::Forbidden);
    assert_eq!(contest_jury(&admin), Decision::Allow);
    assert_eq!(contest_jury(&Caller::Open), Decision::Allow);
    assert_eq!(contest_jury(&Caller::Anonymous), Decision::Unauthenticated);
    assert_eq!(contest_audience(&alice), Audience::Public);
    assert_eq!(contest_audience(&Caller::Open), Audience::Admin);
    assert_eq!(contest_audience(&Caller::Anonymous), Audience::Public);
    assert_eq!(
        read_scoreboard(&Caller::Anonymous, false),
        Decision::Unauthenticated
    );
    assert_eq!(read_scoreboard(&Caller::Anonymous, true), Decision::Allow);
    assert_eq!(read_scoreboard(&alice, false), Decision::Allow);
    assert_eq!(list_contests(&Caller::Anonymous), Decision::Allow);
    assert!(contest_results_hidden(&alice, Format::Oi, false));
    assert!(!contest_results_hidden(&alice, Format::Oi, true));
    assert!(!contest_results_hidden(&admin, Format::Oi, false));
    assert!(!contest_results_hidden(&alice, Format::Icpc, false));
    assert!(see_problem(&alice, false, false));
    assert!(!see_problem(&alice, true, false));
    assert!(see_problem(&alice, true, true));
    assert!(see_problem(&admin, true, false));
}

#[test]
fn a_problem_held_by_a_contest_is_refused_outside_it() {
    let (admin, alice) = (user(1, Role::Admin), user(2, Role::Contestant));
    let hold = |contest, timed, admitted, registered, live| ContestHold {
        contest,
        timed,
        admitted,
        registered,
        live,
    };
    // An oi contest running and a practice contest the caller took part in, sharing it.
    let noip = hold("noip", true, true, false, true);
    let practice = hold("practice", false, true, true, true);
    let both = [practice, noip];
    // The plain route: held (the first holding contest is named).
    assert_eq!(submit_outside(&alice, None, &both), Err("practice"));
    assert_eq!(submit_outside(&alice, None, &[noip]), Err("noip"));
    // Through the practice contest: the running timed contest holds it.
    assert_eq!(submit_outside(&alice, Some("practice"), &both), Err("noip"));
    // Through the timed contest itself: the open one never holds against it.
    assert_eq!(submit_outside(&alice, Some("noip"), &both), Ok(()));
    // The jury and the open mode's host are never held; anonymous callers are asked to
    // sign in before this rule.
    for jury in [&admin, &Caller::Open, &Caller::Anonymous] {
        assert_eq!(submit_outside(jury, None, &both), Ok(()));
    }
    // Not live (before the start, after the end), not admitted: not held.
    for free in [
        hold("noip", true, true, false, false),
        hold("noip", true, false, true, true),
    ] {
        assert_eq!(submit_outside(&alice, None, &[free]), Ok(()));
    }
    // A window contest holds it for every admitted contestant while the window is open,
    // timer started or not (practising before starting it is the bypass).
    assert_eq!(
        submit_outside(&alice, None, &[hold("club", true, true, false, true)]),
        Err("club")
    );
    // Two timed contests holding it at once: each one's own route is open, the plain route
    // and the practice contest are not.
    let spring = hold("spring", true, true, false, true);
    let three = [practice, spring, noip];
    assert_eq!(submit_outside(&alice, Some("noip"), &three), Ok(()));
    assert_eq!(submit_outside(&alice, Some("spring"), &three), Ok(()));
    assert_eq!(
        submit_outside(&alice, Some("practice"), &three),
        Err("spring")
    );
    assert_eq!(submit_outside(&alice, None, &three), Err("practice"));
    // An open contest holds it only for those who take part in it.
    assert_eq!(
        submit_outside(&alice, None, &[hold("practice", false, true, false, true)]),
        Ok(())
    );
}

#[test]
fn metrics_are_the_hosts() {
    use Decision::*;
    let (admin, alice) = (user(1, Role::Admin), user(2, Role::Contestant));
    for (caller, without, with_token) in [
        (&Caller::Open, Allow, Allow),
        (&Caller::Anonymous, Unauthenticated, Allow),
        (&admin, Allow, Allow),
        (&alice, Forbidden, Allow),
    ] {
        assert_eq!(read_metrics(caller, false), without, "{caller:?}");
        assert_eq!(read_metrics(caller, true), with_token, "{caller:?}");
    }
}

#[test]
fn health_in_full_is_the_hosts() {
    use HealthView::*;
    let (admin, alice) = (user(1, Role::Admin), user(2, Role::Contestant));
    for (caller, without, with_token) in [
        (&Caller::Open, Full, Full),
        (&Caller::Anonymous, Public, Full),
        (&admin, Full, Full),
        (&alice, Public, Full),
    ] {
        assert_eq!(read_health(caller, false), without, "{caller:?}");
        assert_eq!(read_health(caller, true), with_token, "{caller:?}");
    }
}

#[test]
fn nodes_are_for_hosts() {
    use Decision::*;
    assert_eq!(list_nodes(&Caller::Open), Allow);
    assert_eq!(list_nodes(&user(1, Role::Admin)), Allow);
    assert_eq!(list_nodes(&user(2, Role::Contestant)), Forbidden);
    assert_eq!(list_nodes(&Caller::Anonymous), Unauthenticated);
}
