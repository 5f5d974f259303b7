//! The fair choice, and a fake executor: workers that take simulated time per submission.

use super::*;

fn q(id: u64, user: &str) -> Queued {
    Queued {
        id,
        user: user.to_string(),
        contest: false,
    }
}

#[test]
fn a_contest_submission_goes_before_any_plain_one() {
    let mut queued = vec![q(1, "ann"), q(2, "ann"), q(3, "bob")];
    queued.push(Queued {
        contest: true,
        ..q(4, "cat")
    });
    let none = HashMap::new();
    assert_eq!(pick(&queued, &none).map(|s| s.id), Some(4));
    // Even when its owner has work in flight: the contest's first.
    let busy = HashMap::from([("cat".to_string(), 2)]);
    assert_eq!(pick(&queued, &busy).map(|s| s.id), Some(4));
    // Among contest submissions the usual rule.
    queued.push(Queued {
        contest: true,
        ..q(5, "dan")
    });
    assert_eq!(pick(&queued, &busy).map(|s| s.id), Some(5));
}

#[test]
fn the_user_with_least_in_flight_goes_first_then_the_oldest() {
    let queued = [q(1, "ann"), q(2, "ann"), q(3, "bob"), q(4, "cat")];
    let none = HashMap::new();
    assert_eq!(pick(&queued, &none).map(|s| s.id), Some(1));
    let busy = HashMap::from([("ann".to_string(), 1)]);
    assert_eq!(pick(&queued, &busy).map(|s| s.id), Some(3));
    let both = HashMap::from([("ann".to_string(), 1), ("bob".to_string(), 1)]);
    assert_eq!(pick(&queued, &both).map(|s| s.id), Some(4));
    assert_eq!(pick(&[], &none), None);
    let shuffled = [q(9, "ann"), q(5, "ann")];
    assert_eq!(
        pick(&shuffled, &none).map(|s| s.id),
        Some(5),
        "oldest, not first listed"
    );
}

/// One simulated submission: who, when it is queued, how long it takes to judge.
struct Job {
    user: &'static str,
    queued_at: u64,
    seconds: u64,
}

/// Runs `jobs` on `workers` simulated workers, each free worker taking what `choose`
/// picks; returns each job's start time (jobs are numbered in order, id = index + 1).
fn simulate(
    jobs: &[Job],
    workers: usize,
    choose: impl Fn(&[Queued], &HashMap<String, usize>) -> Option<u64>,
) -> Vec<u64> {
    let mut started = vec![None; jobs.len()];
    let mut running: Vec<(u64, usize)> = Vec::new(); // (ends at, job)
    let mut now = 0;
    while started.iter().any(Option::is_none) {
        running.retain(|(end, _)| *end > now);
        loop {
            if running.len() >= workers {
                break;
            }
            let queued: Vec<Queued> = jobs
                .iter()
                .enumerate()
                .filter(|(i, j)| started[*i].is_none() && j.queued_at <= now)
                .map(|(i, j)| q(i as u64 + 1, j.user))
                .collect();
            let mut in_flight = HashMap::new();
            for (_, i) in &running {
                *in_flight.entry(jobs[*i].user.to_string()).or_insert(0) += 1;
            }
            let Some(id) = choose(&queued, &in_flight) else {
                break;
            };
            let i = id as usize - 1;
            started[i] = Some(now);
            running.push((now + jobs[i].seconds, i));
        }
        // Next event: a worker frees or a job arrives.
        let next_end = running.iter().map(|(end, _)| *end).min();
        let next_arrival = jobs
            .iter()
            .enumerate()
            .filter(|(i, j)| started[*i].is_none() && j.queued_at > now)
            .map(|(_, j)| j.queued_at)
            .min();
        now = match (next_end, next_arrival) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => break,
        };
    }
    started.into_iter().map(|s| s.unwrap_or(u64::MAX)).collect()
}

#[test]
fn fifty_slow_submissions_do_not_delay_another_contestants_first() {
    // Measured before: 48 hostile submissions held both workers for 11 minutes. Here one
    // contestant queues 50 that take 10 minutes each, the other one quick one a second later.
    let mut jobs: Vec<Job> = (0..50)
        .map(|_| Job {
            user: "flooder",
            queued_at: 0,
            seconds: 600,
        })
        .collect();
    jobs.push(Job {
        user: "newcomer",
        queued_at: 1,
        seconds: 1,
    });
    let fair = simulate(&jobs, 2, |queued, in_flight| {
        pick(queued, in_flight).map(|s| s.id)
    });
    let fifo = simulate(&jobs, 2, |queued, _| queued.iter().map(|s| s.id).min());
    // Fair: the newcomer waits only for the first worker to free (one slow submission).
    assert_eq!(fair[50], 600);
    // FIFO would make it wait for all fifty: 25 rounds on two workers.
    assert_eq!(fifo[50], 25 * 600);
    // The flooder still gets everything judged, in its own order.
    assert!(fair[..50].windows(2).all(|w| w[0] <= w[1]));
    assert!(fair[..50].iter().all(|s| *s < u64::MAX));
}
