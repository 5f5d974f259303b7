//! Output validators that run in the judge's own process: the built-in Sudoku checkers
//! ([`crate::checkers`]) and the Kattis format's default validator ([`default`]). A
//! package's validator program runs in the sandbox instead (`crate::judge::validate`).

pub mod checktestdata;
pub mod default;

use crate::checkers::{self, CheckOutcome};
use crate::problem::validator::DefaultFlags;
use crate::problem::OutputValidator;

/// Checks `output` for one test with the validator the package names: the test's
/// validator arguments, its `input` and reference `answer` as bytes.
pub fn check(
    validator: &OutputValidator,
    args: &[String],
    input: &[u8],
    output: &[u8],
    answer: &[u8],
) -> CheckOutcome {
    match validator {
        OutputValidator::Builtin(kind) => checkers::check(*kind, input, output, answer),
        OutputValidator::Default => match DefaultFlags::parse(args) {
            Ok(flags) => default::check(&flags, output, answer),
            Err(e) => CheckOutcome::JudgeError(format!("validator flags: {e}")),
        },
        OutputValidator::Program(p) => CheckOutcome::JudgeError(format!(
            "{} is a program: it runs in the sandbox, not in the judge",
            p.path.display()
        )),
    }
}
