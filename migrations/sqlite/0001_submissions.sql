-- Submissions and their per-test results. Timestamps are ISO 8601 UTC text written by SQLite.

CREATE TABLE submissions (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    problem      TEXT    NOT NULL,
    language     TEXT    NOT NULL,
    source       TEXT    NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'queued'
                 CHECK (status IN ('queued', 'compiling', 'running', 'done')),
    -- Bumped by every claim: a worker's late completion of an older attempt is ignored.
    attempt      INTEGER NOT NULL DEFAULT 0,
    worker       TEXT,
    verdict      TEXT,
    score        INTEGER,
    time_ms      INTEGER,
    memory_kib   INTEGER,
    compile_ok   INTEGER,
    compile_log  TEXT,
    -- The cause of a submission-level SE.
    message      TEXT,
    degraded     INTEGER NOT NULL DEFAULT 0,
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    queued_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    started_at   TEXT,
    finished_at  TEXT
);

-- The queue: oldest first among the queued.
CREATE INDEX submissions_queue ON submissions (queued_at, id) WHERE status = 'queued';
-- Listing by problem, newest first.
CREATE INDEX submissions_problem ON submissions (problem, id);

CREATE TABLE test_results (
    submission_id INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    ordinal       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    verdict       TEXT    NOT NULL,
    time_ms       INTEGER NOT NULL,
    wall_ms       INTEGER NOT NULL,
    memory_kib    INTEGER NOT NULL,
    exit_code     INTEGER,
    signal        INTEGER,
    message       TEXT,
    PRIMARY KEY (submission_id, ordinal)
) WITHOUT ROWID;
