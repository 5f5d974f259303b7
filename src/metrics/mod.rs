//! The daemon's Prometheus metrics, served as text at `GET /metrics`.
//!
//! Every daemon has its own registry ([`Metrics`]): a `metrics-exporter-prometheus` recorder
//! that is never installed as the process's global recorder, so several daemons in one
//! process (the tests start many) each count their own, and a library user's own global
//! recorder is left alone. Every recording goes through [`metrics::with_local_recorder`]
//! on this registry.
//!
//! | metric | type | labels | what |
//! |---|---|---|---|
//! | `sudojudge_queue_depth` | gauge | `status` | submissions `queued`, `compiling`, `running` (read from the store at each scrape) |
//! | `sudojudge_submissions_judged_total` | counter | `problem`, `verdict` | results stored by this node's workers |
//! | `sudojudge_judge_duration_seconds` | histogram | `problem` | claim to stored result, per submission |
//! | `sudojudge_sandbox_runs_total` | counter | `kind` | sandbox boxes run: `compile`, `test`, `custom` |
//! | `sudojudge_sandbox_failures_total` | counter | `kind` | runs the sandbox failed on (the judge's fault, `SE`) |
//! | `sudojudge_compile_cache_hits_total` | counter | | compiles answered by the compile cache (no box, no compiler) |
//! | `sudojudge_compile_cache_misses_total` | counter | | compiles looked for in the cache and run (compile errors included) |
//! | `sudojudge_queue_unclaimable` | gauge | | queued submissions no live judging node can claim (made against data no live node has; shared database only, read at each scrape) |
//! | `sudojudge_node_heartbeat_age_seconds` | gauge | `node` | seconds since a node's workers last showed life: this node's own, and on a shared database every node's in the nodes table (read at each scrape) |
//!
//! Gauges are set at each scrape; one not set for [`GAUGE_IDLE`] (a node that left the nodes
//! table) is dropped from the registry (the exporter's idle timeout), so a departed node does
//! not keep a stale series.
//! | `sudojudge_http_requests_total` | counter | `route`, `method`, `status` | answered HTTP requests |
//! | `sudojudge_password_checks_total` | counter | | argon2 password checks made for logins (a name that does not exist costs one too); 0 from the start |
//!
//! - [`executor`]: [`Counted`], the executor wrapper that counts sandbox runs and failures.

pub mod executor;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use metrics_exporter_prometheus::{
    Matcher, PrometheusBuilder, PrometheusHandle, PrometheusRecorder,
};

use metrics_util::MetricKindMask;

pub use executor::Counted;

/// Queue depth gauge.
pub const QUEUE_DEPTH: &str = "sudojudge_queue_depth";
/// Queued submissions no live judging node can claim.
pub const UNCLAIMABLE: &str = "sudojudge_queue_unclaimable";
/// Judged submissions counter.
pub const JUDGED: &str = "sudojudge_submissions_judged_total";
/// Judge duration histogram.
pub const JUDGE_DURATION: &str = "sudojudge_judge_duration_seconds";
/// Sandbox runs counter.
pub const SANDBOX_RUNS: &str = "sudojudge_sandbox_runs_total";
/// Sandbox failures counter.
pub const SANDBOX_FAILURES: &str = "sudojudge_sandbox_failures_total";
/// Compile cache hits counter.
pub const COMPILE_CACHE_HITS: &str = "sudojudge_compile_cache_hits_total";
/// Compile cache misses counter.
pub const COMPILE_CACHE_MISSES: &str = "sudojudge_compile_cache_misses_total";
/// Heartbeat age gauge.
pub const HEARTBEAT_AGE: &str = "sudojudge_node_heartbeat_age_seconds";
/// HTTP requests counter.
pub const HTTP_REQUESTS: &str = "sudojudge_http_requests_total";
/// Password checks counter.
pub const PASSWORD_CHECKS: &str = "sudojudge_password_checks_total";

/// Bucket bounds of the judge duration, in seconds: a compile alone takes 0.1-2 s, a
/// problem of 24 tests up to a few tens of seconds, a TLE on each up to a minute or more.
const DURATION_BUCKETS: &[f64] = &[
    0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
];

/// What a sandbox run was for (the `kind` label).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunKind {
    /// A submission's compile.
    Compile,
    /// One test of a submission.
    Test,
    /// A custom run's compile or run (`POST /api/runs`).
    Custom,
}

impl RunKind {
    /// The label value.
    pub fn as_str(self) -> &'static str {
        match self {
            RunKind::Compile => "compile",
            RunKind::Test => "test",
            RunKind::Custom => "custom",
        }
    }
}

/// One daemon's metrics registry; cheap to clone (shared inside).
#[derive(Clone)]
pub struct Metrics {
    inner: Arc<Inner>,
}

struct Inner {
    recorder: PrometheusRecorder,
    handle: PrometheusHandle,
    node: String,
    /// This node's last heartbeat (`None` until its workers first show life).
    beat: Mutex<Option<Instant>>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics")
            .field("node", &self.inner.node)
            .finish_non_exhaustive()
    }
}

/// How long a gauge may go unset before the registry drops its series.
pub const GAUGE_IDLE: Duration = Duration::from_secs(60);

impl Metrics {
    /// A fresh registry for the node named `node` (its label on the heartbeat gauge).
    pub fn new(node: &str) -> Metrics {
        Metrics::with_gauge_idle(node, GAUGE_IDLE)
    }

    /// [`Metrics::new`] whose gauges are dropped after `idle` without being set.
    pub fn with_gauge_idle(node: &str, idle: Duration) -> Metrics {
        let builder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Full(JUDGE_DURATION.into()), DURATION_BUCKETS)
            .unwrap_or_else(|_| PrometheusBuilder::new())
            .idle_timeout(MetricKindMask::GAUGE, Some(idle));
        let recorder = builder.build_recorder();
        let handle = recorder.handle();
        metrics::with_local_recorder(&recorder, || {
            metrics::describe_gauge!(QUEUE_DEPTH, "Submissions in the queue, by status.");
            metrics::describe_gauge!(
                UNCLAIMABLE,
                "Queued submissions no live judging node can claim (other package data)."
            );
            metrics::describe_counter!(
                JUDGED,
                "Submissions judged by this node, by problem and verdict."
            );
            metrics::describe_histogram!(
                JUDGE_DURATION,
                metrics::Unit::Seconds,
                "Time from claim to stored result, per submission."
            );
            metrics::describe_counter!(SANDBOX_RUNS, "Sandbox boxes run, by kind.");
            metrics::describe_counter!(
                SANDBOX_FAILURES,
                "Sandbox runs that failed through the judge's fault (SE), by kind."
            );
            metrics::describe_counter!(
                COMPILE_CACHE_HITS,
                "Compiles answered by the compile cache (no compiler ran)."
            );
            metrics::describe_counter!(
                COMPILE_CACHE_MISSES,
                "Compiles looked for in the compile cache and run."
            );
            metrics::describe_gauge!(
                HEARTBEAT_AGE,
                metrics::Unit::Seconds,
                "Seconds since a node's workers last showed life."
            );
            metrics::describe_counter!(
                HTTP_REQUESTS,
                "HTTP requests answered, by route, method and status."
            );
            metrics::describe_counter!(
                PASSWORD_CHECKS,
                "Password checks (argon2id) made for logins, unknown names included."
            );
            // Shown from the start, so a scrape before the first login reads 0.
            metrics::counter!(PASSWORD_CHECKS).increment(0);
        });
        Metrics {
            inner: Arc::new(Inner {
                recorder,
                handle,
                node: node.to_string(),
                beat: Mutex::new(None),
            }),
        }
    }

    fn with<T>(&self, f: impl FnOnce() -> T) -> T {
        metrics::with_local_recorder(&self.inner.recorder, f)
    }

    /// A submission's result was stored: `problem`, its `verdict`, and how long it took from
    /// claim to stored result.
    pub fn judged(&self, problem: &str, verdict: &str, took: Duration) {
        let (problem, verdict) = (problem.to_string(), verdict.to_string());
        self.with(|| {
            metrics::counter!(JUDGED, "problem" => problem.clone(), "verdict" => verdict)
                .increment(1);
            metrics::histogram!(JUDGE_DURATION, "problem" => problem).record(took.as_secs_f64());
        });
    }

    /// A sandbox run of `kind` was made; `failed` when it failed through the judge's fault.
    pub fn sandbox_run(&self, kind: RunKind, failed: bool) {
        self.with(|| {
            metrics::counter!(SANDBOX_RUNS, "kind" => kind.as_str()).increment(1);
            if failed {
                metrics::counter!(SANDBOX_FAILURES, "kind" => kind.as_str()).increment(1);
            }
        });
    }

    /// A compile looked in the compile cache: a hit (`true`) ran no compiler.
    pub fn compile_cache(&self, hit: bool) {
        self.with(|| {
            let name = if hit {
                COMPILE_CACHE_HITS
            } else {
                COMPILE_CACHE_MISSES
            };
            metrics::counter!(name).increment(1);
        });
    }

    /// An HTTP request was answered. `route` is the route's pattern (`/api/submissions/{id}`,
    /// never the path asked for, so the label's values stay few), `method` one of the
    /// standard methods or `other`.
    pub fn http_request(&self, route: &str, method: &str, status: u16) {
        let (route, method) = (route.to_string(), method.to_string());
        self.with(|| {
            metrics::counter!(HTTP_REQUESTS, "route" => route, "method" => method,
                "status" => status.to_string())
            .increment(1);
        });
    }

    /// Sets the password checks made so far (the hashing threads count them; read at each
    /// scrape).
    pub fn set_password_checks(&self, made: u64) {
        self.with(|| metrics::counter!(PASSWORD_CHECKS).absolute(made));
    }

    /// Sets the queue depth of one status (`queued`, `compiling`, `running`).
    pub fn set_queue_depth(&self, status: &str, depth: u64) {
        let status = status.to_string();
        self.with(|| metrics::gauge!(QUEUE_DEPTH, "status" => status).set(depth as f64));
    }

    /// Sets how many queued submissions no live judging node can claim.
    pub fn set_unclaimable(&self, n: u64) {
        self.with(|| metrics::gauge!(UNCLAIMABLE).set(n as f64));
    }

    /// This node's workers showed life now (a claim or a poll of the queue, a test done).
    pub fn beat(&self) {
        *self.inner.beat.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
    }

    /// The age of this node's last heartbeat (`None`: its workers never showed life, as on
    /// a node that runs no judging worker).
    pub fn heartbeat_age(&self) -> Option<Duration> {
        self.inner
            .beat
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .map(|at| at.elapsed())
    }

    /// Sets the heartbeat age of node `node`. The daemon sets its own at each scrape; a
    /// node that reads other nodes' heartbeats (the nodes table of a shared database) calls
    /// this for each of them before rendering, with `now - last heartbeat`.
    pub fn set_node_heartbeat_age(&self, node: &str, age: Duration) {
        let node = node.to_string();
        self.with(|| metrics::gauge!(HEARTBEAT_AGE, "node" => node).set(age.as_secs_f64()));
    }

    /// The node this registry belongs to.
    pub fn node(&self) -> &str {
        &self.inner.node
    }

    /// The Prometheus text exposition of every metric, with this node's heartbeat age set
    /// now.
    pub fn render(&self) -> String {
        if let Some(age) = self.heartbeat_age() {
            self.set_node_heartbeat_age(&self.inner.node.clone(), age);
        }
        self.inner.handle.run_upkeep();
        self.inner.handle.render()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(text: &str, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        let scrape = prometheus_parse::Scrape::parse(lines.into_iter().map(Ok)).ok()?;
        scrape
            .samples
            .iter()
            .find(|s| s.metric == name && labels.iter().all(|(k, v)| s.labels.get(k) == Some(*v)))
            .and_then(|s| match s.value {
                prometheus_parse::Value::Counter(v)
                | prometheus_parse::Value::Gauge(v)
                | prometheus_parse::Value::Untyped(v) => Some(v),
                _ => None,
            })
    }

    #[test]
    fn two_registries_count_apart() {
        let (a, b) = (Metrics::new("a"), Metrics::new("b"));
        a.judged("sudoku", "AC", Duration::from_millis(300));
        a.judged("sudoku", "AC", Duration::from_millis(300));
        b.judged("sudoku", "WA", Duration::from_millis(300));
        a.sandbox_run(RunKind::Test, true);
        let (ta, tb) = (a.render(), b.render());
        let ac = [("problem", "sudoku"), ("verdict", "AC")];
        assert_eq!(sample(&ta, JUDGED, &ac), Some(2.0), "{ta}");
        assert_eq!(sample(&tb, JUDGED, &ac), None, "{tb}");
        assert_eq!(sample(&tb, JUDGED, &[("verdict", "WA")]), Some(1.0), "{tb}");
        assert_eq!(
            sample(&ta, SANDBOX_FAILURES, &[("kind", "test")]),
            Some(1.0)
        );
        assert!(
            ta.contains("sudojudge_judge_duration_seconds_bucket{problem=\"sudoku\",le=\"0.5\"} 2"),
            "{ta}"
        );
        // A global recorder, if any, saw nothing of either.
        assert!(a.heartbeat_age().is_none());
        a.beat();
        let ta = a.render();
        let age = sample(&ta, HEARTBEAT_AGE, &[("node", "a")]).expect("own heartbeat");
        assert!((0.0..5.0).contains(&age), "{age}");
        a.set_node_heartbeat_age("other", Duration::from_secs(42));
        assert_eq!(
            sample(&a.render(), HEARTBEAT_AGE, &[("node", "other")]),
            Some(42.0)
        );
    }

    #[test]
    fn a_gauge_left_unset_is_dropped_and_one_set_at_each_scrape_stays() {
        let m = Metrics::with_gauge_idle("a", Duration::from_millis(200));
        m.set_node_heartbeat_age("gone", Duration::from_secs(3));
        m.set_unclaimable(2);
        assert_eq!(
            sample(&m.render(), HEARTBEAT_AGE, &[("node", "gone")]),
            Some(3.0)
        );
        for _ in 0..4 {
            std::thread::sleep(Duration::from_millis(100));
            m.set_node_heartbeat_age("here", Duration::from_secs(1));
            m.set_unclaimable(2);
            m.render();
        }
        let text = m.render();
        assert_eq!(
            sample(&text, HEARTBEAT_AGE, &[("node", "gone")]),
            None,
            "{text}"
        );
        assert_eq!(
            sample(&text, HEARTBEAT_AGE, &[("node", "here")]),
            Some(1.0),
            "{text}"
        );
        assert_eq!(sample(&text, UNCLAIMABLE, &[]), Some(2.0), "{text}");
    }
}
