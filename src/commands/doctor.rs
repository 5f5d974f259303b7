//! `sudojudge doctor`.

use std::path::Path;
use std::process::ExitCode;

use serde_json::json;
use sudojudge::config::{toolchain, Config, LanguageConfig};
use sudojudge::sandbox::{probe, Limits, RunRequest, RunStatus, Sandbox};

/// Arguments of `sudojudge doctor`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `/bin/true` in a real box: proof that the whole chain works, not only its parts.
fn trial_run(config: &Config) -> Result<String, String> {
    let sandbox = Sandbox::any(&config.sandbox).map_err(|e| e.to_string())?;
    let request = RunRequest {
        argv: vec!["/bin/true".into()],
        files: Vec::new(),
        stdin: None,
        env: Vec::new(),
        limits: Limits {
            cpu_time_ms: 1000,
            wall_time_ms: 3000,
            memory_bytes: 64 << 20,
            output_bytes: 4096,
            max_processes: 4,
        },
        collect: Vec::new(),
    };
    let report = sandbox.run(&request).map_err(|e| e.to_string())?;
    if report.status == RunStatus::Ok {
        Ok(format!(
            "ok ({} ms wall{})",
            report.wall_ms,
            if report.degraded { ", degraded" } else { "" }
        ))
    } else {
        Err(format!("/bin/true ended as {:?}", report.status))
    }
}

/// What this host offers one language: the program that compiles (or runs) it, its version,
/// and the toolchain folder found for it, if it asks for one.
fn language_report(config: &Config, id: &str, language: &LanguageConfig) -> serde_json::Value {
    let program = language
        .compile
        .as_ref()
        .and_then(|c| c.first())
        .or(language.run.first())
        .filter(|p| p.starts_with('/'));
    let version = program.and_then(|p| toolchain::version(Path::new(p)));
    json!({
        "name": language.name,
        "aliases": language.aliases,
        "program": program,
        "found": version.is_some(),
        "version": version,
        "toolchain": config.toolchains.found.get(id),
    })
}

/// The compile cache as the judge would open it: its folder and use, off, or refused.
fn cache_report(config: &Config) -> serde_json::Value {
    match sudojudge::languages::cache::CompileCache::open(config) {
        Ok(None) => json!({"off": true}),
        Ok(Some(cache)) => {
            let (entries, bytes) = cache.usage().unwrap_or((0, 0));
            json!({
                "dir": cache.dir().display().to_string(),
                "entries": entries,
                "bytes": bytes,
                "bound_mb": cache.bound() >> 20,
            })
        }
        Err(e) => json!({"refused": e.to_string()}),
    }
}

/// Runs `sudojudge doctor`: exit 0 when fully isolated, 1 when something is missing.
pub fn run(config: Option<&Path>, args: Args) -> anyhow::Result<ExitCode> {
    let config = super::load_config(config)?;
    let caps = probe(&config.sandbox);
    let trial = trial_run(&config);
    let cache = cache_report(&config);
    let ok = caps.isolated && trial.is_ok();
    let languages: serde_json::Map<String, serde_json::Value> = config
        .languages
        .iter()
        .map(|(id, l)| (id.clone(), language_report(&config, id, l)))
        .collect();
    if args.json {
        let out = json!({
            "ok": ok,
            "config": config.source.to_string(),
            "languages": languages,
            "missing_languages": config.toolchains.missing,
            "capabilities": caps,
            "compile_cache": cache,
            "trial_run": match &trial { Ok(m) => json!({"ok": true, "message": m}),
                                        Err(e) => json!({"ok": false, "message": e}) },
        });
        println!("{out}");
    } else {
        let yes = |b: bool| if b { "yes" } else { "NO" };
        println!("config: {}", config.source);
        for (id, report) in &languages {
            let program = report["program"]
                .as_str()
                .unwrap_or("(no absolute program)");
            let aliases = match report["aliases"].as_array() {
                Some(a) if !a.is_empty() => {
                    let names: Vec<&str> = a.iter().filter_map(|v| v.as_str()).collect();
                    format!("; alias {}", names.join(", "))
                }
                _ => String::new(),
            };
            let name = report["name"].as_str().unwrap_or("");
            match report["version"].as_str() {
                Some(v) => print!("language {id}: {program} ({v}) [{name}{aliases}]"),
                None => {
                    print!("language {id}: {program} NOT FOUND or not runnable [{name}{aliases}]")
                }
            }
            match report["toolchain"]["folder"].as_str() {
                Some(folder) => println!(", toolchain {folder} (mounted in boxes)"),
                None => println!(),
            }
        }
        for (id, why) in &config.toolchains.missing {
            println!("language {id}: NOT OFFERED: {why}");
        }
        println!("root with CAP_SYS_ADMIN: {}", yes(caps.root));
        for (ns, present) in &caps.namespaces {
            println!("{ns} namespace: {}", yes(*present));
        }
        match caps.cgroup {
            Some(v) => println!(
                "cgroup: {v:?} ({}), swap limit: {}",
                caps.cgroup_controllers.join(", "),
                yes(caps.swap_limit)
            ),
            None => println!(
                "cgroup: NONE ({})",
                caps.cgroup_error.as_deref().unwrap_or("unknown")
            ),
        }
        println!("seccomp: {}", yes(caps.seccomp));
        for m in &caps.missing_mounts {
            println!("configured mount missing on this host: {}", m.display());
        }
        match (&cache["dir"], &cache["refused"]) {
            (serde_json::Value::String(dir), _) => println!(
                "compile cache: {dir}, {} entries, {} of {} MiB",
                cache["entries"],
                cache["bytes"].as_u64().unwrap_or(0) >> 20,
                cache["bound_mb"]
            ),
            (_, serde_json::Value::String(why)) => println!("compile cache: REFUSED: {why}"),
            _ => println!("compile cache: off ([compile] cache_mb = 0)"),
        }
        match &trial {
            Ok(m) => println!("trial run of /bin/true in a box: {m}"),
            Err(e) => println!("trial run of /bin/true in a box: FAILED: {e}"),
        }
        if caps.missing.is_empty() {
            println!("fully isolated: yes");
        } else {
            println!(
                "fully isolated: NO; missing: {}{}",
                caps.missing.join("; "),
                if caps.degraded_allowed {
                    " (allow_degraded = true: runs are rlimit-only)"
                } else {
                    " (the judge refuses to start)"
                }
            );
        }
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
