//! The file-name conventions of the LMS exports a teacher downloads, to student names and
//! ids, and the gradebook in the column layout each LMS imports back.
//!
//! - Moodle ("Download all submissions"): a folder per student and plugin,
//!   `Kim Lee_4411_assignsubmission_file_/bsudoku.c`, or, without folders, one file each,
//!   `Kim Lee_4411_assignsubmission_file_bsudoku.c`; `4411` is the participant id. The
//!   `..._assignsubmission_onlinetext_` folder holds the online text, not the submission.
//! - Canvas ("Download submissions"): flat files, `kimlee_4411_889123_bsudoku.c` (late:
//!   `kimlee_LATE_4411_889123_bsudoku.c`): the login-ish name, the user id, the
//!   attachment id, the file name as uploaded.

/// Which LMS an entry's name follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Lms {
    /// Moodle's assignment export and offline grading worksheet.
    Moodle,
    /// Canvas's submissions download and gradebook import.
    Canvas,
}

/// A student named by an LMS entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// The student's name as the LMS wrote it.
    pub student: String,
    /// The LMS's id of the student.
    pub id: String,
    /// Which LMS.
    pub lms: Lms,
    /// Moodle's plugin (`file`, `onlinetext`), when named.
    pub plugin: Option<String>,
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// The Moodle name `Full Name_ID_assignsubmission_PLUGIN_[rest]`.
fn moodle(name: &str) -> Option<Named> {
    let at = name.find("_assignsubmission_")?;
    let (head, tail) = name.split_at(at);
    let (student, id) = head.rsplit_once('_')?;
    let plugin = tail.strip_prefix("_assignsubmission_")?.split('_').next()?;
    (digits(id) && !student.trim().is_empty()).then(|| Named {
        student: student.trim().to_string(),
        id: id.to_string(),
        lms: Lms::Moodle,
        plugin: Some(plugin.to_string()),
    })
}

/// The Canvas name `name_[LATE_]USERID_ATTACHMENTID_file`.
fn canvas(name: &str) -> Option<Named> {
    let mut parts = name.splitn(5, '_');
    let student = parts.next()?;
    let mut id = parts.next()?;
    if id.eq_ignore_ascii_case("late") {
        id = parts.next()?;
    }
    let attachment = parts.next()?;
    let rest: String = parts.collect::<Vec<_>>().join("_");
    (digits(id) && digits(attachment) && !student.is_empty() && !rest.is_empty()).then(|| Named {
        student: student.to_string(),
        id: id.to_string(),
        lms: Lms::Canvas,
        plugin: None,
    })
}

/// The student an entry of a class folder names, when it follows an LMS's convention.
pub fn parse(entry: &str) -> Option<Named> {
    moodle(entry).or_else(|| canvas(entry))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moodle_and_canvas_names() {
        let m = parse("Kim Lee_4411_assignsubmission_file_").unwrap();
        assert_eq!(
            (m.student.as_str(), m.id.as_str(), m.lms),
            ("Kim Lee", "4411", Lms::Moodle)
        );
        assert_eq!(m.plugin.as_deref(), Some("file"));
        let flat = parse("Anna_Maria Ruiz_77_assignsubmission_file_sol_v2.C").unwrap();
        assert_eq!(
            (flat.student.as_str(), flat.id.as_str()),
            ("Anna_Maria Ruiz", "77")
        );
        let text = parse("Kim Lee_4411_assignsubmission_onlinetext_").unwrap();
        assert_eq!(text.plugin.as_deref(), Some("onlinetext"));
        let c = parse("kimlee_4411_889123_bsudoku.c").unwrap();
        assert_eq!(
            (c.student.as_str(), c.id.as_str(), c.lms),
            ("kimlee", "4411", Lms::Canvas)
        );
        let late = parse("kimlee_LATE_4411_889124_my_sol-1.cpp").unwrap();
        assert_eq!(late.id, "4411");
        for plain in [
            "alice.c",
            "Carol Smith_123456_folder",
            "a_b_c.c",
            "x_1_y_z.c",
        ] {
            assert_eq!(parse(plain), None, "{plain}");
        }
    }
}
