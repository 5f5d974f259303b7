-- Rejudgings (issue 30, point 3; PostgreSQL's 0011), as DOMjudge's rejudging sets: a jury
-- member's rejudge of a contest, one of its problems or chosen submissions first runs aside.
-- Its runs are judged through a queue of their own (`rejudging_runs`, claimed under a lease as
-- submissions are) and their results kept here, never in `submissions`/`test_results`, until
-- the jury applies the rejudging; dropping it leaves the submissions as they were.
CREATE TABLE rejudgings (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    contest     TEXT    NOT NULL,
    -- The scope: one problem's label, or NULL for every problem.
    label       TEXT,
    -- The scope: the chosen submission ids (comma-separated), or NULL for all in scope.
    chosen      TEXT,
    created_by  TEXT    NOT NULL,
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    state       TEXT    NOT NULL DEFAULT 'open'
                CHECK (state IN ('open', 'applied', 'cancelled')),
    closed_by   TEXT,
    closed_at   TEXT
);
-- One open rejudging per contest.
CREATE UNIQUE INDEX rejudgings_open ON rejudgings (contest) WHERE state = 'open';

-- One submission judged again aside: its problem and the data hash it is to be judged with
-- (the claim's data filter, as `submissions`'), its claim, its result and its tests' results
-- (a JSON array, copied into `test_results` when the rejudging is applied).
CREATE TABLE rejudging_runs (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    rejudging_id        INTEGER NOT NULL REFERENCES rejudgings (id) ON DELETE CASCADE,
    submission_id       INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    problem             TEXT    NOT NULL,
    submitted_data_hash TEXT,
    status              TEXT    NOT NULL DEFAULT 'queued'
                        CHECK (status IN ('queued', 'judging', 'done')),
    attempt             INTEGER NOT NULL DEFAULT 0,
    worker              TEXT,
    lease_owner         TEXT,
    lease_expires_at    TEXT,
    verdict             TEXT,
    score               INTEGER,
    time_ms             INTEGER,
    memory_kib          INTEGER,
    compile_ok          INTEGER,
    compile_log         TEXT,
    message             TEXT,
    degraded            INTEGER NOT NULL DEFAULT 0,
    judged_data_hash    TEXT,
    tests               TEXT,
    finished_at         TEXT,
    UNIQUE (rejudging_id, submission_id)
);
CREATE INDEX rejudging_runs_waiting ON rejudging_runs (id) WHERE status <> 'done';
