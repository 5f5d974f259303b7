-- An immediate rejudge (`POST /api/submissions/{id}/rejudge`, `POST /api/contests/{id}/rejudge`,
-- the jury's button) of a judged contest submission makes a new judgement in the Contest API
-- (CLICS: a judgement a client has seen stays, with `current: false`, and the new judging is
-- a judgement of its own): each one keeps the verdict and score the submission had when it
-- was queued again and the contest-clock instant of the rejudge, where the event feed places
-- the new judgement. Written in the rejudge's own transaction.
CREATE TABLE immediate_rejudges (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    submission_id INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    contest       TEXT NOT NULL,
    old_verdict   TEXT NOT NULL,
    old_score     INTEGER,
    clock         TEXT NOT NULL
);
CREATE INDEX immediate_rejudges_contest ON immediate_rejudges (contest, clock, id);
