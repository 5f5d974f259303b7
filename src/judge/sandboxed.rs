//! The real executor: compiles and runs in sandbox boxes of one worker slot.

use std::path::Path;
use std::sync::Mutex;

use crate::config::{CompileConfig, Config};
use crate::languages::cache::{CacheUse, CompileCache};
use crate::languages::{self, LanguageTable, Program};
use crate::problem::FileIo;
use crate::sandbox::pair::{run_pair, PairOptions};
use crate::sandbox::{Limits, RunReport, Sandbox, SandboxError};

use super::executor::{
    Compilation, Executor, ExecutorError, InteractiveCall, InteractiveReport, ValidatorCall,
};

/// One slot's sandbox with the language table and compile limits.
pub struct SandboxExecutor {
    sandbox: Sandbox,
    languages: LanguageTable,
    compile: CompileConfig,
    cache: Option<CompileCache>,
    cache_refused: Option<String>,
    /// The second slot interactive validators run in, leased on first use.
    partner: Mutex<Option<Sandbox>>,
}

impl SandboxExecutor {
    /// The executor of slot `slot` (waits for another process to free it); fails when the
    /// sandbox is unusable.
    pub fn new(config: &Config, slot: u32) -> Result<SandboxExecutor, SandboxError> {
        Ok(SandboxExecutor::with_sandbox(
            Sandbox::new(&config.sandbox, slot)?,
            config,
        ))
    }

    /// The executor of the lowest sandbox slot free on this host (every process judges on
    /// slots of its own).
    pub fn any(config: &Config) -> Result<SandboxExecutor, SandboxError> {
        Ok(SandboxExecutor::with_sandbox(
            Sandbox::any(&config.sandbox)?,
            config,
        ))
    }

    /// The executor over an already made sandbox (benchmarks set its helper binary), with
    /// the compile cache `config` asks for. A cache folder that cannot be used is logged and
    /// left alone: every compile then runs.
    pub fn with_sandbox(sandbox: Sandbox, config: &Config) -> SandboxExecutor {
        let (cache, cache_refused) = match CompileCache::open(config) {
            Ok(cache) => (cache, None),
            Err(e) => {
                tracing::warn!(error = %e, "the compile cache is off");
                (None, Some(e.to_string()))
            }
        };
        SandboxExecutor {
            sandbox,
            languages: LanguageTable::from_config(config),
            compile: config.compile.clone(),
            cache,
            cache_refused,
            partner: Mutex::new(None),
        }
    }

    /// Why the configured compile cache is not used (its folder is unsafe or cannot be made),
    /// for the commands without a log to say so.
    pub fn cache_refused(&self) -> Option<&str> {
        self.cache_refused.as_deref()
    }

    /// The compile cache this executor uses, if any.
    pub fn cache(&self) -> Option<&CompileCache> {
        self.cache.as_ref()
    }

    /// The slot's sandbox.
    pub fn sandbox(&self) -> &Sandbox {
        &self.sandbox
    }
}

impl Executor for SandboxExecutor {
    type Program = Program;

    fn compile(
        &self,
        language: &str,
        source: &[u8],
    ) -> Result<Compilation<Program>, ExecutorError> {
        let lang = self
            .languages
            .get(language)
            .ok_or_else(|| ExecutorError(format!("unknown language {language:?}")))?;
        let cache = self.cache.as_ref();
        match languages::compile_cached(&self.sandbox, lang, source, &self.compile, cache) {
            Ok(languages::Compiled::Program(program)) => Ok(Compilation::Ready {
                log: program.compile_log().to_string(),
                cache: program.cache_use(),
                program: *program,
            }),
            Ok(languages::Compiled::Failed(failure)) => Ok(Compilation::Failed {
                log: failure.log,
                cache: if cache.is_some() {
                    CacheUse::Miss
                } else {
                    CacheUse::Off
                },
            }),
            Err(e) => Err(ExecutorError(e.to_string())),
        }
    }

    fn run(
        &self,
        program: &Program,
        stdin: &Path,
        limits: Limits,
    ) -> Result<RunReport, ExecutorError> {
        let request = program.run_request(Some(stdin.to_path_buf()), limits);
        let mut report = self
            .sandbox
            .run(&request)
            .map_err(|e| ExecutorError(e.to_string()))?;
        program.classify(&mut report);
        Ok(report)
    }

    fn run_test(
        &self,
        program: &Program,
        input: &Path,
        files: &FileIo,
        limits: Limits,
    ) -> Result<RunReport, ExecutorError> {
        let mut request = program.run_request(Some(input.to_path_buf()), limits);
        let collected =
            super::file_io::prepare(&mut request, files, input, self.sandbox.box_root())
                .map_err(ExecutorError)?;
        let mut report = self
            .sandbox
            .run(&request)
            .map_err(|e| ExecutorError(e.to_string()))?;
        super::file_io::take_output(&mut report, collected, limits.output_bytes)
            .map_err(ExecutorError)?;
        program.classify(&mut report);
        Ok(report)
    }

    fn run_validator(
        &self,
        program: &Program,
        call: &ValidatorCall,
    ) -> Result<RunReport, ExecutorError> {
        let mut request = program.run_request(Some(call.stdin.clone()), call.limits);
        request.argv.extend(call.args.iter().cloned());
        request.files.extend(call.files.iter().cloned());
        request.collect = call.collect.clone();
        self.sandbox
            .run(&request)
            .map_err(|e| ExecutorError(e.to_string()))
    }

    fn run_interactive(
        &self,
        program: &Program,
        validator: &Program,
        call: &InteractiveCall,
    ) -> Result<InteractiveReport, ExecutorError> {
        let submission = program.run_request(None, call.submission_limits);
        let mut checker = validator.run_request(None, call.validator_limits);
        checker.argv.extend(call.args.iter().cloned());
        checker.files.extend(call.files.iter().cloned());
        checker.collect = call.collect.clone();
        let mut partner = self.partner.lock().unwrap_or_else(|e| e.into_inner());
        if partner.is_none() {
            let leased = self.sandbox.partner().map_err(|e| {
                ExecutorError(format!("a second sandbox slot for the validator: {e}"))
            })?;
            *partner = Some(leased);
        }
        let Some(partner) = partner.as_ref() else {
            return Err(ExecutorError("no sandbox slot for the validator".into()));
        };
        let options = PairOptions {
            keep_input_after: Some(super::validate::KATTIS_ACCEPT),
        };
        let pair = run_pair(&self.sandbox, &submission, partner, &checker, options)
            .map_err(|e| ExecutorError(e.to_string()))?;
        Ok(InteractiveReport {
            submission: pair.a,
            validator: pair.b,
            validator_first: pair.b_first,
        })
    }
}
