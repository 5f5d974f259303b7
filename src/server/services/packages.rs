//! Adding a package to the running judge, for the API (`POST /api/problems`) and the admin
//! page's form: admins only (the open mode's host too), one zip within `[problems]
//! max_upload_kib`, refused with the file at fault and nothing kept (see
//! [`crate::packages`]).

use std::sync::Arc;

use crate::accounts::{access, Caller};
use crate::packages::PackageError;
use crate::problem::Problem;

use crate::server::auth::allow;
use crate::server::error::{ApiError, ApiResult};
use crate::server::state::AppState;

/// Adds the package in `zip` as problem `id` (else the name of the zip's one top folder).
pub async fn upload(
    state: &AppState,
    caller: &Caller,
    zip: Vec<u8>,
    id: Option<String>,
) -> ApiResult<Arc<Problem>> {
    allow(access::administer(caller), String::new)?;
    let Some(packages) = &state.packages else {
        return Err(ApiError::Internal(
            "this server adds no packages while it runs".into(),
        ));
    };
    if zip.len() > state.max_upload_bytes {
        return Err(ApiError::TooLarge(format!(
            "the zip is {} bytes; the limit is {} KiB ([problems] max_upload_kib)",
            zip.len(),
            state.max_upload_bytes / 1024
        )));
    }
    if zip.is_empty() {
        return Err(ApiError::Invalid(
            "send the package as a zip (the request body, Content-Type: application/zip)".into(),
        ));
    }
    let by = match caller {
        Caller::User(u) => Some(u.name.to_string()),
        _ => None,
    };
    packages
        .upload(zip, id.filter(|i| !i.is_empty()), by)
        .await
        .map_err(|e| match e {
            PackageError::Taken(_) => ApiError::Conflict(e.to_string()),
            PackageError::Io(_) => {
                tracing::error!(error = %e, "a package upload failed");
                ApiError::Internal(e.to_string())
            }
            _ => ApiError::Invalid(e.to_string()),
        })
}

/// The package folders dropped in the problems folder that this node does not serve, each
/// `NAME: reason` (admins only; the admin page lists them beside the upload form).
pub fn refused_folders(state: &AppState, caller: &Caller) -> ApiResult<Vec<String>> {
    allow(access::administer(caller), String::new)?;
    Ok(state
        .packages
        .as_ref()
        .map(|p| {
            p.refused_folders()
                .into_iter()
                .map(|(name, why)| format!("{name}: {why}"))
                .collect()
        })
        .unwrap_or_default())
}
