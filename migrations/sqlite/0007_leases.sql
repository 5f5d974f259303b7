-- Leases and nodes. A claim records which node instance holds the submission and until when
-- (`lease_owner`, `lease_expires_at`, ISO 8601 UTC text), renewed by the node's heartbeat. On
-- SQLite one daemon owns the file, so a crash is still recovered at start (requeue_stale); the
-- columns keep both stores alike and show who is judging what.
ALTER TABLE submissions ADD COLUMN lease_owner TEXT;
ALTER TABLE submissions ADD COLUMN lease_expires_at TEXT;

-- Every node that judges or serves from this database: its kind, the instance now running
-- under the name, its judging slots, the hash of each problem package it loaded (JSON object,
-- problem id -> hash) and its last heartbeat.
CREATE TABLE nodes (
    name          TEXT    PRIMARY KEY,
    kind          TEXT    NOT NULL CHECK (kind IN ('serve', 'worker')),
    instance      TEXT    NOT NULL,
    slots         INTEGER NOT NULL,
    hashes        TEXT    NOT NULL DEFAULT '{}',
    started_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    heartbeat_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
