//! [`Problems`]: the problems a node serves and judges, by id. A package added while the
//! node runs (an upload, a folder dropped in the problems folder, another node's upload
//! fetched from the database) joins it without a restart; a served id is never replaced.

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use crate::problem::Problem;

/// The problems by id, shared by the handlers and the workers: each read takes the current
/// map (cheap: an `Arc`), so a problem added later is seen by the next read.
#[derive(Debug, Default)]
pub struct Problems {
    map: RwLock<Arc<BTreeMap<String, Arc<Problem>>>>,
}

impl Problems {
    /// The problems of `problems`, by their ids.
    pub fn new(problems: impl IntoIterator<Item = Problem>) -> Problems {
        problems.into_iter().map(|p| (p.id.clone(), p)).collect()
    }

    /// The map as it is now; later additions are not in it.
    pub fn snapshot(&self) -> Arc<BTreeMap<String, Arc<Problem>>> {
        Arc::clone(&self.map.read().unwrap_or_else(|e| e.into_inner()))
    }

    /// The problem `id`, if served.
    pub fn get(&self, id: &str) -> Option<Arc<Problem>> {
        self.snapshot().get(id).cloned()
    }

    /// Whether `id` is served.
    pub fn contains_key(&self, id: &str) -> bool {
        self.snapshot().contains_key(id)
    }

    /// The ids, sorted.
    pub fn keys(&self) -> Vec<String> {
        self.snapshot().keys().cloned().collect()
    }

    /// The problems, by id.
    pub fn values(&self) -> Vec<Arc<Problem>> {
        self.snapshot().values().cloned().collect()
    }

    /// How many problems are served.
    pub fn len(&self) -> usize {
        self.snapshot().len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.snapshot().is_empty()
    }

    /// Each problem's data hash (hex), by id.
    pub fn hashes(&self) -> BTreeMap<String, String> {
        self.snapshot()
            .iter()
            .map(|(id, p)| (id.clone(), p.data_hash.to_hex()))
            .collect()
    }

    /// Serves `problem` from now on; `Err` gives it back when its id is served already.
    pub fn add(&self, problem: Problem) -> Result<Arc<Problem>, Box<Problem>> {
        let mut map = self.map.write().unwrap_or_else(|e| e.into_inner());
        if map.contains_key(&problem.id) {
            return Err(Box::new(problem));
        }
        let added = Arc::new(problem);
        let mut next = BTreeMap::clone(&map);
        next.insert(added.id.clone(), Arc::clone(&added));
        *map = Arc::new(next);
        Ok(added)
    }
}

impl FromIterator<(String, Problem)> for Problems {
    fn from_iter<I: IntoIterator<Item = (String, Problem)>>(iter: I) -> Problems {
        let map = iter.into_iter().map(|(id, p)| (id, Arc::new(p))).collect();
        Problems {
            map: RwLock::new(Arc::new(map)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_added_problem_is_seen_by_later_reads_and_an_id_is_never_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let problems = Problems::new([]);
        let before = problems.snapshot();
        let p = crate::problem::test_problem(dir.path(), Vec::new());
        assert!(problems.add(p.clone()).is_ok());
        assert!(before.is_empty(), "a snapshot keeps what it saw");
        assert_eq!(problems.keys(), ["p"]);
        let mut other = p;
        other.title = "Other".into();
        let back = problems.add(other).unwrap_err();
        assert_eq!(back.title, "Other");
        assert_eq!(problems.get("p").map(|p| p.title.clone()), Some("P".into()));
    }
}
