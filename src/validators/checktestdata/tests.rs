//! One test per command and test of the language, accepting and rejecting.

use super::*;

fn run(script: &str, input: &str) -> Result<(), CtdError> {
    Script::parse(script.as_bytes())?.check(input.as_bytes(), Bounds::default())
}

fn ok(script: &str, input: &str) {
    if let Err(e) = run(script, input) {
        panic!("{script:?} on {input:?}: {e}");
    }
}

fn rejected(script: &str, input: &str) -> String {
    match run(script, input) {
        Err(e @ CtdError::Rejected { .. }) => e.to_string(),
        other => panic!("{script:?} on {input:?}: expected a rejection, got {other:?}"),
    }
}

#[test]
fn space_newline_and_the_implicit_eof() {
    ok("SPACE NEWLINE", " \n");
    assert!(rejected("SPACE NEWLINE", "\n").contains("expected space"));
    assert!(rejected("NEWLINE", " \n").contains("expected newline"));
    assert!(rejected("NEWLINE", "\n\n").contains("end of file"));
    ok("NEWLINE EOF", "\n");
    ok("", "");
}

#[test]
fn int_reads_any_size_in_range_without_leading_zeros_or_minus_zero() {
    ok("INT(0, 10^30) NEWLINE", "1000000000000000000000000000\n");
    ok("INT(-5, 5, x) ASSERT(x == -3)", "-3");
    assert!(rejected("INT(1, 10)", "11").contains("out of range"));
    assert!(rejected("INT(0, 10)", "01").contains("leading zeros"));
    assert!(rejected("INT(-10, 10)", "-0").contains("-0"));
    assert!(rejected("INT(0, 10)", "+1").contains("expected an integer"));
    assert!(rejected("INT(0, 10)", " 1").contains("expected an integer"));
}

#[test]
fn float_formats_options_and_floatp_decimals() {
    ok("FLOAT(0, 10)", "3.25");
    ok("FLOAT(-1, 1)", "-0.5");
    ok("FLOAT(0, 1000)", "1.5e2");
    ok("FLOAT(0, 10)", "7");
    assert!(rejected("FLOAT(0, 10)", "11.0").contains("out of range"));
    assert!(rejected("FLOAT(0, 10)", "1.").contains("after the decimal point"));
    assert!(rejected("FLOAT(0, 10)", "00.5").contains("leading zeros"));
    assert!(rejected("FLOAT(0, 10)", ".5").contains("expected a digit"));
    ok("FLOAT(0, 10, x, FIXED)", "2.5");
    assert!(run("FLOAT(0, 1000, x, FIXED)", "1e2").is_err());
    ok("FLOAT(0, 1000, x, SCIENTIFIC)", "1.0e2");
    assert!(rejected("FLOAT(0, 10, x, SCIENTIFIC)", "2.5").contains("exponent"));
    ok("FLOATP(0, 10, 2, 3)", "1.25");
    assert!(rejected("FLOATP(0, 10, 2, 3)", "1.2").contains("decimals"));
    assert!(rejected("FLOATP(0, 1000, 1, 3)", "12.5e1").contains("one non-zero digit"));
    ok("FLOAT(0, 10, x) ASSERT(x > 2.5 && x < 2.7)", "2.6");
}

#[test]
fn string_and_regex_with_captures() {
    ok("STRING(\"abc\") NEWLINE", "abc\n");
    assert!(rejected("STRING(\"abc\")", "abd").contains("expected \"abc\""));
    ok(
        "REGEX(\"[a-z]+\", w) ASSERT(w == \"hello\" && STRLEN(w) == 5)",
        "hello",
    );
    // `.` matches a newline, as checktestdata documents.
    ok("REGEX(\"a.b\")", "a\nb");
    assert!(rejected("REGEX(\"[0-9]+\")", "x").contains("no match"));
    // Octal and backslash escapes in strings.
    ok("STRING(\"\\101\\t\") STRING(\"\\\\\")", "A\t\\");
}

#[test]
fn assert_and_expressions_with_precedence() {
    ok("ASSERT(1 + 2 * 3 == 7)", "");
    ok("ASSERT(-2^2 == -4 && 2^3^2 == 64)", "");
    ok("ASSERT(7 / 2 == 3 && -7 / 2 == -3 && -7 % 2 == -1)", "");
    ok("ASSERT((1 + 2) * 3 == 9)", "");
    ok("ASSERT(1 < 2.5 && \"abc\" < \"abd\")", "");
    ok("ASSERT(!(1 > 2))", "");
    // `!` covers the rest of the test, as checktestdata's grammar reads it.
    ok("ASSERT(!1 > 2 && 1 > 2)", "");
    assert!(rejected("ASSERT(1 == 2)", "").contains("assertion failed"));
    assert!(matches!(
        run("ASSERT(1 / 0 == 1)", ""),
        Err(CtdError::Runtime { .. })
    ));
    assert!(matches!(
        run("ASSERT(\"a\" + 1 == 1)", ""),
        Err(CtdError::Runtime { .. })
    ));
}

#[test]
fn set_unset_variables_and_arrays() {
    ok("SET(x = 2, y = x * 3) ASSERT(y == 6)", "");
    ok("SET(a[1, 2] = 5) ASSERT(a[1, 2] == 5)", "");
    assert!(matches!(
        run("SET(x = 1) UNSET(x) ASSERT(x == 1)", ""),
        Err(CtdError::Runtime { message, .. }) if message.contains("not set")
    ));
    assert!(matches!(
        run("ASSERT(a[3] == 1)", ""),
        Err(CtdError::Runtime { message, .. }) if message.contains("a[3]")
    ));
}

#[test]
fn rep_and_repi_with_separators() {
    let script = "INT(1, 10, n) NEWLINE REPI(i, n, SPACE) INT(0, 100, x[i]) END NEWLINE \
                  ASSERT(i == n)";
    ok(script, "3\n1 2 3\n");
    assert!(rejected(script, "3\n1 2\n").contains("expected space"));
    assert!(rejected(script, "3\n1  2 3\n").contains("expected an integer"));
    ok("REP(0) INT(0, 1) END", "");
    assert!(matches!(
        run("REP(-1) END", ""),
        Err(CtdError::Runtime { .. })
    ));
}

#[test]
fn while_and_whilei_until_eof() {
    let script = "SET(c = 0) WHILE(!ISEOF) INT(0, 9) NEWLINE SET(c = c + 1) END ASSERT(c == 3)";
    ok(script, "1\n2\n3\n");
    assert!(rejected(script, "1\n2\n").contains("assertion failed"));
    ok(
        "WHILEI(i, !ISEOF, SPACE) INT(0, 9) END ASSERT(i == 4)",
        "1 2 3 4",
    );
    ok(
        "WHILE(MATCH(\"ab\")) REGEX(\"[ab]\") END STRING(\"c\")",
        "abbac",
    );
}

#[test]
fn if_else() {
    let script = "INT(0, 1, t) NEWLINE IF(t == 0) STRING(\"zero\") ELSE STRING(\"one\") END";
    ok(script, "0\nzero");
    ok(script, "1\none");
    assert!(rejected(script, "1\nzero").contains("expected \"one\""));
    ok("IF(1 == 1) END", "");
}

#[test]
fn unique_and_inarray() {
    let script = "INT(1, 10, n) NEWLINE REPI(i, n) INT(0, 9, x[i]) SPACE INT(0, 9, y[i]) \
                  NEWLINE END ASSERT(UNIQUE(x, y))";
    ok(script, "2\n1 2\n2 1\n");
    assert!(rejected(script, "2\n1 2\n1 2\n").contains("non-unique"));
    ok(
        "REPI(i, 3, SPACE) INT(0, 9, a[i]) END ASSERT(INARRAY(7, a) && !INARRAY(5, a))",
        "1 7 3",
    );
}

#[test]
fn scripts_with_errors_name_their_line() {
    for (script, want) in [
        ("INT(1, 2", "expected `)`"),
        ("\nREP(3) SPACE", "missing `END`"),
        ("FOO", "unknown command `FOO`"),
        ("STRING(\"abc", "unterminated string"),
        ("SET(x == 1)", "expected `=`"),
        ("END", "unexpected `END`"),
    ] {
        match Script::parse(script.as_bytes()) {
            Err(e @ CtdError::Script { .. }) => {
                assert!(e.to_string().contains(want), "{script:?}: {e}")
            }
            other => panic!("{script:?}: {other:?}"),
        }
    }
    assert!(Script::parse(b"\n\nINT(")
        .unwrap_err()
        .to_string()
        .contains("line 3"));
}

#[test]
fn hostile_scripts_are_bounded() {
    // Nesting past the bound is refused when parsed, not a stack overflow.
    let deep = format!("ASSERT({}1{} == 1)", "(".repeat(5000), ")".repeat(5000));
    assert!(Script::parse(deep.as_bytes()).is_err());
    let chain = format!("ASSERT(1{} == 1)", "+0".repeat(5000));
    assert!(Script::parse(chain.as_bytes()).is_err());
    // A loop that would run for ever stops at the step bound.
    let small = Bounds {
        max_steps: 10_000,
        max_values: 100,
    };
    let spin = Script::parse(b"WHILE(1 == 1) END").unwrap();
    assert!(matches!(spin.check(b"", small), Err(CtdError::Limit(_))));
    let fill = Script::parse(b"REPI(i, 1000) SET(a[i] = i) END").unwrap();
    assert!(matches!(fill.check(b"", small), Err(CtdError::Limit(_))));
    // A huge power is refused, not computed.
    assert!(matches!(
        run("ASSERT(10^100000000 > 1)", ""),
        Err(CtdError::Runtime { .. })
    ));
}

#[test]
fn problemtools_different_ctd_accepts_its_data_and_rejects_bad_data() {
    let script = "SET(cases = 0)\nWHILE(!ISEOF)\n   INT(0, 10^15) SPACE INT(0, 10^15) NEWLINE\n   \
                  SET(cases = cases + 1)\nEND\nASSERT(1 <= cases && cases <= 40)\n";
    ok(script, "10 12\n71293781758123 72784\n1 12345677654321\n");
    assert!(rejected(script, "10 12\n-1 2\n").contains("out of range"));
    assert!(rejected(script, "").contains("assertion failed"));
}
