//! A scoring problem's test groups and how each one turns its tests' results into a score:
//! the legacy and `2023-07-draft` keys of `testdata.yaml` (`on_reject`, `accept_score`,
//! `reject_score`, `range`, `grader_flags`, inherited from the parent group and from
//! `problem.yaml`'s `grading`), and 2025-09's `test_group.yaml` (`max_score`,
//! `score_aggregation`). The judge evaluates the tree ([`crate::judge::grading`]).

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_norway::Value;

use super::super::{ProblemError, TestCase};
use super::meta::{LegacyGrading, Version};
use super::{invalid, read_err};

/// How a group's children's scores make its score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Aggregation {
    /// The sum of the children's scores (the default grader's default).
    Sum,
    /// Their minimum: with `accept_score` W on every test, W x the minimum over the
    /// tests (CMS's GroupMin).
    Min,
    /// Their maximum.
    Max,
    /// Their average.
    Avg,
    /// 2025-09 `pass-fail`: the group's maximum when every child is accepted, else 0.
    PassFail,
}

/// How a group's children's verdicts make its verdict (the default grader's verdict modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VerdictRule {
    /// The worst verdict among the children (judge error, run-time error, memory, time,
    /// output, wrong answer), AC when all are.
    WorstError,
    /// The first child's verdict that is not AC.
    FirstError,
    /// Always AC.
    AlwaysAccept,
}

/// One group's settings, after inheritance.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rules {
    /// The score of an accepted test without a `score.txt`.
    pub accept_score: f64,
    /// The score of a rejected test.
    pub reject_score: f64,
    /// The scores this group may get; `verify` fails a solution outside it.
    pub range: (f64, f64),
    /// The score aggregation.
    pub aggregation: Aggregation,
    /// The verdict aggregation.
    pub verdicts: VerdictRule,
    /// `accept_if_any_accepted`: AC as soon as one child is.
    pub accept_if_any_accepted: bool,
    /// `ignore_sample` (top level only): only the last child (`secret`) counts.
    pub ignore_sample: bool,
    /// `on_reject: break`: the group's remaining tests are not run after a rejection.
    pub on_reject_break: bool,
}

/// A child of a group, in judging order.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Item {
    /// A test, by its index in [`crate::problem::Problem::tests`].
    Test(usize),
    /// A subgroup.
    Group(Group),
}

/// A test group: a folder under `data/`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Group {
    /// The folder under `data/` (`""` for `data/` itself, `secret`, `secret/group1`).
    pub name: String,
    /// Its settings.
    pub rules: Rules,
    /// Its tests and subgroups, in judging order.
    pub items: Vec<Item>,
}

impl Group {
    /// Every group of this subtree, this one first (depth first).
    pub fn groups(&self) -> Vec<&Group> {
        let mut out = vec![self];
        for item in &self.items {
            if let Item::Group(g) = item {
                out.extend(g.groups());
            }
        }
        out
    }

    /// The subgroup of that name, this one included.
    pub fn find(&self, name: &str) -> Option<&Group> {
        self.groups().into_iter().find(|g| g.name == name)
    }
}

/// A scoring problem's groups.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scoring {
    /// `data/`: `sample` and `secret` below it.
    pub root: Group,
    /// The group whose score is the submission's (`""`, `data/`, in the legacy formats;
    /// `secret` in 2025-09).
    pub scored: String,
}

impl Scoring {
    /// The group whose score is the submission's.
    pub fn scored_group(&self) -> &Group {
        self.root.find(&self.scored).unwrap_or(&self.root)
    }

    /// The scores a submission may get (the scored group's range).
    pub fn range(&self) -> (f64, f64) {
        self.scored_group().rules.range
    }
}

/// The scoring keys of one settings file; the other keys are checked by the data reader.
#[derive(Debug, Default, Clone, Deserialize)]
struct Keys {
    on_reject: Option<String>,
    grading: Option<String>,
    grader_flags: Option<String>,
    accept_score: Option<Value>,
    reject_score: Option<Value>,
    range: Option<Value>,
    max_score: Option<Value>,
    score_aggregation: Option<String>,
    require_pass: Option<Value>,
    static_validation_score: Option<Value>,
}

/// The scoring tree of the package in `dir` over its `tests` (as [`super::data::list`] read
/// them).
pub fn read(
    dir: &Path,
    version: Version,
    legacy: &LegacyGrading,
    tests: &[TestCase],
) -> Result<Scoring, ProblemError> {
    let data = dir.join("data");
    let mut root = Node::default();
    for (i, test) in tests.iter().enumerate() {
        let Some((folder, _)) = test.name.rsplit_once('/') else {
            return Err(invalid(
                &test.input,
                "a test outside data/sample and data/secret",
            ));
        };
        root.insert(folder.split('/').collect(), i);
    }
    let file = match version {
        Version::V2025 => "test_group.yaml",
        Version::Legacy | Version::Draft2023 => "testdata.yaml",
    };
    let at = Reader {
        data: &data,
        file,
        version,
        legacy,
    };
    let root = at.group(&root, "", &Keys::default())?;
    Ok(Scoring {
        root,
        scored: if version == Version::V2025 {
            "secret".into()
        } else {
            String::new()
        },
    })
}

/// The tree of folders as the tests name them, children in the tests' order.
#[derive(Default)]
struct Node {
    items: Vec<NodeItem>,
}

enum NodeItem {
    Test(usize),
    Group(String, Node),
}

impl Node {
    fn insert(&mut self, path: Vec<&str>, test: usize) {
        let Some((first, rest)) = path.split_first() else {
            self.items.push(NodeItem::Test(test));
            return;
        };
        let found = self.items.iter_mut().find_map(|i| match i {
            NodeItem::Group(n, node) if n == first => Some(node),
            _ => None,
        });
        match found {
            Some(node) => node.insert(rest.to_vec(), test),
            None => {
                let mut node = Node::default();
                node.insert(rest.to_vec(), test);
                self.items.push(NodeItem::Group(first.to_string(), node));
            }
        }
    }
}

struct Reader<'a> {
    data: &'a Path,
    file: &'static str,
    version: Version,
    legacy: &'a LegacyGrading,
}

fn number(path: &Path, key: &str, v: &Value) -> Result<f64, ProblemError> {
    let n = match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    n.filter(|n| n.is_finite())
        .ok_or_else(|| invalid(path, format!("{key}: a number expected")))
}

/// `range: A B`, each a number or `inf`, `-inf`, `+inf`.
pub fn parse_range(text: &str) -> Result<(f64, f64), String> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    let [a, b] = parts.as_slice() else {
        return Err(format!("range `{text}`: two numbers expected"));
    };
    let num = |s: &str| -> Result<f64, String> {
        match s {
            "inf" | "+inf" => Ok(f64::INFINITY),
            "-inf" => Ok(f64::NEG_INFINITY),
            _ => s
                .parse::<f64>()
                .ok()
                .filter(|n| n.is_finite())
                .ok_or_else(|| format!("range `{text}`: `{s}` is not a number")),
        }
    };
    let (a, b) = (num(a)?, num(b)?);
    if a > b {
        return Err(format!("range `{text}`: the minimum is above the maximum"));
    }
    Ok((a, b))
}

impl Reader<'_> {
    fn keys(&self, folder: &Path) -> Result<Keys, ProblemError> {
        let path = folder.join(self.file);
        if !path.is_file() {
            return Ok(Keys::default());
        }
        let text = std::fs::read_to_string(&path).map_err(|e| read_err(&path, e))?;
        if text.trim().is_empty() {
            return Ok(Keys::default());
        }
        serde_norway::from_str(&text).map_err(|e| invalid(&path, e.to_string()))
    }

    fn group(&self, node: &Node, name: &str, parent: &Keys) -> Result<Group, ProblemError> {
        let folder = if name.is_empty() {
            self.data.to_path_buf()
        } else {
            self.data.join(name)
        };
        let own = self.keys(&folder)?;
        let path = folder.join(self.file);
        if own.require_pass.is_some() || own.static_validation_score.is_some() {
            return Err(invalid(
                &path,
                "require_pass and static_validation_score are not supported",
            ));
        }
        if own.grading.as_deref().is_some_and(|g| g != "default") {
            return Err(invalid(
                &path,
                "grading: custom graders are not supported (only `default`)",
            ));
        }
        // Legacy and 2023-07: every key missing here is the parent's.
        let keys = Keys {
            on_reject: own.on_reject.or(parent.on_reject.clone()),
            grading: None,
            grader_flags: own.grader_flags.or(parent.grader_flags.clone()),
            accept_score: own.accept_score.or(parent.accept_score.clone()),
            reject_score: own.reject_score.or(parent.reject_score.clone()),
            range: own.range.or(parent.range.clone()),
            max_score: own.max_score,
            score_aggregation: own.score_aggregation,
            require_pass: None,
            static_validation_score: None,
        };
        let mut items = Vec::new();
        for item in &node.items {
            items.push(match item {
                NodeItem::Test(i) => Item::Test(*i),
                NodeItem::Group(child, sub) => {
                    let child_name = if name.is_empty() {
                        child.clone()
                    } else {
                        format!("{name}/{child}")
                    };
                    Item::Group(self.group(sub, &child_name, &keys)?)
                }
            });
        }
        let rules = if self.version == Version::V2025 {
            self.rules_2025(&path, name, &keys, &items)?
        } else {
            self.rules_legacy(&path, name, &keys)?
        };
        Ok(Group {
            name: name.to_string(),
            rules,
            items,
        })
    }

    fn rules_legacy(&self, path: &Path, name: &str, keys: &Keys) -> Result<Rules, ProblemError> {
        if keys.max_score.is_some() || keys.score_aggregation.is_some() {
            return Err(invalid(
                path,
                "max_score and score_aggregation are 2025-09 keys (test_group.yaml)",
            ));
        }
        let l = self.legacy;
        let on_reject = l
            .on_reject
            .as_deref()
            .map(|r| match r {
                "first_error" => "break",
                "grade" => "continue",
                other => other,
            })
            .or(keys.on_reject.as_deref())
            .unwrap_or("break");
        let on_reject_break = match on_reject {
            "break" => true,
            "continue" => false,
            other => {
                return Err(invalid(
                    path,
                    format!("on_reject `{other}`: `break` or `continue` expected"),
                ))
            }
        };
        let score = |key: &str, own: Option<f64>, v: &Option<Value>, default: f64| match own {
            Some(s) => Ok(s),
            None => v.as_ref().map_or(Ok(default), |v| number(path, key, v)),
        };
        let accept_score = score("accept_score", l.accept_score, &keys.accept_score, 1.0)?;
        let reject_score = score("reject_score", l.reject_score, &keys.reject_score, 0.0)?;
        let range = match (&l.range, &keys.range) {
            (Some(r), _) => r.clone(),
            (None, Some(Value::String(s))) => s.clone(),
            (None, Some(Value::Number(n))) => n.to_string(),
            (None, Some(_)) => return Err(invalid(path, "range: `MIN MAX` expected")),
            (None, None) => "-inf +inf".into(),
        };
        let range = parse_range(&range).map_err(|m| invalid(path, m))?;
        let mut rules = Rules {
            accept_score,
            reject_score,
            range,
            aggregation: Aggregation::Sum,
            verdicts: VerdictRule::WorstError,
            accept_if_any_accepted: false,
            ignore_sample: false,
            on_reject_break,
        };
        for flag in keys
            .grader_flags
            .as_deref()
            .unwrap_or("")
            .split_whitespace()
        {
            match flag {
                "sum" => rules.aggregation = Aggregation::Sum,
                "min" => rules.aggregation = Aggregation::Min,
                "max" => rules.aggregation = Aggregation::Max,
                "avg" => rules.aggregation = Aggregation::Avg,
                "worst_error" | "no_errors" => rules.verdicts = VerdictRule::WorstError,
                "first_error" => rules.verdicts = VerdictRule::FirstError,
                "always_accept" => rules.verdicts = VerdictRule::AlwaysAccept,
                "accept_if_any_accepted" => rules.accept_if_any_accepted = true,
                "ignore_sample" if name.is_empty() => rules.ignore_sample = true,
                // problemtools: only meaningful at the top; inherited below it, ignored there.
                "ignore_sample" => {}
                other => {
                    return Err(invalid(
                        path,
                        format!("grader_flags: `{other}` is not a flag of the default grader"),
                    ))
                }
            }
        }
        if rules.ignore_sample && rules.on_reject_break {
            return Err(invalid(
                path,
                "grader_flags: ignore_sample with on_reject: break may leave secret unjudged",
            ));
        }
        Ok(rules)
    }

    /// 2025-09: an accepted test scores its maximum (the group's for `min`, the group's
    /// split over its tests for `sum`), a failed one 0; groups are never cut short.
    fn rules_2025(
        &self,
        path: &Path,
        name: &str,
        keys: &Keys,
        items: &[Item],
    ) -> Result<Rules, ProblemError> {
        let in_secret = name == "secret" || name.starts_with("secret/");
        if !in_secret && (keys.max_score.is_some() || keys.score_aggregation.is_some()) {
            return Err(invalid(
                path,
                "max_score and score_aggregation are only for secret and its groups",
            ));
        }
        let aggregation = match keys.score_aggregation.as_deref() {
            None if name == "secret" => Aggregation::Sum,
            None | Some("pass-fail") => Aggregation::PassFail,
            Some("sum") => Aggregation::Sum,
            Some("min") => Aggregation::Min,
            Some(other) => {
                return Err(invalid(
                    path,
                    format!("score_aggregation `{other}`: pass-fail, sum or min expected"),
                ))
            }
        };
        let max = match &keys.max_score {
            None if name == "secret" => Some(100.0),
            None => None,
            Some(Value::String(s)) if s == "unbounded" => None,
            Some(v) => Some(number(path, "max_score", v)?)
                .filter(|m| *m >= 0.0)
                .map(Some)
                .ok_or_else(|| {
                    invalid(
                        path,
                        "max_score: a non-negative number or `unbounded` expected",
                    )
                })?,
        };
        if !in_secret {
            return Ok(Rules {
                accept_score: 0.0,
                reject_score: 0.0,
                range: (0.0, 0.0),
                aggregation: Aggregation::Sum,
                verdicts: VerdictRule::WorstError,
                accept_if_any_accepted: false,
                ignore_sample: false,
                on_reject_break: false,
            });
        }
        let Some(max) = max else {
            return Err(invalid(
                path,
                "max_score: unbounded groups are not supported (give a number)",
            ));
        };
        let tests = items.iter().filter(|i| matches!(i, Item::Test(_))).count();
        let accept_score = match aggregation {
            Aggregation::Sum if tests > 0 => max / tests as f64,
            _ => max,
        };
        Ok(Rules {
            accept_score,
            reject_score: 0.0,
            range: (0.0, max),
            aggregation,
            verdicts: VerdictRule::WorstError,
            accept_if_any_accepted: false,
            ignore_sample: false,
            on_reject_break: false,
        })
    }
}

#[cfg(test)]
mod tests;
