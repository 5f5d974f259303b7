//! The language table: how to compile and run a source in each supported language.
//!
//! Built from the `[languages.*]` sections of the config. [`compile`] runs the compiler in a
//! sandbox box with the `[compile]` limits and keeps the artifacts in a host temporary
//! folder owned by the judge (never inside a box); [`Program::run_request`] then makes the
//! [`RunRequest`] of each test. [`compile_cached`] first looks in the compiled-program
//! cache ([`cache`]) and stores what it compiles there.
//!
//! - [`cache`]: the compiled-program cache shared by every process of the host.

pub mod cache;
pub mod java;

use std::path::{Path, PathBuf};

use crate::config::{CompileConfig, Config, EntryPointRule, LanguageConfig};
use crate::sandbox::boxdir::BoxDirError;
use crate::sandbox::rootfs::Devices;
use crate::sandbox::{Limits, RunOptions, RunReport, RunRequest, RunStatus, Sandbox, SandboxError};

use cache::{CacheUse, CompileCache, Lookup};

/// The one message every entry point (CLI and HTTP) refuses a blank source with.
pub const EMPTY_SOURCE: &str = "source is empty";

/// Whether a source is empty or only whitespace: refused before any compile, the same way
/// by `judge`, `run`, `submit` and the HTTP API (no language gets to turn it into a CE or WA).
pub fn is_blank(source: &[u8]) -> bool {
    String::from_utf8_lossy(source).trim().is_empty()
}

/// Largest file a compiler may write (the binary), in bytes.
pub const COMPILE_FILE_SIZE: u64 = 256 << 20;

/// One language of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Language {
    /// Its id (`c17`, `cpp98`, `rust`, `python`...), the key under `[languages]`: what a
    /// submission records.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Other ids naming it (`c`, `cpp`).
    pub aliases: Vec<String>,
    /// Extensions (without the dot) that select it.
    pub extensions: Vec<String>,
    /// File name of the source inside the box.
    pub source: String,
    /// Compile command with `{source}` and `{binary}` substituted; `None`: no compile step.
    pub compile: Option<Vec<String>>,
    /// Files of the compile the run needs.
    pub artifacts: Vec<String>,
    /// Run command.
    pub run: Vec<String>,
    /// Extra environment for compile and run.
    pub env: Vec<(String, String)>,
    /// Memory added to a problem's limit for this language (an interpreter's footprint).
    pub extra_memory_mb: u64,
    /// Processes and threads added to the sandbox's bound for this language (a JVM's).
    pub extra_processes: u32,
    /// How the entry point is found in a source (`None`: `source` as it is).
    pub entry_point: Option<EntryPointRule>,
    /// Stderr text of a failed run that means the runtime ran out of its memory (MLE).
    pub memory_error: Option<String>,
}

/// Where one source starts: the file name it is compiled under and the class to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// File name of the source inside the box (`{source}`).
    pub source: String,
    /// The class to run (`{mainclass}`), empty for languages without one.
    pub main_class: String,
}

impl Language {
    fn from_config(id: &str, c: &LanguageConfig) -> Language {
        Language {
            id: id.to_string(),
            name: c.name.clone(),
            aliases: c.aliases.clone(),
            extensions: c.extensions.clone(),
            source: c.source.clone(),
            compile: c.compile.clone(),
            artifacts: c.artifacts.clone(),
            run: c.run.clone(),
            env: c.env.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            extra_memory_mb: c.extra_memory_mb,
            extra_processes: c.extra_processes,
            entry_point: c.entry_point,
            memory_error: c.memory_error.clone(),
        }
    }

    /// Where `source` starts: its file name in the box and its main class, or why it cannot
    /// be found (a compile error).
    pub fn entry(&self, source: &[u8]) -> Result<Entry, String> {
        match self.entry_point {
            None => Ok(Entry {
                source: self.source.clone(),
                main_class: String::new(),
            }),
            Some(EntryPointRule::Java) => {
                let text = std::str::from_utf8(source)
                    .map_err(|_| "the source is not UTF-8".to_string())?;
                let found = java::entry(text)?;
                Ok(Entry {
                    source: self.source.replace("{mainclass}", &found.file_stem),
                    main_class: found.main_class,
                })
            }
        }
    }

    fn binary(&self) -> &str {
        self.artifacts.first().map(String::as_str).unwrap_or("main")
    }

    fn substitute(&self, arg: &str, entry: &Entry) -> String {
        arg.replace("{source}", &entry.source)
            .replace("{binary}", self.binary())
            .replace("{mainclass}", &entry.main_class)
    }
}

/// Every configured language, by id.
#[derive(Debug, Clone)]
pub struct LanguageTable {
    languages: Vec<Language>,
}

impl LanguageTable {
    /// The table of the `[languages.*]` sections.
    pub fn from_config(config: &Config) -> LanguageTable {
        LanguageTable {
            languages: config
                .languages
                .iter()
                .map(|(id, c)| Language::from_config(id, c))
                .collect(),
        }
    }

    /// The language with this id or alias (`cpp` is the `cpp17` entry).
    pub fn get(&self, id: &str) -> Option<&Language> {
        self.languages.iter().find(|l| l.id == id).or_else(|| {
            self.languages
                .iter()
                .find(|l| l.aliases.iter().any(|a| a == id))
        })
    }

    /// The other names of the entry `id` (empty for an unknown id).
    pub fn aliases_of(&self, id: &str) -> &[String] {
        self.get(id).map_or(&[], |l| l.aliases.as_slice())
    }

    /// Every id and alias a submission may name, ordered, for error messages.
    pub fn known_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .languages
            .iter()
            .flat_map(|l| std::iter::once(&l.id).chain(&l.aliases))
            .cloned()
            .collect();
        ids.sort();
        ids
    }

    /// The language a file's extension selects.
    pub fn guess(&self, path: &Path) -> Option<&Language> {
        // An extension listed exactly wins (`C` is C++ by gcc's rule), else any case (`CC`).
        let raw = path.extension()?.to_str()?;
        let lower = raw.to_ascii_lowercase();
        let exact = |e: &String| e == raw;
        let any_case = |e: &String| e.to_ascii_lowercase() == lower && e == &e.to_ascii_lowercase();
        self.languages
            .iter()
            .find(|l| l.extensions.iter().any(exact))
            .or_else(|| {
                self.languages
                    .iter()
                    .find(|l| l.extensions.iter().any(any_case))
            })
    }

    /// Every language, ordered by id.
    pub fn iter(&self) -> impl Iterator<Item = &Language> {
        self.languages.iter()
    }
}

/// A compiled (or, for interpreted languages, stored) program ready to run tests.
#[derive(Debug)]
pub struct Program {
    language: Language,
    entry: Box<Entry>,
    dir: tempfile::TempDir,
    files: Vec<(String, PathBuf)>,
    log: String,
    cache: CacheUse,
}

impl Program {
    /// Whether the program came from the compile cache (no compiler ran) or was compiled.
    pub fn cache_use(&self) -> CacheUse {
        self.cache
    }

    /// The language it was written in.
    pub fn language(&self) -> &Language {
        &self.language
    }

    /// The compiler's messages (warnings), possibly empty.
    pub fn compile_log(&self) -> &str {
        &self.log
    }

    /// The host folder holding the artifacts (removed when the program is dropped).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// The request running this program on one test: the artifacts copied into the box,
    /// the language's extra memory and processes added to `limits`. `{memory_mb}` in the
    /// run command is the limit before the extra (a JVM's heap: its own memory is the extra).
    pub fn run_request(&self, stdin: Option<PathBuf>, limits: Limits) -> RunRequest {
        let mut limits = limits;
        let memory_mb = (limits.memory_bytes >> 20).max(1).to_string();
        limits.memory_bytes = limits
            .memory_bytes
            .saturating_add(self.language.extra_memory_mb << 20);
        limits.max_processes = limits
            .max_processes
            .saturating_add(self.language.extra_processes);
        RunRequest {
            argv: self
                .language
                .run
                .iter()
                .map(|a| {
                    self.language
                        .substitute(a, &self.entry)
                        .replace("{memory_mb}", &memory_mb)
                })
                .collect(),
            files: self.files.clone(),
            stdin,
            env: self.language.env.clone(),
            limits,
            collect: Vec::new(),
        }
    }
}

impl Program {
    /// `report` as the language reads it: a failed run whose stderr holds the language's
    /// `memory_error` text (the JVM's heap exhausted) is a memory-limit run.
    pub fn classify(&self, report: &mut RunReport) {
        let Some(marker) = self.language.memory_error.as_deref() else {
            return;
        };
        if report.status == RunStatus::RuntimeError
            && !marker.is_empty()
            && report
                .stderr
                .windows(marker.len())
                .any(|w| w == marker.as_bytes())
        {
            report.status = RunStatus::MemoryLimit;
        }
    }
}

/// A compile that did not produce a program.
#[derive(Debug, Clone)]
pub struct CompileFailure {
    /// The compiler's messages (truncated) and, for a limit, which one.
    pub log: String,
    /// The compile's own run report.
    pub report: RunReport,
}

/// The outcome of [`compile`].
#[derive(Debug)]
pub enum Compiled {
    /// Ready to run (boxed: a program is much larger than a failure).
    Program(Box<Program>),
    /// A compile error (the submission's fault: verdict CE).
    Failed(CompileFailure),
}

/// The limits of a compile.
pub fn compile_limits(c: &CompileConfig) -> Limits {
    Limits {
        cpu_time_ms: c.time_limit_ms,
        wall_time_ms: c.wall_limit_ms,
        memory_bytes: c.memory_limit_mb << 20,
        output_bytes: c.output_limit_kib << 10,
        max_processes: c.max_processes,
    }
}

/// Joins the compiler's stdout and stderr into one log of at most `max` bytes.
pub fn make_log(stdout: &[u8], stderr: &[u8], max: usize) -> String {
    let mut text = String::from_utf8_lossy(stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(stderr));
    if text.len() > max {
        let mut cut = max;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push_str("\n[... truncated]\n");
    }
    text
}

fn limit_message(report: &RunReport, limits: &Limits) -> Option<String> {
    Some(match report.status {
        RunStatus::TimeLimit => format!(
            "compilation stopped: time limit ({} ms CPU, {} ms wall)",
            limits.cpu_time_ms, limits.wall_time_ms
        ),
        RunStatus::MemoryLimit => format!(
            "compilation stopped: memory limit ({} MiB)",
            limits.memory_bytes >> 20
        ),
        RunStatus::OutputLimit => format!(
            "compilation stopped: output limit ({} KiB of messages or {} MiB per file)",
            limits.output_bytes >> 10,
            COMPILE_FILE_SIZE >> 20
        ),
        RunStatus::RuntimeError => match (report.exit_code, report.signal) {
            (_, Some(sig)) => format!("the compiler was killed by signal {sig}"),
            (Some(code), None) => format!("the compiler exited with code {code}"),
            (None, None) => "the compiler failed".to_string(),
        },
        RunStatus::Ok => return None,
    })
}

fn host_io<'a>(
    op: &'static str,
    path: &'a Path,
) -> impl FnOnce(std::io::Error) -> SandboxError + 'a {
    move |source| {
        SandboxError::BoxDir(BoxDirError::Io {
            op,
            path: path.to_path_buf(),
            source,
        })
    }
}

/// Compiles `source` in a fresh box under `limits`. A compile error, including one caused by
/// a limit (a compiler bomb), is `Ok(Compiled::Failed)`; `Err` is the judge's fault.
pub fn compile(
    sandbox: &Sandbox,
    language: &Language,
    source: &[u8],
    limits: &CompileConfig,
) -> Result<Compiled, SandboxError> {
    compile_cached(sandbox, language, source, limits, None)
}

/// [`compile`] through `cache`: a program compiled before with the same key is taken from it
/// (no box, no compiler), and a successful compile is stored in it.
pub fn compile_cached(
    sandbox: &Sandbox,
    language: &Language,
    source: &[u8],
    limits: &CompileConfig,
    cache: Option<&CompileCache>,
) -> Result<Compiled, SandboxError> {
    let dir = tempfile::Builder::new()
        .prefix(&crate::sandbox::boxdir::program_dir_prefix())
        .tempdir_in(sandbox.box_root())
        .map_err(host_io("create temp folder in", sandbox.box_root()))?;
    let entry = match language.entry(source) {
        Ok(entry) => Box::new(entry),
        Err(why) => {
            return Ok(Compiled::Failed(CompileFailure {
                log: format!("{why}\n"),
                report: RunReport {
                    status: RunStatus::RuntimeError,
                    exit_code: None,
                    signal: None,
                    time_ms: 0,
                    wall_ms: 0,
                    memory_kib: 0,
                    stdout: Vec::new(),
                    stderr: Vec::new(),
                    degraded: false,
                },
            }))
        }
    };
    let src_path = dir.path().join(&entry.source);
    std::fs::write(&src_path, source).map_err(host_io("write", &src_path))?;
    let Some(command) = &language.compile else {
        return Ok(Compiled::Program(Box::new(Program {
            language: language.clone(),
            files: vec![(entry.source.clone(), src_path)],
            entry,
            dir,
            log: String::new(),
            cache: CacheUse::Off,
        })));
    };
    let mut run_limits = compile_limits(limits);
    run_limits.max_processes = run_limits
        .max_processes
        .saturating_add(language.extra_processes);
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).map_err(host_io("mkdir", &out_dir))?;
    let argv: Vec<String> = command
        .iter()
        .map(|a| language.substitute(a, &entry))
        .collect();
    let keyed = cache.and_then(|c| Some((c, c.key(language, &argv, limits, source)?)));
    if let Some((cache, key)) = &keyed {
        if let Lookup::Hit(restored) = cache.load(key, &language.artifacts, &out_dir) {
            return Ok(Compiled::Program(Box::new(Program {
                language: language.clone(),
                entry,
                files: restored.files,
                dir,
                log: restored.log,
                cache: CacheUse::Hit,
            })));
        }
    }
    let collect: Vec<(String, PathBuf)> = language
        .artifacts
        .iter()
        .map(|a| (a.clone(), out_dir.join(a)))
        .collect();
    let request = RunRequest {
        argv,
        files: vec![(entry.source.clone(), src_path)],
        stdin: None,
        env: language.env.clone(),
        limits: run_limits,
        collect: collect.clone(),
    };
    let report = sandbox.run_with(
        &request,
        RunOptions {
            file_size_bytes: Some(COMPILE_FILE_SIZE),
            devices: Devices::NullOnly,
        },
    )?;
    let max_log = run_limits.output_bytes as usize;
    let mut log = make_log(&report.stdout, &report.stderr, max_log);
    if let Some(why) = limit_message(&report, &run_limits) {
        if !log.is_empty() && !log.ends_with('\n') {
            log.push('\n');
        }
        log.push_str(&why);
        log.push('\n');
        return Ok(Compiled::Failed(CompileFailure { log, report }));
    }
    let missing: Vec<&str> = collect
        .iter()
        .filter(|(_, host)| !host.is_file())
        .map(|(name, _)| name.as_str())
        .collect();
    if !missing.is_empty() {
        log.push_str(&format!(
            "the compiler produced no usable {}\n",
            missing.join(", ")
        ));
        return Ok(Compiled::Failed(CompileFailure { log, report }));
    }
    let cache = match &keyed {
        Some((cache, key)) => {
            cache.store(key, &log, &collect);
            CacheUse::Miss
        }
        None => CacheUse::Off,
    };
    Ok(Compiled::Program(Box::new(Program {
        language: language.clone(),
        entry,
        files: collect,
        dir,
        log,
        cache,
    })))
}

#[cfg(test)]
mod tests;
