//! [`PackageSync`]: how packages join a running node. An upload is staged, checked, moved
//! into the problems folder, stored in the database (`packages`, by id with its data hash)
//! and served. Every `[problems] rescan_ms` each node makes a pass: a stored package it does
//! not serve is fetched by its hash, checked and served (its claim filter then takes the
//! problem's submissions, which it refused until then), and a package folder dropped in the
//! problems folder is checked and served. One install at a time per node.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{watch, Semaphore};
use tokio::task::JoinHandle;

use super::stage::{self, PackageError};
use crate::archive;
use crate::problem::{self, Problem};
use crate::store::{NewPackage, PackageStore, Store, StoreNode};
use crate::verify::data::DataFault;
use crate::worker::Problems;

/// Runs a package's programs over its data and returns every fault they find (blocking).
pub type RunPrograms = dyn Fn(&Problem) -> Vec<DataFault> + Send + Sync;

/// A node's way to run a package's programs (input validators, an output validator over the
/// answers) in its sandbox: the check and the permits of the slots it runs on.
#[derive(Clone)]
pub struct ProgramCheck {
    /// Every fault the programs find (blocking).
    pub run: Arc<RunPrograms>,
    /// Taken before `run`, so it never takes a slot a custom run holds.
    pub permits: Arc<Semaphore>,
}

/// What adds packages to one node.
pub struct PackageSync {
    store: Store,
    problems: Arc<Problems>,
    dir: PathBuf,
    limits: archive::Limits,
    programs: Option<ProgramCheck>,
    logged: Mutex<BTreeSet<String>>,
    /// Dropped folders not served, by name, with the reason of their last pass.
    refused: Mutex<BTreeMap<String, String>>,
    one_at_a_time: tokio::sync::Mutex<()>,
}

/// The bounds of an uploaded package: a course export's ([`archive::Limits::default`]) with
/// the whole no larger than `max_total_bytes`.
pub fn upload_limits(max_zip_bytes: u64) -> archive::Limits {
    let limits = archive::Limits::default();
    archive::Limits {
        max_total_bytes: limits.max_total_bytes.max(max_zip_bytes),
        ..limits
    }
}

impl PackageSync {
    /// The sync of the node whose store is `store`, serving `problems` from `dir`; `programs`
    /// is `None` on a node that runs no package programs (a `worker`: a dropped folder that
    /// has some is not picked up there; a fetched package was checked by its uploader).
    pub fn new(
        store: Store,
        problems: Arc<Problems>,
        dir: PathBuf,
        limits: archive::Limits,
        programs: Option<ProgramCheck>,
    ) -> PackageSync {
        PackageSync {
            store,
            problems,
            dir,
            limits,
            programs,
            logged: Mutex::new(BTreeSet::new()),
            refused: Mutex::new(BTreeMap::new()),
            one_at_a_time: tokio::sync::Mutex::new(()),
        }
    }

    /// Runs the package programs with `check` from now on (a `serve` node, once its
    /// custom-run slots exist).
    pub fn set_programs(&mut self, check: ProgramCheck) {
        self.programs = Some(check);
    }

    /// The problems this node serves.
    pub fn problems(&self) -> &Arc<Problems> {
        &self.problems
    }

    /// An admin's upload: the zip staged and checked (data and programs), moved into the
    /// problems folder, stored for the other nodes and served. Nothing is kept of a refused
    /// one.
    pub async fn upload(
        &self,
        zip: Vec<u8>,
        id: Option<String>,
        uploaded_by: Option<String>,
    ) -> Result<Arc<Problem>, PackageError> {
        let _one = self.one_at_a_time.lock().await;
        if let Some(id) = id.as_deref().filter(|id| self.problems.contains_key(id)) {
            return Err(PackageError::Taken(id.to_string()));
        }
        let (dir, limits) = (self.dir.clone(), self.limits);
        let zip = Arc::new(zip);
        let bytes = Arc::clone(&zip);
        let staged = blocking(move || stage::stage(&dir, &bytes, id.as_deref(), &limits)).await?;
        if self.problems.contains_key(&staged.problem().id) {
            return Err(PackageError::Taken(staged.problem().id.clone()));
        }
        let staged = self.check_programs(staged).await?;
        let dir = self.dir.clone();
        let problem = blocking(move || staged.place(&dir)).await?;
        let hash = problem.data_hash.to_hex();
        let stored = self
            .store
            .put_package(NewPackage {
                problem: &problem.id,
                data_hash: &hash,
                zip: &zip,
                uploaded_by: uploaded_by.as_deref(),
            })
            .await;
        match stored {
            Ok(true) => {}
            Ok(false) => {
                let _ = std::fs::remove_dir_all(&problem.dir);
                return Err(PackageError::Taken(problem.id.clone()));
            }
            Err(e) => {
                let _ = std::fs::remove_dir_all(&problem.dir);
                return Err(PackageError::Io(format!("storing the package: {e}")));
            }
        }
        self.serve(problem).await
    }

    async fn check_programs(&self, staged: stage::Staged) -> Result<stage::Staged, PackageError> {
        let Some(check) = self.programs.clone() else {
            return blocking(move || {
                staged.check_programs(|_| {
                    vec![DataFault {
                        test: None,
                        message: "this node runs no package programs (upload it to a `serve` node)"
                            .into(),
                    }]
                })?;
                Ok(staged)
            })
            .await;
        };
        let _permit = check
            .permits
            .acquire()
            .await
            .map_err(|_| PackageError::Io("the daemon is stopping".into()))?;
        blocking(move || {
            staged.check_programs(|p| (check.run)(p))?;
            Ok(staged)
        })
        .await
    }

    /// Serves `problem`: in the node's problems, its claim filter and its `nodes` row.
    async fn serve(&self, problem: Problem) -> Result<Arc<Problem>, PackageError> {
        let added = self
            .problems
            .add(problem)
            .map_err(|p| PackageError::Taken(p.id.clone()))?;
        let hash = added.data_hash.to_hex();
        if let Some(data) = self.store.data() {
            data.insert(&added.id, &hash);
        }
        if let Err(e) = self.store.set_node_hashes(&self.problems.hashes()).await {
            tracing::warn!(error = %e, "cannot record this node's package hashes");
        }
        tracing::info!(problem = %added.id, hash = %hash, dir = %added.dir.display(),
            "package added: served from now on");
        Ok(added)
    }

    /// Logs `message` about `key` once (a pass repeats every few seconds).
    fn log_once(&self, key: String, message: &str) {
        let fresh = self
            .logged
            .lock()
            .map(|mut l| l.insert(key.clone()))
            .unwrap_or(false);
        if fresh {
            tracing::warn!(package = %key, "{message}");
        }
    }

    /// One pass: the stored packages this node lacks, then the folders dropped in the
    /// problems folder. Returns the ids added.
    pub async fn pass(&self) -> Vec<String> {
        let _one = self.one_at_a_time.lock().await;
        let mut added = Vec::new();
        match self.store.stored_packages().await {
            Ok(stored) => {
                for s in stored {
                    if let Some(mine) = self.problems.get(&s.problem) {
                        if mine.data_hash.to_hex() != s.data_hash {
                            self.log_once(
                                format!("{} {}", s.problem, s.data_hash),
                                "an uploaded package has the id of a problem this node serves \
                                 with other data: not fetched",
                            );
                        }
                        continue;
                    }
                    match self.fetch(&s.problem, &s.data_hash).await {
                        Ok(p) => added.push(p.id.clone()),
                        Err(e) => self.log_once(
                            format!("{} {}", s.problem, s.data_hash),
                            &format!("cannot serve the uploaded package: {e}"),
                        ),
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "cannot list the uploaded packages"),
        }
        let mut refused = BTreeMap::new();
        for dir in self.dropped() {
            let key = dir.display().to_string();
            let name = dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            match self.pick_up(dir).await {
                Ok(p) => added.push(p.id.clone()),
                Err(e) => {
                    self.log_once(key, &format!("package folder not served: {e}"));
                    refused.insert(name, e.to_string());
                }
            }
        }
        if let Ok(mut r) = self.refused.lock() {
            *r = refused;
        }
        added
    }

    /// The package folders dropped in the problems folder that are not served, each with
    /// the reason its last check gave (the admin page shows them, as an upload's refusal).
    pub fn refused_folders(&self) -> Vec<(String, String)> {
        self.refused
            .lock()
            .map(|r| r.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default()
    }

    /// Fetches the stored package `id` of `hash` into the problems folder (or finds it
    /// there, from an earlier run), checks and serves it.
    async fn fetch(&self, id: &str, hash: &str) -> Result<Arc<Problem>, PackageError> {
        let target = self.dir.join(id);
        let problem = if problem::package::is_package(&target) {
            blocking(move || problem::load(&target).map_err(|e| PackageError::Load(e.to_string())))
                .await?
        } else {
            let zip = self
                .store
                .package_zip(id, hash)
                .await
                .map_err(|e| PackageError::Io(format!("fetching the package: {e}")))?
                .ok_or_else(|| PackageError::Io("the stored package changed".into()))?;
            let (dir, limits, id) = (self.dir.clone(), self.limits, id.to_string());
            let staged = blocking(move || stage::stage(&dir, &zip, Some(&id), &limits)).await?;
            if staged.problem().data_hash.to_hex() != hash {
                return Err(PackageError::Load(format!(
                    "the package loads here with data hash {}, not the uploaded {hash}",
                    staged.problem().data_hash
                )));
            }
            let dir = self.dir.clone();
            blocking(move || staged.place(&dir)).await?
        };
        if problem.data_hash.to_hex() != hash {
            return Err(PackageError::Load(format!(
                "{} holds other data (hash {}) than the uploaded package ({hash})",
                problem.dir.display(),
                problem.data_hash
            )));
        }
        let problem = blocking(move || stage::check_data(&problem).map(|()| problem)).await?;
        self.serve(problem).await
    }

    /// The package folders in the problems folder not served yet (a name starting with `.`
    /// is skipped: an upload's staging folder, or a folder being copied in).
    fn dropped(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = std::fs::read_dir(&self.dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                !name.starts_with('.') && !self.problems.contains_key(&name)
            })
            .map(|e| e.path())
            .filter(|p| problem::package::is_package(p))
            .collect();
        out.sort();
        out
    }

    /// Loads, checks and serves a dropped folder.
    async fn pick_up(&self, dir: PathBuf) -> Result<Arc<Problem>, PackageError> {
        let problem = blocking(move || {
            let p = problem::load(&dir).map_err(|e| PackageError::Load(e.to_string()))?;
            stage::check_data(&p)?;
            Ok(p)
        })
        .await?;
        let needs = matches!(problem.validator, problem::OutputValidator::Program(_))
            || problem
                .kattis
                .as_ref()
                .is_some_and(|k| !k.input_validators.is_empty());
        if needs {
            let Some(check) = self.programs.clone() else {
                return Err(PackageError::Load(format!(
                    "{}: it has programs and this node runs none (upload it through a `serve` node)",
                    problem.dir.display()
                )));
            };
            let _permit = check
                .permits
                .acquire()
                .await
                .map_err(|_| PackageError::Io("the daemon is stopping".into()))?;
            let p = Arc::new(problem);
            let q = Arc::clone(&p);
            let faults = blocking(move || Ok((check.run)(&q))).await?;
            if !faults.is_empty() {
                let faults = faults
                    .iter()
                    .map(|f| format!("{}: {}", f.test.as_deref().unwrap_or("package"), f.message))
                    .collect();
                return Err(PackageError::Verify {
                    id: p.id.clone(),
                    faults,
                });
            }
            let problem = Arc::try_unwrap(p).unwrap_or_else(|p| Problem::clone(&p));
            return self.serve(problem).await;
        }
        self.serve(problem).await
    }
}

/// Runs blocking file work off the async threads.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, PackageError> + Send + 'static,
) -> Result<T, PackageError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| PackageError::Io(format!("the package task failed: {e}")))?
}

/// Makes a pass every `every` until `stop` turns true (`every` zero: never).
pub fn spawn(
    sync: Arc<PackageSync>,
    every: Duration,
    mut stop: watch::Receiver<bool>,
) -> Option<JoinHandle<()>> {
    if every.is_zero() {
        return None;
    }
    Some(tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = tokio::time::sleep(every) => {}
                changed = stop.changed() => {
                    if changed.is_err() {
                        break;
                    }
                }
            }
            if *stop.borrow() {
                break;
            }
            sync.pass().await;
        }
    }))
}
