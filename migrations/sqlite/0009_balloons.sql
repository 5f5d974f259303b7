-- Balloons the jury marked delivered (issue 26): one row per contest, contestant and problem
-- label; the balloon list itself is computed from the submissions (each first AC).
CREATE TABLE balloons_delivered (
    contest       TEXT    NOT NULL,
    user_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    label         TEXT    NOT NULL,
    delivered_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (contest, user_id, label)
);
