//! Unit tests: a good zip is extracted; every hostile one is refused and leaves nothing.

use super::*;
use zip::write::SimpleFileOptions;

/// A zip at `dir/name` with `files` (name, bytes), deflated.
fn make(dir: &Path, name: &str, files: &[(&str, &[u8])]) -> PathBuf {
    let path = dir.join(name);
    let mut w = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    let options = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in files {
        if name.ends_with('/') {
            w.add_directory(*name, options).unwrap();
        } else {
            w.start_file(*name, options).unwrap();
            w.write_all(bytes).unwrap();
        }
    }
    w.finish().unwrap();
    path
}

/// Every path under `dir`, relative.
fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            out.push(p.strip_prefix(dir).unwrap().display().to_string());
            if p.is_dir() && !p.is_symlink() {
                stack.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn a_plain_zip_is_extracted() {
    let dir = tempfile::tempdir().unwrap();
    let zip = make(
        dir.path(),
        "class.zip",
        &[
            ("Kim Lee_1_assignsubmission_file_/", b""),
            ("Kim Lee_1_assignsubmission_file_/a.c", b"int main(){}"),
            ("b/./c.py", b"print(1)"),
        ],
    );
    let out = dir.path().join("out");
    let got = extract(&zip, &out, &Limits::default()).unwrap();
    assert_eq!(got.files.len(), 2);
    assert_eq!(got.bytes, 20);
    assert_eq!(std::fs::read(out.join("b/c.py")).unwrap(), b"print(1)");
    assert!(
        extract(&zip, &out, &Limits::default()).is_err(),
        "the folder must be new"
    );
}

#[test]
fn hostile_zips_are_refused_and_leave_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let cases: Vec<(PathBuf, &str)> = vec![
        (
            make(
                dir.path(),
                "up.zip",
                &[("ok.c", b"x"), ("../escaped.c", b"x")],
            ),
            "`..`",
        ),
        (
            make(dir.path(), "deep.zip", &[("a/../../escaped.c", b"x")]),
            "`..`",
        ),
        (
            make(dir.path(), "abs.zip", &[("/tmp/escaped.c", b"x")]),
            "absolute",
        ),
        (
            make(dir.path(), "bomb.zip", &[("bomb.c", &vec![b' '; 64 << 20])]),
            "zip bomb",
        ),
    ];
    let link = dir.path().join("link.zip");
    {
        let mut w = zip::ZipWriter::new(std::fs::File::create(&link).unwrap());
        w.add_symlink("alice.c", "/etc/shadow", SimpleFileOptions::default())
            .unwrap();
        w.finish().unwrap();
    }
    let many: Vec<(String, Vec<u8>)> = (0..30).map(|i| (format!("{i}.c"), b"x".to_vec())).collect();
    let many: Vec<(&str, &[u8])> = many
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let many = make(dir.path(), "many.zip", &many);
    let garbage = dir.path().join("garbage.zip");
    std::fs::write(&garbage, b"not a zip").unwrap();
    let limits = Limits {
        max_entries: 20,
        ..Limits::default()
    };
    let before = tree(dir.path());
    for (zip, needle) in cases.iter().map(|(p, n)| (p, *n)).chain([
        (&link, "symbolic link"),
        (&many, "30 entries"),
        (&garbage, "not a readable zip"),
    ]) {
        let out = dir.path().join("out");
        let err = extract(zip, &out, &limits).unwrap_err().to_string();
        assert!(err.contains(needle), "{}: {err}", zip.display());
        assert!(!out.exists(), "{}: the folder is removed", zip.display());
        assert_eq!(
            tree(dir.path()),
            before,
            "{}: nothing left anywhere",
            zip.display()
        );
    }
    assert!(!dir.path().parent().unwrap().join("escaped.c").exists());
    assert!(!Path::new("/tmp/escaped.c").exists());
}

#[test]
fn the_total_is_bounded_on_inflated_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let text: Vec<u8> = (0..200_000u32).flat_map(|i| i.to_le_bytes()).collect();
    let zip = make(dir.path(), "big.zip", &[("a.bin", &text), ("b.bin", &text)]);
    let limits = Limits {
        max_total_bytes: 1_000_000,
        ..Limits::default()
    };
    let out = dir.path().join("out");
    let err = extract(&zip, &out, &limits).unwrap_err().to_string();
    assert!(err.contains("in all"), "{err}");
    assert!(!out.exists());
}
