//! The contests the daemon serves, its contest clock and its cached boards: what the
//! [`AppState`](crate::server::AppState) holds of the contests (the services that read it are
//! beside this file; this one knows no state). The contests come from two sources, merged
//! into one catalog replaced whole when either changes: the contest files (read at start,
//! read again when they change on disk, `catalog.rs`) and the database's contests (made or
//! edited at runtime, read again when their version moves).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};

use jiff::Timestamp;

use crate::contest::{Clock, Contest};
use crate::judge::JudgeMode;
use crate::worker::JudgeModes;

use super::board_cache::BoardCache;
use super::state_reads::DefsReads;

/// Where a served contest's definition comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A contest file: the file wins (the page and the API do not edit it).
    File(PathBuf),
    /// The database (the admin page, `POST /api/contests`), at this revision.
    Database {
        /// 1 when made, one more with each edit.
        revision: u64,
    },
}

/// A served contest and where it comes from.
#[derive(Debug, Clone)]
pub struct Served {
    /// The contest.
    pub contest: Arc<Contest>,
    /// Its source.
    pub origin: Origin,
}

/// One source's contests as last read, with what could not be served and why.
#[derive(Debug, Clone, Default)]
pub struct SourceRead {
    /// The sound contests (with a database contest's revision).
    pub contests: Vec<(Contest, u64)>,
    /// What is not served, each with its reason (a broken file, an id clash, an edit that
    /// would rewrite history).
    pub refused: Vec<String>,
}

/// Both sources and their merge.
#[derive(Default)]
struct Catalog {
    files: SourceRead,
    database: SourceRead,
    /// The database's version the `database` part was read at (`None`: never read).
    db_version: Option<u64>,
    served: BTreeMap<String, Served>,
    /// The clashes found by the merge.
    clashes: Vec<String>,
}

impl Catalog {
    /// The served contests: every file contest, and every database contest whose id no file
    /// takes (a clash keeps the database's contest, which was there first and has its
    /// history, and refuses the file with the reason).
    fn merge(&mut self) {
        let mut served = BTreeMap::new();
        let mut clashes = Vec::new();
        for (c, revision) in &self.database.contests {
            served.insert(
                c.id.as_str().to_string(),
                Served {
                    contest: Arc::new(c.clone()),
                    origin: Origin::Database {
                        revision: *revision,
                    },
                },
            );
        }
        for (c, _) in &self.files.contests {
            if served.contains_key(c.id.as_str()) {
                clashes.push(format!(
                    "contest file {}: the id {:?} is taken by a contest made on the admin page \
                     or the API; the file is not served (rename it)",
                    c.path.display(),
                    c.id.as_str()
                ));
                continue;
            }
            served.insert(
                c.id.as_str().to_string(),
                Served {
                    contest: Arc::new(c.clone()),
                    origin: Origin::File(c.path.clone()),
                },
            );
        }
        self.served = served;
        self.clashes = clashes;
    }
}

/// The contests the daemon serves, its contest clock and its cached boards.
pub struct Contests {
    catalog: RwLock<Catalog>,
    clock: Arc<dyn Clock>,
    /// The judge modes the workers read, replaced with every change of the catalog.
    modes: Arc<JudgeModes>,
    /// The folder the contest files are read from again when they change (`None`: never).
    files_dir: Option<PathBuf>,
    pub(super) boards: BoardCache,
    /// The database contests' version, read once for the requests arriving meanwhile.
    pub(super) defs_reads: DefsReads,
    /// One reload of the catalog at a time.
    pub(super) reloading: tokio::sync::Mutex<()>,
}

impl Contests {
    /// The daemon's contests (read from files) on `clock`.
    pub fn new(contests: Vec<Contest>, clock: Arc<dyn Clock>) -> Contests {
        let mut catalog = Catalog {
            files: SourceRead {
                contests: contests.into_iter().map(|c| (c, 0)).collect(),
                refused: Vec::new(),
            },
            ..Catalog::default()
        };
        catalog.merge();
        let modes = Arc::new(JudgeModes::new(modes_of(&catalog.served)));
        Contests {
            catalog: RwLock::new(catalog),
            clock,
            modes,
            files_dir: None,
            boards: BoardCache::default(),
            defs_reads: DefsReads::default(),
            reloading: tokio::sync::Mutex::new(()),
        }
    }

    /// The same contests, their files read again from `dir` when they change.
    pub fn watching(mut self, dir: PathBuf) -> Contests {
        self.files_dir = Some(dir);
        self
    }

    /// The folder watched for contest files, if any.
    pub fn files_dir(&self) -> Option<&PathBuf> {
        self.files_dir.as_ref()
    }

    /// The contest `id`, if served.
    pub fn get(&self, id: &str) -> Option<Arc<Contest>> {
        self.read(|c| c.served.get(id).map(|s| Arc::clone(&s.contest)))
    }

    /// The contest `id` with its origin, if served.
    pub fn served(&self, id: &str) -> Option<Served> {
        self.read(|c| c.served.get(id).cloned())
    }

    /// Every contest, by id.
    pub fn all(&self) -> Vec<Arc<Contest>> {
        self.read(|c| c.served.values().map(|s| Arc::clone(&s.contest)).collect())
    }

    /// What is not served and why (broken files, id clashes, refused edits of files,
    /// database contests that no longer load), for the admin page and the log.
    pub fn refused(&self) -> Vec<String> {
        self.read(|c| {
            c.files
                .refused
                .iter()
                .chain(&c.database.refused)
                .chain(&c.clashes)
                .cloned()
                .collect()
        })
    }

    /// The file contests as last read.
    pub fn file_contests(&self) -> Vec<Contest> {
        self.read(|c| c.files.contests.iter().map(|(c, _)| c.clone()).collect())
    }

    /// The version of the database's contests this catalog holds (`None`: not read yet).
    pub fn db_version(&self) -> Option<u64> {
        self.read(|c| c.db_version)
    }

    /// Replaces the database's contests (read at `version`).
    pub fn install_database(&self, version: u64, read: SourceRead) {
        self.install(|c| {
            c.database = read;
            c.db_version = Some(version);
        });
    }

    /// Replaces the file contests.
    pub fn install_files(&self, read: SourceRead) {
        self.install(|c| c.files = read);
    }

    fn install(&self, change: impl FnOnce(&mut Catalog)) {
        let mut catalog = self.catalog.write().unwrap_or_else(|e| e.into_inner());
        change(&mut catalog);
        catalog.merge();
        self.modes.replace(modes_of(&catalog.served));
    }

    fn read<T>(&self, f: impl FnOnce(&Catalog) -> T) -> T {
        f(&self.catalog.read().unwrap_or_else(|e| e.into_inner()))
    }

    /// Now, on the contest clock.
    pub fn now(&self) -> Timestamp {
        self.clock.now()
    }

    /// How much each contest's submissions are judged (its format's mode), for the workers.
    pub fn judge_modes(&self) -> BTreeMap<String, JudgeMode> {
        self.read(|c| modes_of(&c.served))
    }

    /// The modes the workers read, kept current with the catalog.
    pub fn modes(&self) -> Arc<JudgeModes> {
        Arc::clone(&self.modes)
    }
}

fn modes_of(served: &BTreeMap<String, Served>) -> BTreeMap<String, JudgeMode> {
    served
        .iter()
        .map(|(id, s)| (id.clone(), s.contest.format.judge_mode()))
        .collect()
}
