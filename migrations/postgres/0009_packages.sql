-- Packages added to a running judge (issue 29, point 3): the uploaded zip, by problem id,
-- with its data hash, so every node sharing the database fetches it by that hash, extracts
-- it into its own problems folder and serves it. An id is stored once (no replacement).
CREATE TABLE packages (
    problem TEXT PRIMARY KEY,
    data_hash TEXT NOT NULL,
    zip BYTEA NOT NULL,
    bytes BIGINT NOT NULL,
    uploaded_by TEXT,
    uploaded_at TEXT NOT NULL
);
