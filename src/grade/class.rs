//! Grading a class: every student with a source is judged on the judges (sandbox slots) in
//! parallel, unless the re-run cache holds their unchanged file's verdict; every other
//! student gets a row saying why not. A stop request (Ctrl-C) lets the runs in progress end
//! and keeps only what was graded before it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::judge::{run_jobs, Compiled, Executor, Judge, JudgeReport};
use crate::problem::Problem;

use super::cache::{content_hash, Cache};
use super::discover::{Found, Student};
use super::row::Row;

/// Called with each student's row as it is graded (for a progress bar).
pub type OnRow = Arc<dyn Fn(&Row) + Send + Sync>;

/// The message of a student left out by a stop request.
pub const INTERRUPTED: &str = "not graded: the run was interrupted";

/// The rows of a class, sorted by student, and what it took.
#[derive(Debug, Clone)]
pub struct Graded {
    /// One row per student.
    pub rows: Vec<Row>,
    /// Students judged in this run.
    pub judged: usize,
    /// Students whose verdict came from the cache.
    pub reused: usize,
    /// Students left out by a stop request.
    pub interrupted: usize,
}

/// One student to judge.
struct Job {
    index: usize,
    language: String,
    source: Vec<u8>,
}

/// What a student needs.
enum Lookup<'a> {
    /// Nothing to judge.
    Unusable,
    /// The cache's row for their unchanged file.
    Reused(Box<Row>),
    /// Judging, of this source with this hash.
    Judge {
        language: &'a str,
        text: &'a str,
        hash: String,
    },
}

fn lookup<'a>(student: &'a Student, cache: Option<&Cache>) -> Lookup<'a> {
    let Found::Source { language, text } = &student.found else {
        return Lookup::Unusable;
    };
    let hash = content_hash(text.as_bytes());
    let file = student.path.display().to_string();
    match cache.and_then(|c| c.reuse(&student.name, &file, language, &hash)) {
        Some(row) => Lookup::Reused(Box::new(row)),
        None => Lookup::Judge {
            language,
            text,
            hash,
        },
    }
}

/// How many of `students` a run with `cache` judges (the sandbox is set up only when some).
pub fn to_judge(students: &[Student], cache: Option<&Cache>) -> usize {
    students
        .iter()
        .filter(|s| matches!(lookup(s, cache), Lookup::Judge { .. }))
        .count()
}

/// Compiles and runs every test; `None` when a stop request cut it short (or came while it
/// ran: a Ctrl-C on a terminal reaches the sandbox's processes too, so that result is not
/// trusted).
async fn judge_one<E: Executor>(
    judge: &Judge<E>,
    problem: &Problem,
    job: Job,
    stop: &Arc<AtomicBool>,
) -> Option<JudgeReport> {
    let report = match judge.compile(problem, &job.language, job.source).await {
        Compiled::Done(report) => *report,
        Compiled::Ready { program, compile } => {
            let flag = Arc::clone(stop);
            judge
                .run_tests(problem, &job.language, program, compile, move || {
                    flag.load(Ordering::SeqCst)
                })
                .await
                .ok()?
        }
    };
    (!stop.load(Ordering::SeqCst)).then_some(report)
}

/// Grades `students` on `judges`. With `cache`, a student whose file, language and package
/// are unchanged keeps their last row; `stop` ends the run early (students not yet graded
/// get a `-` row saying so).
pub async fn grade_class<E: Executor>(
    judges: Vec<Judge<E>>,
    problem: Arc<Problem>,
    students: &[Student],
    cache: Option<&Cache>,
    stop: Arc<AtomicBool>,
    on_row: OnRow,
) -> Graded {
    let mut rows: Vec<Option<Row>> = vec![None; students.len()];
    let mut jobs = Vec::new();
    let mut hashes = vec![String::new(); students.len()];
    let mut reused = 0;
    for (index, student) in students.iter().enumerate() {
        match lookup(student, cache) {
            Lookup::Unusable => rows[index] = Row::unusable(student),
            Lookup::Reused(row) => {
                reused += 1;
                rows[index] = Some(*row);
            }
            Lookup::Judge {
                language,
                text,
                hash,
            } => {
                hashes[index] = hash;
                jobs.push(Job {
                    index,
                    language: language.to_string(),
                    source: text.as_bytes().to_vec(),
                });
            }
        }
    }
    for row in rows.iter().flatten() {
        on_row(row);
    }
    let indices: Vec<usize> = jobs.iter().map(|j| j.index).collect();
    let work = {
        let problem = Arc::clone(&problem);
        let stop = Arc::clone(&stop);
        let on_row = Arc::clone(&on_row);
        let students: Arc<Vec<Student>> = Arc::new(students.to_vec());
        let hashes = Arc::new(hashes.clone());
        move |judge: Judge<E>, job: Job| {
            let (problem, stop, on_row) =
                (Arc::clone(&problem), Arc::clone(&stop), Arc::clone(&on_row));
            let (students, hashes) = (Arc::clone(&students), Arc::clone(&hashes));
            async move {
                let index = job.index;
                let report = judge_one(&judge, &problem, job, &stop).await?;
                let row = Row::judged(
                    &students[index],
                    hashes[index].clone(),
                    problem.tests.len(),
                    report,
                );
                on_row(&row);
                Some(row)
            }
        }
    };
    let results = run_jobs(judges, jobs, stop, work).await;
    let (mut judged, mut interrupted) = (0, 0);
    for (index, result) in indices.into_iter().zip(results) {
        let row = match result.flatten() {
            Some(row) => {
                judged += 1;
                row
            }
            None => {
                interrupted += 1;
                let student = &students[index];
                let language = match &student.found {
                    Found::Source { language, .. } => language.as_str(),
                    Found::Unusable { language, .. } => language.as_str(),
                };
                Row::not_judged(student, language, INTERRUPTED, hashes[index].clone())
            }
        };
        rows[index] = Some(row);
    }
    Graded {
        rows: rows.into_iter().flatten().collect(),
        judged,
        reused,
        interrupted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::discover::Found;
    use crate::judge::tests::{judge, problem};
    use crate::judge::Verdict;

    fn student(name: &str, source: &str) -> Student {
        Student {
            name: name.into(),
            id: None,
            path: format!("class/{name}.c").into(),
            found: Found::Source {
                language: "c".into(),
                text: source.into(),
            },
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn judges_each_student_once_and_reuses_unchanged_ones() {
        let dir = tempfile::tempdir().unwrap();
        let p = Arc::new(problem(
            dir.path(),
            &[("sample/1", "a", "a"), ("secret/1", "b", "b")],
        ));
        let mut students = vec![
            student("ann", "echo"),
            student("ben", "crash"),
            student("cy", "syntax error"),
            Student {
                name: "dee".into(),
                id: None,
                path: "class/dee".into(),
                found: Found::Unusable {
                    language: String::new(),
                    reason: "no source".into(),
                },
            },
        ];
        let count = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let on_row: OnRow = {
            let count = Arc::clone(&count);
            Arc::new(move |_| {
                count.fetch_add(1, Ordering::SeqCst);
            })
        };
        let stop = Arc::new(AtomicBool::new(false));
        let first = grade_class(
            vec![judge(), judge()],
            Arc::clone(&p),
            &students,
            None,
            Arc::clone(&stop),
            Arc::clone(&on_row),
        )
        .await;
        assert_eq!((first.judged, first.reused, first.interrupted), (3, 0, 0));
        assert_eq!(count.load(Ordering::SeqCst), 4);
        let verdicts: Vec<_> = first.rows.iter().map(|r| r.verdict).collect();
        assert_eq!(
            verdicts,
            [
                Some(Verdict::AC),
                Some(Verdict::RE),
                Some(Verdict::CE),
                None
            ]
        );
        assert_eq!((first.rows[0].passed, first.rows[0].total), (2, 2));
        assert_eq!(first.rows[1].message, "sample/1: exit code 3");
        assert_eq!((first.rows[2].passed, first.rows[2].total), (0, 2));
        assert!(first.rows[2]
            .message
            .starts_with("compile error: main.c:1: error"));

        let cache = Cache::new("p", "pkg", first.rows.clone());
        students[1] = student("ben", "echo");
        let second = grade_class(vec![judge()], p, &students, Some(&cache), stop, on_row).await;
        assert_eq!(
            (second.judged, second.reused),
            (1, 2),
            "only ben's changed file"
        );
        assert_eq!(second.rows[1].verdict, Some(Verdict::AC));
        assert!(second.rows[0].cached && !second.rows[1].cached);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_stop_request_leaves_the_rest_marked_not_graded() {
        let dir = tempfile::tempdir().unwrap();
        let p = Arc::new(problem(dir.path(), &[("sample/1", "a", "a")]));
        let students: Vec<Student> = (0..5).map(|i| student(&format!("s{i}"), "echo")).collect();
        let stop = Arc::new(AtomicBool::new(true));
        let graded = grade_class(vec![judge()], p, &students, None, stop, Arc::new(|_| {})).await;
        assert_eq!((graded.judged, graded.interrupted), (0, 5));
        assert!(graded
            .rows
            .iter()
            .all(|r| r.verdict.is_none() && r.message == INTERRUPTED));
    }
}
