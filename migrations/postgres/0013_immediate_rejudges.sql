-- An immediate rejudge of a judged contest submission makes a new judgement in the Contest
-- API (SQLite's 0019): the verdict and score it replaced and the contest-clock instant of
-- the rejudge, written in the rejudge's own transaction.
CREATE TABLE immediate_rejudges (
    id            BIGSERIAL PRIMARY KEY,
    submission_id BIGINT NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    contest       TEXT NOT NULL,
    old_verdict   TEXT NOT NULL,
    old_score     BIGINT,
    clock         TEXT NOT NULL
);
CREATE INDEX immediate_rejudges_contest ON immediate_rejudges (contest, clock, id);
