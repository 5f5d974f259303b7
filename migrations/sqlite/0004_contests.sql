-- Contests: the runtime state of the contests defined by files (contests/<id>.toml).
-- Contest ids and labels are the files' (checked by the code, not here); times are ISO 8601
-- UTC text with milliseconds, from the daemon's contest clock.

-- Who takes part, and when their clock started: the personal start of window timing (POST
-- /api/contests/{id}/start), the first submission or start request otherwise.
CREATE TABLE contest_participations (
    contest     TEXT    NOT NULL,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    started_at  TEXT    NOT NULL,
    PRIMARY KEY (contest, user_id)
) WITHOUT ROWID;

-- A submission made to a contest: the contest, the problem's label in it, and the instant on
-- the contest clock (what the scoreboard and the rate count; created_at stays the wall clock).
ALTER TABLE submissions ADD COLUMN contest TEXT;
ALTER TABLE submissions ADD COLUMN label TEXT;
ALTER TABLE submissions ADD COLUMN submitted_at TEXT;
-- The scoreboard reads a contest's submissions; the rate reads one user's recent ones.
CREATE INDEX submissions_contest ON submissions (contest, user_id, submitted_at)
    WHERE contest IS NOT NULL;

-- Per contest: a version bumped by every change the scoreboard can show (a new submission, a
-- status or result change, an unfreeze), so a cached board is reused exactly while it is
-- current; and whether an admin has unfrozen the (icpc) board.
CREATE TABLE contest_state (
    contest   TEXT    PRIMARY KEY,
    version   INTEGER NOT NULL DEFAULT 0,
    unfrozen  INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

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

-- Questions to the jury and announcements. A question has an author (a contestant) and, once
-- answered, an answer; `public` shows it (and its answer) to every participant. An
-- announcement is written by an admin: no question, only the text in `answer`, public.
CREATE TABLE clarifications (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    contest      TEXT    NOT NULL,
    author_id    INTEGER REFERENCES users (id) ON DELETE SET NULL,
    -- The problem asked about (its label), or NULL for the contest as a whole.
    label        TEXT,
    question     TEXT,
    answer       TEXT,
    answered_by  INTEGER REFERENCES users (id) ON DELETE SET NULL,
    public       INTEGER NOT NULL DEFAULT 0,
    created_at   TEXT    NOT NULL,
    answered_at  TEXT
);
CREATE INDEX clarifications_contest ON clarifications (contest, id);
