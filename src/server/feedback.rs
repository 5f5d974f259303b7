//! What of a submission's secret tests a caller is shown, by the view the access rules chose
//! ([`crate::accounts::access::feedback`]). Contestants see verdict, time and memory of secret
//! tests; checker messages (which may quote the hidden input), exit codes and signals are for
//! the host. The feedback issue's redaction function replaces this one at merge; until then
//! this is the rule applied.

use crate::accounts::Feedback;
use crate::store::Submission;

/// Test names under this prefix are secret; samples are shown with the statement anyway.
const SECRET_PREFIX: &str = "secret/";

/// Removes from `submission` what `view` does not show.
pub fn apply(view: Feedback, submission: &mut Submission) {
    if view == Feedback::Full {
        return;
    }
    for t in submission
        .tests
        .iter_mut()
        .filter(|t| t.name.starts_with(SECRET_PREFIX))
    {
        t.message = None;
        t.exit_code = None;
        t.signal = None;
    }
}
