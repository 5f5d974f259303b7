//! The boards computed once per data version ([`BoardCache`], held by the loaded
//! [`Contests`](super::Contests)), each with its JSON, gzip body and entity tag.

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex};

use flate2::write::GzEncoder;
use flate2::Compression;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::contest::{Scoreboard, Shown};
use crate::server::error::{ApiError, ApiResult};

use super::state_reads::StateReads;

/// `GET /api/contests/{id}/scoreboard`: the board with the version it was computed at.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct BoardView {
    /// The contest's id.
    pub contest: String,
    /// Which board this is: the data version it was computed from (it grows with every
    /// change) when nothing is hidden from the caller; while something is (a frozen icpc
    /// board, hidden oi results), a tag of what the board shows, which changes exactly when
    /// the shown board does (so neither it nor the `ETag` moves when a hidden result is
    /// judged).
    pub version: u64,
    /// The ranked rows.
    #[serde(flatten)]
    pub board: Scoreboard,
    /// The display names of the board's users who have one (`user` -> name shown), as
    /// imported from a roster or given to `sudojudge user add --display-name`.
    pub display_names: std::collections::BTreeMap<String, String>,
}

impl BoardView {
    /// The name a board shows for `user`: the display name, else the login name.
    pub fn shown_name<'a>(&'a self, user: &'a str) -> &'a str {
        self.display_names.get(user).map_or(user, String::as_str)
    }
}

/// A board computed once, with its JSON, shared by every reader of that version.
#[derive(Debug)]
pub struct CachedBoard {
    /// The board.
    pub view: BoardView,
    /// The contest data's version it was computed from (the cache's key; for a board that
    /// hides something, not the `version` it shows).
    pub data_version: u64,
    /// `view` as JSON, the body of every answer (shared, not copied).
    pub json: axum::body::Bytes,
    /// `json` gzip-compressed once, for clients that accept it (21 KB for the 443 KB board of
    /// the load test).
    pub gzip: axum::body::Bytes,
    /// A weak entity tag of `json` (a hash of it: the JSON holds the version, so a new
    /// version has a new tag), for `If-None-Match`.
    pub etag: String,
}

impl CachedBoard {
    /// The board with its JSON, gzip body and entity tag, computed once per version.
    pub(super) fn encode(view: BoardView, data_version: u64) -> ApiResult<CachedBoard> {
        let json = serde_json::to_vec(&view)
            .map_err(|e| ApiError::Internal(format!("cannot encode the board: {e}")))?;
        let mut gz = GzEncoder::new(Vec::with_capacity(json.len() / 8), Compression::default());
        gz.write_all(&json)
            .map_err(|e| ApiError::Internal(format!("cannot compress the board: {e}")))?;
        let gzip = gz
            .finish()
            .map_err(|e| ApiError::Internal(format!("cannot compress the board: {e}")))?;
        let digest = Sha256::digest(&json);
        let etag = format!("W/\"{}\"", hex::encode(&digest[..16]));
        Ok(CachedBoard {
            view,
            data_version,
            json: json.into(),
            gzip: gzip.into(),
            etag,
        })
    }
}

/// Boards by contest and what they hide, each with its version; one computation at a time,
/// so a crowd of readers arriving after a change waits for one board instead of computing
/// one each; and the version read once for the requests that arrive while it is read.
#[derive(Default)]
pub struct BoardCache {
    boards: Mutex<HashMap<(String, Shown), Arc<CachedBoard>>>,
    pub(super) computing: tokio::sync::Mutex<()>,
    pub(super) states: StateReads,
}

impl BoardCache {
    pub(super) fn current(&self, id: &str, shown: Shown, version: u64) -> Option<Arc<CachedBoard>> {
        let boards = self.boards.lock().unwrap_or_else(|e| e.into_inner());
        boards
            .get(&(id.to_string(), shown))
            .filter(|b| b.data_version == version)
            .cloned()
    }

    pub(super) fn keep(&self, id: &str, shown: Shown, board: Arc<CachedBoard>) {
        let mut boards = self.boards.lock().unwrap_or_else(|e| e.into_inner());
        let slot = boards
            .entry((id.to_string(), shown))
            .or_insert(Arc::clone(&board));
        if slot.data_version < board.data_version {
            *slot = board;
        }
    }
}
