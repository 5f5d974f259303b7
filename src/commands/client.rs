//! What `submit` and `status` share: the daemon's address and reading a submission back.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};
use sudojudge::config::Config;
use sudojudge::judge::{table, CompileInfo, JudgeReport, Verdict};
use sudojudge::store::{Status, Submission};

/// `--server URL` and `--token`, shared by `submit` and `status`.
#[derive(Debug, Clone, clap::Args)]
pub struct ServerArgs {
    /// Address of the daemon: `http://HOST:PORT`, or `HOST:PORT` [default: $SUDOJUDGE_SERVER,
    /// else the config's [server] listen address].
    #[arg(long, value_name = "URL", env = "SUDOJUDGE_SERVER")]
    pub server: Option<String>,
    /// API token (from `sudojudge user token` or POST /api/login); not needed in open mode.
    #[arg(long, env = "SUDOJUDGE_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
}

impl ServerArgs {
    /// The daemon's base URL, without a trailing `/`.
    pub fn base(&self, config: &Config) -> anyhow::Result<String> {
        match &self.server {
            Some(given) => base_url(given),
            None => base_url(&default_server(&config.server.listen)),
        }
    }
}

/// `given` as a base URL: `http://` is assumed when no scheme is written.
pub fn base_url(given: &str) -> anyhow::Result<String> {
    let given = given.trim();
    let url = if given.contains("://") {
        given.to_string()
    } else {
        format!("http://{given}")
    };
    let url = match url.trim_end_matches('/') {
        trimmed if trimmed.ends_with(':') => url.clone(),
        trimmed => trimmed.to_string(),
    };
    let parsed =
        reqwest::Url::parse(&url).with_context(|| format!("invalid --server {given:?}"))?;
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
        bail!("invalid --server {given:?}: expected http://HOST:PORT");
    }
    Ok(url)
}

/// Where a daemon started with `listen` answers from this machine.
fn default_server(listen: &str) -> String {
    match listen.parse::<SocketAddr>() {
        Ok(addr) if addr.ip().is_unspecified() && addr.is_ipv4() => {
            format!("127.0.0.1:{}", addr.port())
        }
        Ok(addr) if addr.ip().is_unspecified() => format!("[::1]:{}", addr.port()),
        _ => listen.to_string(),
    }
}

/// An HTTP client with a timeout, so an unreachable daemon is an error, not a hang, that
/// sends `token` (if any) as `Authorization: Bearer` with every request.
pub fn client(token: Option<&str>) -> anyhow::Result<reqwest::Client> {
    let mut headers = reqwest::header::HeaderMap::new();
    if let Some(token) = token {
        let value = reqwest::header::HeaderValue::from_str(&format!("Bearer {token}"))
            .context("the token is not a valid header value")?;
        headers.insert(reqwest::header::AUTHORIZATION, value);
    }
    reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .default_headers(headers)
        .build()
        .context("building the HTTP client")
}

/// `GET /api/submissions/{id}`, as the JSON the server sent and as a [`Submission`].
pub async fn fetch(
    client: &reqwest::Client,
    base: &str,
    id: i64,
) -> anyhow::Result<(serde_json::Value, Submission)> {
    let response = client
        .get(format!("{base}/api/submissions/{id}"))
        .send()
        .await
        .with_context(|| format!("asking {base} for submission {id}"))?;
    let value = answer(response, base, &format!("{base} answered")).await?;
    let submission = serde_json::from_value(value.clone())
        .with_context(|| format!("submission {id} from {base} is not in the expected form"))?;
    Ok((value, submission))
}

/// The JSON body of a response; an error status becomes an error quoting the server's
/// message, after `refused` (what the caller calls a refusal).
pub async fn answer(
    response: reqwest::Response,
    base: &str,
    refused: &str,
) -> anyhow::Result<serde_json::Value> {
    let status = response.status();
    let value: serde_json::Value = response
        .json()
        .await
        .with_context(|| format!("reading the answer of {base} (HTTP {status})"))?;
    if !status.is_success() {
        let message = value["error"]["message"].as_str().unwrap_or("no message");
        bail!("{refused} HTTP {status}: {message}");
    }
    Ok(value)
}

/// Prints a submission (its table when judged, its state otherwise) and returns the exit
/// code: 0 on AC, 1 on another verdict (or cancelled), 3 while it waits to be judged.
pub fn show(value: &serde_json::Value, submission: Submission, json: bool) -> ExitCode {
    if json {
        println!("{value}");
    } else if submission.status == Status::Done {
        print!("{}", table::render(&to_report(&submission)));
    } else {
        println!(
            "submission {} ({} {}): {}",
            submission.id,
            submission.problem,
            submission.language,
            submission.status.as_str()
        );
    }
    match (submission.status, submission.verdict) {
        (Status::Done, Some(verdict)) => super::judge::verdict_exit(verdict),
        (Status::Done, None) | (Status::Cancelled, _) => ExitCode::from(super::EXIT_FAILED),
        _ => ExitCode::from(super::EXIT_PENDING),
    }
}

fn to_report(s: &Submission) -> JudgeReport {
    let s = s.clone();
    JudgeReport {
        judge_failure: None,
        problem: s.problem,
        language: s.language,
        verdict: s.verdict.unwrap_or(Verdict::SE),
        score: s.score.unwrap_or(0),
        points: None,
        groups: Vec::new(),
        time_ms: s.time_ms.unwrap_or(0),
        memory_kib: s.memory_kib.unwrap_or(0),
        compile: s.compile.unwrap_or(CompileInfo {
            ok: false,
            log: String::new(),
            cached: false,
        }),
        tests: s.tests,
        message: s.message,
        degraded: s.degraded,
        data_hash: s.judged_data_hash,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_without_a_scheme_is_http() {
        assert_eq!(
            base_url("127.0.0.1:18080").unwrap(),
            "http://127.0.0.1:18080"
        );
        assert_eq!(
            base_url("localhost:8080/").unwrap(),
            "http://localhost:8080"
        );
        assert_eq!(
            base_url("https://judge.example").unwrap(),
            "https://judge.example"
        );
        assert!(base_url("ftp://x").is_err());
        assert!(base_url("http://").is_err());
    }

    #[test]
    fn the_default_server_is_the_listen_address_seen_from_here() {
        assert_eq!(default_server("0.0.0.0:9000"), "127.0.0.1:9000");
        assert_eq!(default_server("[::]:9000"), "[::1]:9000");
        assert_eq!(default_server("127.0.0.1:8080"), "127.0.0.1:8080");
        assert_eq!(default_server("localhost:8080"), "localhost:8080");
    }
}
