//! Imports run one way (docs/contributing.md): no cycle between the library's top-level
//! modules, and none between its files ([`KNOWN_FILE_CYCLES`] is empty; a cycle listed there
//! would have to stay exactly as listed, so the list only shrinks). Pages reach the store
//! only through the services, as do the API's handlers. The graph is read from the source as text: every
//! `use crate::`/`use super::` tree (braces expanded) and every `crate::`/`super::` path in the
//! code, test code (`#[cfg(test)]` and `*tests.rs` files) left out, as is the binary
//! (`src/main.rs`, `src/commands/`), which sees the library only from outside.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type ModPath = Vec<String>;

/// Every library source file by its module path (`src/a/mod.rs` and `src/a.rs` are `a`).
fn library_files(src: &Path) -> BTreeMap<ModPath, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                if path != src.join("commands") {
                    stack.push(path);
                }
                continue;
            }
            let rel = path.strip_prefix(src).expect("under src");
            let Some(stem) = rel.to_str().and_then(|s| s.strip_suffix(".rs")) else {
                continue;
            };
            let name = rel.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if stem == "main" || name == "tests.rs" || name.ends_with("_tests.rs") {
                continue;
            }
            let mut segments: ModPath = stem.split('/').map(str::to_string).collect();
            if matches!(segments.last().map(String::as_str), Some("mod" | "lib")) {
                segments.pop();
            }
            out.insert(segments, path);
        }
    }
    out
}

/// The code of a file without its tests, comments and string contents.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let line = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        let mut in_string = false;
        let mut escaped = false;
        for c in line.chars() {
            if in_string {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == '"' {
                    in_string = false;
                }
                continue;
            }
            if c == '"' {
                in_string = true;
            }
            out.push(c);
        }
        out.push('\n');
    }
    out
}

/// Expands a `use` tree (`a::{b, c::{d, e}}`) into its paths.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        return vec![tree.split(" as ").next().unwrap_or(tree).trim().to_string()];
    };
    let prefix = &tree[..open];
    let inner = tree[open + 1..].trim_end().trim_end_matches('}');
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(expand)
        .map(|p| format!("{prefix}{p}"))
        .collect()
}

/// The `crate::`/`super::` paths a file's code names.
fn paths_named(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for statement in code.split(';') {
        let s = statement.trim_start();
        let s = s.strip_prefix("pub(crate) ").unwrap_or(s);
        let s = s.strip_prefix("pub(super) ").unwrap_or(s);
        let s = s.strip_prefix("pub ").unwrap_or(s);
        if let Some(tree) = s.strip_prefix("use ") {
            out.extend(
                expand(tree)
                    .into_iter()
                    .map(|p| p.split_whitespace().collect()),
            );
        }
    }
    let bytes = code.as_bytes();
    for start in ["crate::", "super::"] {
        for (i, _) in code.match_indices(start) {
            if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
                continue;
            }
            let end = code[i..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| i + e);
            out.push(code[i..end].trim_end_matches(':').to_string());
        }
    }
    out
}

/// The module a path from `from` lands in: the longest prefix that is a file.
fn resolve(from: &ModPath, path: &str, files: &BTreeMap<ModPath, PathBuf>) -> Option<ModPath> {
    let mut segments = path.split("::").filter(|s| !s.is_empty());
    let mut full: ModPath = match segments.next()? {
        "crate" => Vec::new(),
        "super" => from[..from.len().saturating_sub(1)].to_vec(),
        _ => return None,
    };
    for s in segments {
        if s == "super" {
            full.pop();
        } else {
            full.push(s.to_string());
        }
    }
    (0..=full.len())
        .rev()
        .map(|n| full[..n].to_vec())
        .find(|p| files.contains_key(p))
}

/// The strongly connected components with more than one node (Tarjan).
fn cycles<N: Ord + Clone>(edges: &BTreeMap<N, BTreeSet<N>>) -> Vec<Vec<N>> {
    struct State<N> {
        index: BTreeMap<N, usize>,
        low: BTreeMap<N, usize>,
        stack: Vec<N>,
        on_stack: BTreeSet<N>,
        out: Vec<Vec<N>>,
    }
    fn visit<N: Ord + Clone>(n: &N, edges: &BTreeMap<N, BTreeSet<N>>, st: &mut State<N>) {
        let i = st.index.len();
        st.index.insert(n.clone(), i);
        st.low.insert(n.clone(), i);
        st.stack.push(n.clone());
        st.on_stack.insert(n.clone());
        for m in edges.get(n).into_iter().flatten() {
            if !st.index.contains_key(m) {
                visit(m, edges, st);
                let low = st.low[n].min(st.low[m]);
                st.low.insert(n.clone(), low);
            } else if st.on_stack.contains(m) {
                let low = st.low[n].min(st.index[m]);
                st.low.insert(n.clone(), low);
            }
        }
        if st.low[n] == st.index[n] {
            let mut component = Vec::new();
            while let Some(m) = st.stack.pop() {
                st.on_stack.remove(&m);
                let done = &m == n;
                component.push(m);
                if done {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                st.out.push(component);
            }
        }
    }
    let mut st = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for n in edges.keys() {
        if !st.index.contains_key(n) {
            visit(n, edges, &mut st);
        }
    }
    st.out
}

/// The file graph (edges to a file's own ancestors left out: a parent declares its children)
/// and the top-level module graph.
type Graphs = (
    BTreeMap<ModPath, BTreeSet<ModPath>>,
    BTreeMap<String, BTreeSet<String>>,
);

fn graphs(src: &Path) -> Graphs {
    let files = library_files(src);
    let (mut by_file, mut by_top) = (BTreeMap::new(), BTreeMap::new());
    for (module, path) in &files {
        let code = code_of(&std::fs::read_to_string(path).expect("read source"));
        for named in paths_named(&code) {
            let Some(target) = resolve(module, &named, &files) else {
                continue;
            };
            if target.is_empty() || module.starts_with(&target) {
                continue;
            }
            by_file
                .entry(module.clone())
                .or_insert_with(BTreeSet::new)
                .insert(target.clone());
            if let (Some(a), Some(b)) = (module.first(), target.first()) {
                if a != b {
                    by_top
                        .entry(a.clone())
                        .or_insert_with(BTreeSet::new)
                        .insert(b.clone());
                }
            }
        }
    }
    (by_file, by_top)
}

/// The file cycles still to break (none: a cycle that comes back fails the test; to allow one
/// for a while, name its files here).
const KNOWN_FILE_CYCLES: &[&[&str]] = &[];

#[test]
fn imports_run_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (by_file, by_top) = graphs(&src);
    assert!(
        by_top.get("server").is_some_and(|t| t.contains("store")),
        "the reader found no import at all: {by_top:?}"
    );
    let top = cycles(&by_top);
    let files: Vec<Vec<String>> = cycles(&by_file)
        .into_iter()
        .map(|c| c.into_iter().map(|m| m.join("::")).collect())
        .collect();
    let known: Vec<Vec<String>> = KNOWN_FILE_CYCLES
        .iter()
        .map(|c| c.iter().map(|m| m.to_string()).collect())
        .collect();
    assert!(
        top.is_empty() && files == known,
        "imports that run in a circle\n  modules: {top:?}\n  files: {files:?}\n  \
         (files allowed for now: {known:?}; a cycle that is gone comes off that list)"
    );
}

/// Whether `code` reads a field named `store` (`state.store`, a line ending in `.store`):
/// the handle to the database, which only the services hold.
fn reads_the_store(code: &str) -> bool {
    code.match_indices(".store").any(|(i, m)| {
        !code[i + m.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// Pages know only the services (docs/contributing.md): nothing under `src/web/` imports
/// `crate::store` or reads the state's store, and no `api_*.rs` handler reads the store
/// (the services under `server/services/` do).
#[test]
fn pages_and_handlers_reach_the_store_only_through_the_services() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = library_files(&src);
    let mut offenders = Vec::new();
    let mut pages = 0;
    for (module, path) in &files {
        let page = module.first().is_some_and(|m| m == "web");
        let handler = module.len() == 2 && module[0] == "server" && module[1].starts_with("api_");
        if !page && !handler {
            continue;
        }
        pages += usize::from(page);
        let code = code_of(&std::fs::read_to_string(path).expect("read source"));
        let imports_store = paths_named(&code)
            .iter()
            .filter_map(|p| resolve(module, p, &files))
            .any(|target| target.first().is_some_and(|t| t == "store"));
        if (page && imports_store) || reads_the_store(&code) {
            offenders.push(module.join("::"));
        }
    }
    assert!(
        pages >= 5,
        "the reader found no page under src/web: {pages}"
    );
    assert!(
        offenders.is_empty(),
        "pages or handlers that reach the store without a service: {offenders:?}"
    );
}

#[test]
fn a_store_read_is_seen() {
    assert!(reads_the_store("let u = state.store.list_users();"));
    assert!(reads_the_store(
        "let u = state\n        .store\n        .get(n);"
    ));
    assert!(!reads_the_store(
        "let s = self.stored; let t = x.store_refusal(e);"
    ));
    let files = BTreeMap::from([
        (vec!["store".to_string()], PathBuf::from("store/mod.rs")),
        (vec!["web".to_string()], PathBuf::from("web/mod.rs")),
    ]);
    let from = vec!["web".to_string(), "admin".to_string()];
    assert_eq!(
        resolve(&from, "crate::store::User", &files),
        Some(vec!["store".to_string()])
    );
}

#[test]
fn a_cycle_is_found() {
    let mut edges = BTreeMap::new();
    edges.insert("a", BTreeSet::from(["b"]));
    edges.insert("b", BTreeSet::from(["c"]));
    edges.insert("c", BTreeSet::from(["a", "d"]));
    assert_eq!(cycles(&edges), vec![vec!["a", "b", "c"]]);
    edges.insert("c", BTreeSet::from(["d"]));
    assert!(cycles(&edges).is_empty());
}

#[test]
fn use_trees_expand() {
    assert_eq!(
        expand("super::{a, b::{C, D as E}, f::*}"),
        ["super::a", "super::b::C", "super::b::D", "super::f::*"]
    );
}
