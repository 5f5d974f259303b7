//! A package's output validator program: found in `output_validator/` (2023-07 and later)
//! or `output_validators/` (legacy), in C, C++ or Python, and made one source file so it
//! compiles through the judge's compile cache like a submission (local `#include "x.h"`
//! files are inlined, each once, with `#line` marks so compiler messages name the right
//! file).

use std::path::{Path, PathBuf};

use super::super::ProblemError;
use super::{invalid, read_err};

/// Largest source file of a validator program read (testlib.h is about 200 KiB).
const MAX_SOURCE_BYTES: u64 = 4 << 20;

/// The language id of a source file's extension (the language table's ids).
pub fn language_of(path: &Path) -> Option<&'static str> {
    match path.extension().and_then(|e| e.to_str())? {
        "c" => Some("c"),
        "cc" | "cpp" | "cxx" | "c++" => Some("cpp"),
        "py" => Some("python"),
        _ => None,
    }
}

fn entries(dir: &Path) -> Result<Vec<PathBuf>, ProblemError> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).map_err(|e| read_err(dir, e))? {
        out.push(e.map_err(|e| read_err(dir, e))?.path());
    }
    out.sort();
    Ok(out)
}

/// The program in a validators folder: its one entry when it has one (a file or a folder),
/// else the folder itself.
pub fn program_in(folder: &Path) -> Result<PathBuf, ProblemError> {
    let list = entries(folder)?;
    match list.as_slice() {
        [] => Err(invalid(folder, "empty: no validator program in it")),
        [one] => Ok(one.clone()),
        _ => Ok(folder.to_path_buf()),
    }
}

/// The language and the single-file source of the program at `path` (a file, or a folder
/// with exactly one main source file and any headers).
pub fn source_of(path: &Path) -> Result<(&'static str, Vec<u8>), ProblemError> {
    let main = if path.is_dir() {
        let list = entries(path)?;
        if let Some(script) = list.iter().find(|p| {
            matches!(
                p.file_name().and_then(|n| n.to_str()),
                Some("build" | "run" | "Makefile" | "makefile")
            )
        }) {
            return Err(invalid(script, "build and run scripts are not supported"));
        }
        let sources: Vec<&PathBuf> = list.iter().filter(|p| language_of(p).is_some()).collect();
        match sources.as_slice() {
            [one] => (*one).clone(),
            [] => {
                return Err(invalid(
                    path,
                    "no source file in C (.c), C++ (.cc, .cpp) or Python (.py)",
                ))
            }
            _ => {
                return Err(invalid(
                    path,
                    format!(
                        "{} source files: programs of several compiled units are not \
                         supported (headers are)",
                        sources.len()
                    ),
                ))
            }
        }
    } else {
        path.to_path_buf()
    };
    let language = language_of(&main)
        .ok_or_else(|| invalid(&main, "not C (.c), C++ (.cc, .cpp) or Python (.py)"))?;
    let mut seen = Vec::new();
    let mut out = Vec::new();
    inline(&main, language != "python", &mut seen, &mut out, 0)?;
    Ok((language, out))
}

fn read_source(path: &Path) -> Result<Vec<u8>, ProblemError> {
    let meta = std::fs::metadata(path).map_err(|e| read_err(path, e))?;
    if meta.len() > MAX_SOURCE_BYTES {
        return Err(invalid(
            path,
            format!("larger than {MAX_SOURCE_BYTES} bytes"),
        ));
    }
    std::fs::read(path).map_err(|e| read_err(path, e))
}

/// Appends `path`'s text to `out`, with each `#include "name"` of a file in the same folder
/// replaced by that file (once per file).
fn inline(
    path: &Path,
    c_like: bool,
    seen: &mut Vec<PathBuf>,
    out: &mut Vec<u8>,
    depth: usize,
) -> Result<(), ProblemError> {
    if depth > 16 {
        return Err(invalid(path, "includes nested deeper than 16"));
    }
    let bytes = read_source(path)?;
    if !c_like {
        out.extend_from_slice(&bytes);
        return Ok(());
    }
    let folder = path.parent().unwrap_or(Path::new("."));
    let file_name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("source");
    let text = String::from_utf8_lossy(&bytes);
    for (number, line) in text.split_inclusive('\n').enumerate() {
        let local = line
            .trim_start()
            .strip_prefix("#include")
            .map(str::trim)
            .and_then(|rest| rest.strip_prefix('"'))
            .and_then(|rest| rest.split('"').next())
            .filter(|name| !name.contains('/') && folder.join(name).is_file());
        match local {
            Some(name) => {
                let header = folder.join(name);
                if !seen.contains(&header) {
                    seen.push(header.clone());
                    out.extend_from_slice(format!("#line 1 \"{name}\"\n").as_bytes());
                    inline(&header, true, seen, out, depth + 1)?;
                    out.extend_from_slice(
                        format!("\n#line {} \"{file_name}\"\n", number + 2).as_bytes(),
                    );
                }
            }
            None => out.extend_from_slice(line.as_bytes()),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_inlined_once_and_programs_found() {
        let dir = tempfile::tempdir().unwrap();
        let v = dir.path().join("output_validators/check");
        std::fs::create_dir_all(&v).unwrap();
        std::fs::write(v.join("a.h"), "#pragma once\nint a;\n").unwrap();
        std::fs::write(v.join("b.h"), "#include \"a.h\"\nint b;\n").unwrap();
        std::fs::write(
            v.join("main.cc"),
            "#include <cstdio>\n#include \"a.h\"\n#include \"b.h\"\nint main() {}\n",
        )
        .unwrap();
        let program = program_in(&dir.path().join("output_validators")).unwrap();
        assert_eq!(program, v);
        let (language, source) = source_of(&program).unwrap();
        assert_eq!(language, "cpp");
        let text = String::from_utf8(source).unwrap();
        assert_eq!(text.matches("int a;").count(), 1, "{text}");
        assert!(
            text.contains("int b;") && text.contains("#include <cstdio>"),
            "{text}"
        );
        assert!(text.contains("#line 4 \"main.cc\""), "{text}");
        std::fs::write(v.join("other.cc"), "").unwrap();
        let err = source_of(&program).unwrap_err().to_string();
        assert!(err.contains("2 source files"), "{err}");
        std::fs::write(v.join("build"), "").unwrap();
        let err = source_of(&program).unwrap_err().to_string();
        assert!(err.contains("build: build and run scripts"), "{err}");
    }
}
