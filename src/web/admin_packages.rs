//! `POST /admin/problems`: the admin page's "Add a problem" form (a package zip, an optional
//! id), over the same service as `POST /api/problems`. The body was let through by the upload
//! gate (admins only, one at a time) and bounded by `[problems] max_upload_kib`; here at most
//! `MAX_FIELDS` fields are read.

use axum::extract::{Multipart, State};

use crate::server::services::packages;
use crate::server::AppState;

use super::admin::{admin_nav, page, Outcome};
use super::page::{Visitor, WebResult};

/// Fields read before the form is refused (it has three).
const MAX_FIELDS: usize = 8;
/// Longest problem id kept.
const MAX_ID_BYTES: usize = 255;

/// Adds the uploaded package; the page says which problem now is served, or why not.
pub async fn add(
    State(state): State<AppState>,
    Visitor { caller, nav }: Visitor,
    mut form: Multipart,
) -> WebResult {
    let nav = admin_nav(&caller, nav)?;
    let mut zip: Option<Vec<u8>> = None;
    let mut id: Option<String> = None;
    for _ in 0..MAX_FIELDS {
        let Ok(Some(field)) = form.next_field().await else {
            break;
        };
        let name = field.name().unwrap_or("").to_string();
        let Ok(bytes) = field.bytes().await else {
            break;
        };
        match name.as_str() {
            "file" if !bytes.is_empty() => zip = Some(bytes.to_vec()),
            "id" if bytes.len() <= MAX_ID_BYTES => {
                id = Some(String::from_utf8_lossy(&bytes).trim().to_string())
            }
            _ => {}
        }
    }
    let outcome = match zip {
        None => Outcome {
            status: Some(axum::http::StatusCode::UNPROCESSABLE_ENTITY),
            error: Some("choose a package zip".into()),
            ..Outcome::default()
        },
        Some(zip) => match packages::upload(&state, &caller, zip, id).await {
            Ok(p) => Outcome {
                notice: Some(format!(
                    "problem {} ({}) added: checked, and served from now on",
                    p.id, p.title
                )),
                ..Outcome::default()
            },
            Err(e) => Outcome {
                status: Some(e.status_and_code().0),
                error: Some(format!("the package was refused, nothing was kept: {e}")),
                ..Outcome::default()
            },
        },
    };
    page(&state, &caller, nav, outcome).await
}
