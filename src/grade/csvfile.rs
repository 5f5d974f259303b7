//! The grade's CSV files (RFC 4180, by the `csv` crate): `grades.csv` with one row per
//! student and `<stem>.similarity.csv` beside it with one row per similar pair. Every text cell
//! (names, paths, messages) goes through [`csv_text`]: control characters escaped, and a
//! cell a spreadsheet would take for a formula made text.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::row::Row;
use super::similarity::{Flag, Pair};
use super::text::csv_text;

/// The header of the grades CSV.
pub const GRADES_HEADER: [&str; 13] = [
    "student",
    "file",
    "language",
    "verdict",
    "score",
    "passed",
    "total",
    "time_ms",
    "memory_kib",
    "message",
    "stderr",
    "team_message",
    "groups",
];

/// The header of the similarity CSV.
pub const SIMILARITY_HEADER: [&str; 7] = [
    "student_a",
    "student_b",
    "similarity",
    "lines_a",
    "lines_b",
    "language",
    "flag",
];

/// Writes `bytes` to a temporary file beside `path`, then renames it over `path`.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

fn to_bytes<const N: usize>(
    header: [&str; N],
    records: impl Iterator<Item = [String; N]>,
) -> std::io::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header).map_err(std::io::Error::other)?;
    for record in records {
        w.write_record(&record).map_err(std::io::Error::other)?;
    }
    w.into_inner()
        .map_err(|e| std::io::Error::other(e.to_string()))
}

/// The grades CSV of `rows`.
pub fn grades_csv(rows: &[Row]) -> std::io::Result<Vec<u8>> {
    to_bytes(
        GRADES_HEADER,
        rows.iter().map(|r| {
            [
                csv_text(&r.student),
                csv_text(&r.file),
                csv_text(&r.language),
                r.verdict_name().to_string(),
                r.score.to_string(),
                r.passed.to_string(),
                r.total.to_string(),
                r.time_ms.to_string(),
                r.memory_kib.to_string(),
                csv_text(&r.message),
                csv_text(r.stderr_tail().unwrap_or("")),
                csv_text(r.team_message().unwrap_or("")),
                csv_text(&r.groups_text()),
            ]
        }),
    )
}

/// Line ranges as `3-10 14-20` (a single line as `7`).
pub fn ranges(lines: &[(u32, u32)]) -> String {
    lines
        .iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The similarity CSV of `pairs`: the similarity as a percentage with one decimal.
pub fn similarity_csv(pairs: &[Pair]) -> std::io::Result<Vec<u8>> {
    to_bytes(
        SIMILARITY_HEADER,
        pairs.iter().map(|p| {
            [
                csv_text(&p.student_a),
                csv_text(&p.student_b),
                format!("{:.1}", p.similarity),
                ranges(&p.lines_a),
                ranges(&p.lines_b),
                csv_text(&p.language),
                match p.flag {
                    Flag::Threshold => "threshold".to_string(),
                    Flag::Class => "class".to_string(),
                },
            ]
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_commas_and_newlines_and_reads_back() {
        let mut row = crate::grade::row::test_row("Smith, \"Al\"", None, 0);
        row.message = "a\nb".into();
        let mut formula = crate::grade::row::test_row("=HYPERLINK(\"https:x\",\"y\")", None, 0);
        formula.file = "@x\x1b[2J.c".into();
        let bytes = grades_csv(&[row, formula]).unwrap();
        assert!(!bytes.contains(&0x1b));
        let mut r = csv::Reader::from_reader(bytes.as_slice());
        assert_eq!(
            r.headers().unwrap(),
            &csv::StringRecord::from(GRADES_HEADER.to_vec())
        );
        let rec = r.records().next().unwrap().unwrap();
        assert_eq!(&rec[0], "Smith, \"Al\"");
        assert_eq!(&rec[3], "-");
        assert_eq!(&rec[9], "a\\nb", "escaped, not a line break");
        let rec = r.records().next().unwrap().unwrap();
        assert_eq!(&rec[0], "'=HYPERLINK(\"https:x\",\"y\")");
        assert_eq!(&rec[1], "'@x\\x1b[2J.c");
        assert_eq!(
            &rec[3], "-",
            "the grade's own '-' is not a student's formula"
        );
        assert_eq!(ranges(&[(1, 4), (7, 7)]), "1-4 7");
    }
}
