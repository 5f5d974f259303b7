//! The OpenAPI 3.1 document of the whole API, generated from the handlers' `#[utoipa::path]`
//! annotations and the types' `ToSchema` derives, served at `GET /api/openapi.json`.

use axum::Json;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use super::{
    api_auth, api_clarifications, api_contests, api_health, api_languages, api_nodes, api_problems,
    api_runs, api_scoreboard, api_submissions,
};

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "A token from POST /api/login or `sudojudge user token`. Not needed \
                         in the open single-user mode.",
                    ))
                    .build(),
            ),
        );
    }
}

/// The API document.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "sudojudge",
        description = "An online judge for three Sudoku problems. Errors are \
                       {\"error\":{\"code\",\"message\"}}. With accounts in force every \
                       endpoint but health, problems, languages, login and this document needs \
                       Authorization: Bearer TOKEN."
    ),
    paths(
        api_health::get,
        api_problems::list,
        api_problems::get,
        super::api_packages::upload,
        api_languages::list,
        api_submissions::create,
        api_submissions::list,
        api_submissions::get,
        api_submissions::rejudge,
        api_runs::create,
        api_auth::login,
        api_auth::logout,
        api_auth::me,
        api_contests::list,
        super::api_contest_defs::create,
        super::api_contest_defs::edit,
        super::api_contest_defs::definition,
        super::api_contest_defs::delete,
        api_contests::get,
        api_contests::start,
        api_contests::submit,
        api_contests::problem,
        api_contests::unfreeze,
        api_contests::freeze,
        api_contests::rejudge,
        api_scoreboard::get,
        api_clarifications::list,
        api_clarifications::create,
        api_clarifications::answer,
        super::api_metrics::get,
        super::api_rejudgings::create,
        super::api_rejudgings::list,
        super::api_rejudgings::get,
        super::api_rejudgings::apply,
        super::api_rejudgings::cancel,
        super::api_users::cancel,
        api_nodes::list,
        get,
    ),
    modifiers(&BearerAuth)
)]
pub struct ApiDoc;

/// `GET /api/openapi.json`: this document (public).
#[utoipa::path(get, path = "/api/openapi.json", operation_id = "openapi", tag = "health",
    responses((status = 200, description = "the OpenAPI document", content_type = "application/json",
               body = Object)))]
pub async fn get() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}
