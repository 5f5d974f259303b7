use super::*;

#[test]
fn legacy_reads_problemtools_examples() {
    let hello =
        "source: Kattis\nlicense: public domain\nname: Hello World!\nlimits:\n  memory: 512\n";
    let m = parse(hello).unwrap();
    assert_eq!(m.version, Version::Legacy);
    assert_eq!(m.name.as_deref(), Some("Hello World!"));
    assert_eq!(m.memory_mb, Some(512));
    assert_eq!(m.time_limit_ms, None);
    assert_eq!(
        m.timing,
        Timing::Legacy {
            time_multiplier: 5.0,
            time_safety_margin: 2.0
        }
    );
    let different =
        "name: A Different Problem\nvalidation: custom\nlimits:\n  time_safety_margin: 4\n";
    let m = parse(different).unwrap();
    assert!(m.custom_validation);
    assert_eq!(
        m.timing,
        Timing::Legacy {
            time_multiplier: 5.0,
            time_safety_margin: 4.0
        }
    );
    assert!(parse("").is_ok());
    let m = parse("validator_flags: float_tolerance 1e-6\n").unwrap();
    assert_eq!(m.validator_flags, ["float_tolerance", "1e-6"]);
}

#[test]
fn current_formats_read_limits_and_names() {
    let y = "problem_format_version: 2025-09\nname:\n  sv: Hej\n  en: Hello\nuuid: x\n\
                 limits:\n  time_limit: 1.5\n  memory: 256\n  time_multipliers:\n    ac_to_time_limit: 3\n";
    let m = parse(y).unwrap();
    assert_eq!(m.version, Version::V2025);
    assert_eq!(m.name.as_deref(), Some("Hello"));
    assert_eq!(m.time_limit_ms, Some(1500));
    assert_eq!(m.memory_mb, Some(256));
    let Timing::Multipliers {
        ac_to_time_limit,
        time_limit_to_tle,
        ..
    } = m.timing
    else {
        panic!("{:?}", m.timing)
    };
    assert_eq!((ac_to_time_limit, time_limit_to_tle), (3.0, 1.5));
    let m = parse("problem_format_version: 2023-07-draft\nname: X\ntype: [pass-fail]\n").unwrap();
    assert_eq!(m.version, Version::Draft2023);
}

#[test]
fn interactive_problems_are_read_in_every_version() {
    assert!(
        parse("validation: custom interactive\n")
            .unwrap()
            .interactive
    );
    assert!(
        parse("validation: custom interactive\n")
            .unwrap()
            .custom_validation
    );
    assert!(!parse("validation: custom\n").unwrap().interactive);
    for v in ["2023-07-draft", "2025-09"] {
        let m = parse(&format!(
            "problem_format_version: {v}\nname: X\ntype: interactive\n"
        ));
        assert!(m.unwrap().interactive, "{v}");
        let m = parse(&format!(
            "problem_format_version: {v}\nname: X\ntype: [pass-fail, interactive]\n"
        ));
        assert!(m.unwrap().interactive, "{v}");
    }
}

#[test]
fn scoring_problems_are_read_in_every_version() {
    let m =
        parse("type: scoring\nvalidation: custom score\ngrading:\n  accept_score: 2\n").unwrap();
    assert!(m.scoring && m.custom_validation && !m.interactive);
    assert_eq!(m.legacy_grading.accept_score, Some(2.0));
    let m = parse("type: scoring\nvalidation: custom interactive score\n").unwrap();
    assert!(m.scoring && m.interactive);
    for v in ["2023-07-draft", "2025-09"] {
        let m = parse(&format!(
            "problem_format_version: {v}\nname: X\ntype: [scoring, interactive]\n"
        ))
        .unwrap();
        assert!(m.scoring && m.interactive, "{v}");
        assert!(
            !parse(&format!("problem_format_version: {v}\nname: X\n"))
                .unwrap()
                .scoring
        );
    }
}

#[test]
fn errors_name_the_key() {
    let cases = [
        ("name: X\ncolour: red\n", "unknown field `colour`"),
        ("limits:\n  memroy: 3\n", "unknown field `memroy`"),
        ("limits:\n  memory: lots\n", "limits.memory"),
        ("limits:\n  memory: 0\n", "limits.memory: must be positive"),
        ("type: multi-pass\n", "type `multi-pass`"),
        ("validation: custom score\n", "validation `custom score`"),
        ("grading:\n  objective: max\n", "only a scoring problem"),
        (
            "type: scoring\ngrading:\n  objective: min\n",
            "objective: min",
        ),
        (
            "problem_format_version: 1999-01\n",
            "problem_format_version `1999-01`",
        ),
        (
            "problem_format_version: 2025-09\nname: X\ntype: [pass-fail, scoring]\n",
            "exclude each other",
        ),
        (
            "problem_format_version: 2025-09\nlimits:\n  time_limit: -1\n",
            "limits.time_limit",
        ),
        (
            "problem_format_version: 2025-09\nvalidation: custom\n",
            "unknown field `validation`",
        ),
        ("- a\n- b\n", "not a map"),
    ];
    for (yaml, needle) in cases {
        let err = parse(yaml).unwrap_err();
        assert!(err.contains(needle), "`{needle}` not in {err}");
    }
}
