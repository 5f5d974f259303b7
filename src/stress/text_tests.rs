use std::convert::Infallible;
use std::time::{Duration, Instant};

use super::*;

fn budget() -> Budget {
    Budget {
        deadline: Instant::now() + Duration::from_secs(60),
        max_runs: 100_000,
    }
}

/// `n` then `n` integers: valid when the count matches and every number is within 1000.
fn valid(input: &[u8]) -> bool {
    let text = String::from_utf8_lossy(input);
    let lines: Vec<&str> = text.split_terminator('\n').collect();
    let [n, list] = lines.as_slice() else {
        return false;
    };
    let Ok(n) = n.parse::<usize>() else {
        return false;
    };
    let numbers: Vec<i64> = list.split(' ').filter_map(|t| t.parse().ok()).collect();
    n >= 1
        && numbers.len() == n
        && list.split(' ').count() == n
        && numbers.iter().all(|x| x.abs() <= 1000)
}

/// The planted bug: negative numbers are skipped.
fn disagrees(input: &[u8]) -> bool {
    let text = String::from_utf8_lossy(input);
    text.lines()
        .nth(1)
        .is_some_and(|l| l.split(' ').any(|t| t.parse::<i64>().is_ok_and(|x| x < 0)))
}

fn probe(input: &[u8]) -> Result<Probe<()>, Infallible> {
    Ok(if !valid(input) {
        Probe::Invalid
    } else if disagrees(input) {
        Probe::Kept(())
    } else {
        Probe::Lost
    })
}

#[test]
fn a_counted_list_shrinks_to_one_number_with_its_count_lowered() {
    let input = b"7\n12 -500 33 0 -7 999 4\n".to_vec();
    let shrunk = shrink(input, (), budget(), probe).unwrap();
    assert!(shrunk.minimal);
    assert_eq!(String::from_utf8(shrunk.input).unwrap(), "1\n-1\n");
}

#[test]
fn lines_and_tokens_go_without_a_count_and_the_result_is_one_minimal() {
    // Any input holding a line with both `a` and `b` disagrees; every input is valid.
    let input = b"x y\nq a r b s\nz\na\n".to_vec();
    let shrunk = shrink(input, (), budget(), |c: &[u8]| -> Result<_, Infallible> {
        let text = String::from_utf8_lossy(c);
        Ok(
            if text
                .lines()
                .any(|l| l.split_whitespace().any(|t| t == "a") && l.contains('b'))
            {
                Probe::Kept(())
            } else {
                Probe::Lost
            },
        )
    })
    .unwrap();
    assert!(shrunk.minimal);
    assert_eq!(String::from_utf8(shrunk.input).unwrap(), "a b\n");
    assert_eq!(token_count(b" a  b\nc\n"), 3);
}

#[test]
fn the_budget_stops_the_shrink_and_says_it_is_not_minimal() {
    let input = b"7\n12 -500 33 0 -7 999 4\n".to_vec();
    let shrunk = shrink(
        input,
        (),
        Budget {
            deadline: Instant::now() + Duration::from_secs(60),
            max_runs: 3,
        },
        probe,
    )
    .unwrap();
    assert!(!shrunk.minimal);
    assert_eq!(shrunk.runs, 3);
}
