//! Contests as pure code: contest files, formats, timings, scoreboards and the fair queue.
//!
//! Nothing here touches the database, the network or the sandbox: the store hands this
//! module the judged submissions, this module hands back the board. Time comes from a
//! [`Clock`], so every rule is tested with a fake one.
//!
//! - [`ids`]: the contest id and the problem labels (A, B, C...), newtypes that validate.
//! - [`mod@file`]: `contests/<id>.toml` to a typed [`Contest`], with errors naming file and key
//!   (`file/raw.rs`: the TOML's structure; `file/checks.rs`: one check per key).
//! - [`definition`]: a contest's definition as the API and the admin page exchange it and
//!   the database keeps it (the text of a contest file).
//! - [`edit`]: which edits of a contest would rewrite its history (refused with the reason).
//! - [`languages`]: the one rule of a contest's `languages` list.
//! - [`load`]: every contest of a folder, checked against the problems that exist.
//! - [`clock`]: the clock trait, a real clock and a fake one.
//! - [`timing`]: `fixed`, `window` and `open` timing: where a contestant stands at a time.
//! - [`mod@format`]: `icpc`, `ioi`, `oi`, and how much of a submission each one judges.
//! - [`mod@board`]: the scoreboard types and the ranking shared by the formats.
//! - [`icpc`], [`ioi`], [`oi`]: one scoring function per format.
//! - [`full`]: which IOI/OI cells are solved (a score reaching the problem's full score).
//! - [`view`]: which board an audience sees at an instant (freeze, hidden OI results).
//! - [`rate`]: the per-user submission rate (when a 429 may retry).
//! - [`fair`]: which queued submission a free worker takes.

pub mod board;
pub mod clock;
pub mod definition;
pub mod edit;
pub mod fair;
pub mod file;
pub mod format;
pub mod full;
pub mod icpc;
pub mod ids;
pub mod ioi;
pub mod languages;
pub mod load;
pub mod oi;
pub mod rate;
pub mod timing;
pub mod view;

pub use board::{Audience, Cell, CellState, Outcome, Row, Scoreboard, Submission};
pub use clock::{Clock, FakeClock, SystemClock};
pub use fair::{pick, Queued};
pub use file::{Contest, ContestError, ContestProblem, FieldError, Participants, Rate};
pub use format::Format;
pub use ids::{ContestId, Label};
pub use load::{check_problems, load_all, LoadError};
pub use timing::{Phase, Timing};
pub use view::{board, freeze_begins, scoreboard, shown, Shown};

#[cfg(test)]
mod examples;
