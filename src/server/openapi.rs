//! The OpenAPI 3.1 document of the whole API, generated from the handlers' `#[utoipa::path]`
//! annotations and the types' `ToSchema` derives, served at `GET /api/openapi.json`.

use axum::Json;
use serde::Serialize;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi, ToSchema};

use super::{
    api_auth, api_clarifications, api_contests, api_health, api_nodes, api_problems, api_runs,
    api_scoreboard, api_submissions,
};

/// The body of every error: `{"error":{"code","message"}}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// The error.
    pub error: ErrorDetail,
}

/// One error.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorDetail {
    /// Machine-readable code (`not_found`, `unauthenticated`, `rate_limited`...).
    pub code: String,
    /// What went wrong, for people.
    pub message: String,
    /// `in_contest`: the contest that holds the problem for the caller.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contest: Option<String>,
}

/// The body of `GET /api/health` (documentation of the JSON the handler builds). Everyone
/// reads `ok` and `version`; the other fields are the host's (the open mode's caller, an
/// admin, or the `[metrics] token`).
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// Whether the database answers.
    pub ok: bool,
    /// Submissions waiting (`null` when the database does not answer). The host's.
    #[schema(required = false)]
    pub queue_depth: Option<u64>,
    /// Judging workers. The host's.
    #[schema(required = false)]
    pub workers: u64,
    /// What the sandbox can use on this host. The host's.
    #[schema(value_type = Object, required = false)]
    pub sandbox: serde_json::Value,
    /// This node's name (`--node`, `[node] name`, else the host's name). The host's.
    #[schema(required = false)]
    pub node: String,
    /// The sudojudge version this node runs.
    pub version: String,
    /// Per problem id, the hash of the package data this node judges with (limits, checker
    /// kind, tests): nodes sharing a database must show the same. The host's.
    #[schema(required = false)]
    pub data_hashes: std::collections::BTreeMap<String, String>,
    /// Present when the database does not answer.
    #[schema(nullable = false)]
    pub error: Option<ErrorDetail>,
    /// The nodes on the database (empty when it does not answer). The host's.
    #[schema(required = false)]
    pub nodes: Vec<NodeSummary>,
}

/// A node as `GET /api/health` shows it (`GET /api/nodes` adds its package hashes).
#[derive(Debug, Serialize, ToSchema)]
pub struct NodeSummary {
    /// The node's name.
    pub name: String,
    /// serve or worker.
    pub kind: crate::store::NodeKind,
    /// Judging slots.
    pub slots: u64,
    /// Milliseconds since its last heartbeat.
    pub heartbeat_age_ms: u64,
    /// Whether it still holds its leases.
    pub alive: bool,
}

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
                       endpoint but health, problems, login and this document needs \
                       Authorization: Bearer TOKEN."
    ),
    paths(
        api_health::get,
        api_problems::list,
        api_problems::get,
        api_submissions::create,
        api_submissions::list,
        api_submissions::get,
        api_submissions::rejudge,
        api_runs::create,
        api_auth::login,
        api_auth::logout,
        api_auth::me,
        api_contests::list,
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
