-- Balloons the jury marked delivered (issue 26; SQLite's 0009): one row per contest,
-- contestant and problem label; the balloon list itself is computed from the submissions.
CREATE TABLE balloons_delivered (
    contest       TEXT    NOT NULL,
    user_id       BIGINT  NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    label         TEXT    NOT NULL,
    delivered_at  TEXT    NOT NULL DEFAULT sj_now(),
    PRIMARY KEY (contest, user_id, label)
);
