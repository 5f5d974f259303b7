//! Deleting a contest made at runtime (`DELETE /api/contests/{id}`, the admin page's button):
//! only one nobody used yet (no submission), a mistake fixed before the contest mattered. A
//! contest with submissions keeps them and its results (409, saying what to do instead); a
//! contest file's is the file's to remove (403); its registrations, clarifications, balloon
//! marks and rejudgings go with it. Every node stops serving it from its next request, as
//! after an edit: the definitions' version still grows ([`crate::store::contest_removal`]).

use crate::accounts::{access, Caller};
use crate::server::auth::allow;
use crate::server::error::{ApiError, ApiResult};
use crate::server::state::AppState;
use crate::store::{ContestRemovalStore, DefDelete};

use super::catalog;
use super::loaded::Origin;

/// Deletes the database contest `id` (admins), unless it is a file's (403), unknown (404) or
/// has submissions (409).
pub async fn delete(state: &AppState, caller: &Caller, id: &str) -> ApiResult<()> {
    allow(access::administer(caller), String::new)?;
    let served = state
        .contests
        .served(id)
        .ok_or_else(|| ApiError::NotFound(format!("no contest {id:?}")))?;
    if let Origin::File(path) = served.origin {
        return Err(ApiError::Forbidden(format!(
            "contest {id:?} is read from the file {}: the file wins; remove the file from the \
             contest folder to stop serving it",
            path.display()
        )));
    }
    match state
        .store
        .delete_contest_def(id, state.contests.now())
        .await?
    {
        DefDelete::Deleted(revision) => {
            tracing::info!(contest = %id, revision, "contest made at runtime deleted");
            catalog::reload_database(state).await?;
            Ok(())
        }
        DefDelete::HasSubmissions(n) => Err(ApiError::Conflict(format!(
            "contest {id:?} has {n} submission{}: a contest someone used is not deleted (its \
             results would go with it); to stop it, end it sooner (PATCH /api/contests/{id} \
             with a shorter `timing`)",
            if n == 1 { "" } else { "s" }
        ))),
        DefDelete::Missing => Err(ApiError::NotFound(format!("no contest {id:?}"))),
    }
}
