-- A submission an admin cancels while it waits keeps its record with the final status
-- 'cancelled' and is never judged (issue 22). SQLite cannot change a CHECK constraint in
-- place, so the submissions table is rebuilt with the new one (its columns, indexes and
-- triggers as migrations 0001-0007 left them). The migration runs in one transaction with
-- foreign keys enforced, where dropping `submissions` would delete every test result (ON
-- DELETE CASCADE): the results are set aside first and put back after.
--
-- Also: the partial index the per-user bound of queued submissions counts through.

CREATE TABLE test_results_kept AS SELECT * FROM test_results;
DROP TABLE test_results;

CREATE TABLE submissions_new (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    problem      TEXT    NOT NULL,
    language     TEXT    NOT NULL,
    source       TEXT    NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'queued'
                 CHECK (status IN ('queued', 'compiling', 'running', 'done', 'cancelled')),
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
    finished_at  TEXT,
    user_id      INTEGER REFERENCES users (id),
    contest      TEXT,
    label        TEXT,
    submitted_at TEXT,
    submitted_data_hash TEXT,
    judged_data_hash    TEXT,
    lease_owner  TEXT,
    lease_expires_at TEXT
);

INSERT INTO submissions_new
    (id, problem, language, source, status, attempt, worker, verdict, score, time_ms,
     memory_kib, compile_ok, compile_log, message, degraded, created_at, queued_at, started_at,
     finished_at, user_id, contest, label, submitted_at, submitted_data_hash, judged_data_hash,
     lease_owner, lease_expires_at)
SELECT id, problem, language, source, status, attempt, worker, verdict, score, time_ms,
       memory_kib, compile_ok, compile_log, message, degraded, created_at, queued_at, started_at,
       finished_at, user_id, contest, label, submitted_at, submitted_data_hash, judged_data_hash,
       lease_owner, lease_expires_at
FROM submissions;

-- Ids are never reused: the new table continues the old one's sequence.
INSERT INTO sqlite_sequence (name, seq)
SELECT 'submissions_new', seq FROM sqlite_sequence
WHERE name = 'submissions' AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'submissions_new');
UPDATE sqlite_sequence
SET seq = max(seq, (SELECT seq FROM sqlite_sequence WHERE name = 'submissions'))
WHERE name = 'submissions_new' AND EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'submissions');

DROP TABLE submissions;
ALTER TABLE submissions_new RENAME TO submissions;

CREATE INDEX submissions_queue ON submissions (queued_at, id) WHERE status = 'queued';
CREATE INDEX submissions_problem ON submissions (problem, id);
CREATE INDEX submissions_user ON submissions (user_id, id);
CREATE INDEX submissions_in_flight ON submissions (user_id) WHERE status IN ('compiling', 'running');
CREATE INDEX submissions_contest ON submissions (contest, user_id, submitted_at)
    WHERE contest IS NOT NULL;
-- The per-user bound counts one owner's queued submissions.
CREATE INDEX submissions_user_queued ON submissions (user_id) WHERE status = 'queued';

CREATE TRIGGER contest_submission_added AFTER INSERT ON submissions
WHEN NEW.contest IS NOT NULL
BEGIN
    INSERT INTO contest_state (contest, version) VALUES (NEW.contest, 1)
    ON CONFLICT (contest) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER contest_submission_changed AFTER UPDATE OF status, verdict, score ON submissions
WHEN NEW.contest IS NOT NULL
BEGIN
    INSERT INTO contest_state (contest, version) VALUES (NEW.contest, 1)
    ON CONFLICT (contest) DO UPDATE SET version = version + 1;
END;

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
INSERT INTO test_results
    (submission_id, ordinal, name, verdict, time_ms, wall_ms, memory_kib, exit_code, signal,
     message)
SELECT submission_id, ordinal, name, verdict, time_ms, wall_ms, memory_kib, exit_code, signal,
       message
FROM test_results_kept;
DROP TABLE test_results_kept;
