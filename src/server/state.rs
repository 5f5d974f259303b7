//! What every request handler shares.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Notify, Semaphore};

use crate::accounts::checks::{self, PasswordChecks};
use crate::config::{Config, Feedback};
use crate::judge::CustomRun;
use crate::languages::LanguageTable;
use crate::metrics::Metrics;
use crate::node::NodeIdentity;
use crate::store::Store;
use crate::worker::Problems;

/// The server's shared state (cheap to clone: everything is behind `Arc`).
#[derive(Clone)]
pub struct AppState {
    /// Submissions and the queue.
    pub store: Store,
    /// Problems by id.
    pub problems: Arc<Problems>,
    /// Language ids accepted.
    pub languages: Arc<BTreeSet<String>>,
    /// Largest accepted source, in bytes.
    pub max_source_bytes: usize,
    /// Largest uploaded package zip, in bytes (`[problems] max_upload_kib`).
    pub max_upload_bytes: usize,
    /// Largest accepted stdin of a custom run, in bytes.
    pub max_stdin_bytes: usize,
    /// Poked after every new queued submission to wake an idle worker.
    pub wake: Arc<Notify>,
    /// Number of judging workers (for /api/health).
    pub workers: usize,
    /// What the sandbox can use on this host (for /api/health).
    pub sandbox: Arc<serde_json::Value>,
    /// Custom invocations; `None` when this server runs none.
    pub runner: Option<Arc<dyn CustomRun>>,
    /// Bounds concurrent custom runs to the runner's slots.
    pub run_permits: Arc<Semaphore>,
    /// Bounds the custom runs running or waiting for a slot (`[run] waiting_per_slot`).
    pub run_line: Arc<Semaphore>,
    /// The size of that line (for the 503's message).
    pub run_line_size: usize,
    /// Submissions allowed to wait in the queue (`[server] max_queued`).
    pub max_queued: u64,
    /// One contestant's queued submissions at most (`[server] max_queued_per_user`; `None`:
    /// no bound).
    pub max_queued_per_user: Option<u64>,
    /// Places of `max_queued` kept for contest submissions (`[server] contest_reserve`;
    /// `None`: a fifth of it), see [`AppState::plain_max_queued`].
    pub contest_reserve: Option<u64>,
    /// Questions one contestant may ask per contest in a sliding span (`[contests]
    /// question_rate`; `None`: no limit).
    pub question_rate: Option<crate::contest::Rate>,
    /// Longest question, in characters (`[contests] max_question_chars`).
    pub max_question_chars: usize,
    /// What readers see of secret tests (`[server] feedback`).
    pub feedback: Feedback,
    /// Time a client has to send a request body.
    pub body_timeout: Duration,
    /// Time a request may take from its headers to its answer.
    pub request_timeout: Duration,
    /// Accounts settings and the login and run rate limits.
    pub auth: Arc<super::auth_settings::Auth>,
    /// The hashing threads of logins' password checks and their line (`[accounts]
    /// password_threads`, `password_waiting_per_thread`).
    pub passwords: Arc<PasswordChecks>,
    /// The session and visitor cookies' settings (web pages).
    pub cookies: super::session::CookiePolicy,
    /// The configured languages with their names and extensions (web pages' submit form).
    pub language_table: Arc<LanguageTable>,
    /// The contests, their clock and their cached boards.
    pub contests: Arc<super::services::contests::loaded::Contests>,
    /// This node's name (for /api/health and the metrics).
    pub node: Arc<str>,
    /// The daemon's metrics registry (`GET /metrics`).
    pub metrics: Metrics,
    /// The token a metrics scraper may send (`[metrics] token`).
    pub metrics_token: Option<Arc<str>>,
    /// One package upload's body read at a time on this node (their bodies are large).
    pub upload_line: Arc<Semaphore>,
    /// Adds uploaded packages (`POST /api/problems`, the admin page's form); `None` in a
    /// state that no daemon runs.
    pub packages: Option<Arc<crate::packages::PackageSync>>,
    /// Becomes `true` when the daemon stops, so endless answers (the Contest API's event
    /// feed) end and the listener's graceful shutdown is not held; never, in a state that
    /// no daemon runs.
    pub stopping: tokio::sync::watch::Receiver<bool>,
}

impl AppState {
    /// The state of a server on `config`: its request limits, its lines, its feedback rule,
    /// its accounts settings and rate limits (no contests: see [`AppState::with_contests`]).
    /// `runner` is `None` for a server that runs no custom invocations.
    pub fn new(
        config: &Config,
        store: Store,
        problems: Arc<Problems>,
        workers: usize,
        sandbox: serde_json::Value,
        runner: Option<Arc<dyn CustomRun>>,
        wake: Arc<Notify>,
    ) -> AppState {
        let kib = |n: u64| usize::try_from(n.saturating_mul(1024)).unwrap_or(usize::MAX / 4);
        let slots = runner.as_ref().map_or(0, |r| r.size());
        let run_line_size = slots.saturating_mul(1 + config.run.waiting_per_slot);
        let millis = |ms: u64| Duration::from_millis(ms.max(1));
        let node = NodeIdentity::name_of(config);
        let hashing = checks::thread_count(config.accounts.password_threads);
        AppState {
            store,
            problems,
            languages: Arc::new(config.languages.keys().cloned().collect()),
            max_source_bytes: kib(config.server.max_source_kib),
            max_stdin_bytes: kib(config.run.max_stdin_kib),
            max_upload_bytes: kib(config.problems.max_upload_kib),
            wake,
            workers,
            sandbox: Arc::new(sandbox),
            runner,
            run_permits: Arc::new(Semaphore::new(slots)),
            run_line: Arc::new(Semaphore::new(run_line_size)),
            run_line_size,
            max_queued: config.server.max_queued,
            max_queued_per_user: Some(config.server.max_queued_per_user).filter(|n| *n > 0),
            contest_reserve: config.server.contest_reserve,
            question_rate: {
                let q = config.contests.question_rate;
                (q.questions > 0).then(|| crate::contest::Rate {
                    submissions: q.questions,
                    per: jiff::SignedDuration::from_mins(i64::from(q.per_minutes.max(1))),
                })
            },
            max_question_chars: config.contests.max_question_chars.max(1),
            feedback: config.server.feedback,
            body_timeout: millis(config.server.body_timeout_ms),
            request_timeout: millis(config.server.request_timeout_ms),
            auth: Arc::new(super::auth_settings::Auth::from_config(&config.accounts)),
            passwords: Arc::new(PasswordChecks::new(
                hashing,
                hashing.saturating_mul(config.accounts.password_waiting_per_thread),
            )),
            cookies: super::session::CookiePolicy {
                secure: config.accounts.secure_cookies,
                session_ttl: Duration::from_secs(
                    config.accounts.login_token_hours.saturating_mul(3600),
                ),
            },
            language_table: Arc::new(LanguageTable::from_config(config)),
            contests: Arc::new(super::services::contests::loaded::Contests::new(
                Vec::new(),
                Arc::new(crate::contest::SystemClock),
            )),
            node: Arc::from(node.as_str()),
            metrics: Metrics::new(node.as_str()),
            metrics_token: config
                .metrics
                .token
                .as_deref()
                .filter(|t| !t.is_empty())
                .map(Arc::from),
            stopping: tokio::sync::watch::channel(false).1,
            upload_line: Arc::new(Semaphore::new(1)),
            packages: None,
        }
    }

    /// The same state serving `contests` (a new state has none).
    pub fn with_contests(
        mut self,
        contests: Arc<super::services::contests::loaded::Contests>,
    ) -> AppState {
        self.contests = contests;
        self
    }

    /// Queued submissions a plain (non-contest) submission may find waiting: `max_queued`
    /// less the contest reserve, so a flood of plain submissions leaves room for contest
    /// ones (no reserve when no contest is loaded; it always leaves plain ones one place).
    pub fn plain_max_queued(&self) -> u64 {
        if self.contests.all().is_empty() {
            return self.max_queued;
        }
        let reserve = self
            .contest_reserve
            .unwrap_or(self.max_queued / 5)
            .min(self.max_queued.saturating_sub(1));
        self.max_queued - reserve
    }

    /// The bound of `caller`'s own queued submissions: `[server] max_queued_per_user` for
    /// contestants; the jury (admins, the open mode's host) is not bound.
    pub fn per_user_bound(&self, caller: &crate::accounts::Caller) -> Option<u64> {
        match crate::accounts::access::contest_audience(caller) {
            crate::contest::Audience::Admin => None,
            crate::contest::Audience::Public => self.max_queued_per_user,
        }
    }
}
