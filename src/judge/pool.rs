//! Judging many sources in parallel on a fixed set of judges (one per sandbox slot): each judge
//! takes the next job from a shared queue until the queue is empty or the caller says stop.
//!
//! `sudojudge verify` and `sudojudge grade` both judge a list of sources this way; only what a
//! job is and what it yields differ.

use std::collections::VecDeque;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use super::executor::Executor;
use super::pipeline::Judge;

/// Runs `work` on every job, one job per judge at a time, and returns the results in the
/// jobs' order. A job is `None` when no judge took it: `stop` was set before its turn, or the
/// task holding it panicked. Jobs already started finish (`work` may watch `stop` itself).
pub async fn run_jobs<E, J, O, F, Fut>(
    judges: Vec<Judge<E>>,
    jobs: Vec<J>,
    stop: Arc<AtomicBool>,
    work: F,
) -> Vec<Option<O>>
where
    E: Executor,
    J: Send + 'static,
    O: Send + 'static,
    F: Fn(Judge<E>, J) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = O> + Send,
{
    let total = jobs.len();
    let queue: Arc<Mutex<VecDeque<(usize, J)>>> =
        Arc::new(Mutex::new(jobs.into_iter().enumerate().collect()));
    let mut tasks = Vec::new();
    for judge in judges {
        let queue = Arc::clone(&queue);
        let stop = Arc::clone(&stop);
        let work = work.clone();
        tasks.push(tokio::spawn(async move {
            let mut done = Vec::new();
            loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let next = queue.lock().ok().and_then(|mut q| q.pop_front());
                let Some((index, job)) = next else { break };
                done.push((index, work(judge.clone(), job).await));
            }
            done
        }));
    }
    let mut results: Vec<Option<O>> = (0..total).map(|_| None).collect();
    for task in tasks {
        // A panicking task loses its jobs: they stay `None`.
        if let Ok(done) = task.await {
            for (index, result) in done {
                if let Some(slot) = results.get_mut(index) {
                    *slot = Some(result);
                }
            }
        }
    }
    results
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::tests::{judge, Fake};

    fn judges(n: usize) -> Vec<Judge<Fake>> {
        (0..n).map(|_| judge()).collect()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn results_come_back_in_job_order() {
        let stop = Arc::new(AtomicBool::new(false));
        let out = run_jobs(judges(3), (0..20u64).collect(), stop, |_, j| async move {
            tokio::time::sleep(std::time::Duration::from_millis(20 - j)).await;
            j * 2
        })
        .await;
        assert_eq!(out, (0..20u64).map(|j| Some(j * 2)).collect::<Vec<_>>());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn stop_leaves_the_rest_untaken() {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let out = run_jobs(judges(1), (0..10u32).collect(), stop, move |_, j| {
            let flag = Arc::clone(&flag);
            async move {
                if j == 3 {
                    flag.store(true, Ordering::SeqCst);
                }
                j
            }
        })
        .await;
        assert_eq!(out[..4], [Some(0), Some(1), Some(2), Some(3)]);
        assert!(out[4..].iter().all(Option::is_none));
    }
}
