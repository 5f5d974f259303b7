-- Accounts: users with argon2id password hashes, API tokens stored as SHA-256 hashes, and the
-- owner of each submission (NULL for submissions made in the open single-user mode).

CREATE TABLE users (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    -- 1 to 32 of a-z 0-9 _ - . (checked by the code; UNIQUE here).
    name          TEXT    NOT NULL UNIQUE,
    display_name  TEXT    NOT NULL DEFAULT '',
    role          TEXT    NOT NULL CHECK (role IN ('admin', 'contestant')),
    -- argon2id PHC string.
    password_hash TEXT    NOT NULL,
    disabled      INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE tokens (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- SHA-256 of the token, hex; the token itself is never stored.
    hash        TEXT    NOT NULL UNIQUE,
    -- 'login' (POST /api/login, expires) or 'api' (sudojudge user token, until revoked).
    kind        TEXT    NOT NULL CHECK (kind IN ('login', 'api')),
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    expires_at  TEXT
);
CREATE INDEX tokens_user ON tokens (user_id);

ALTER TABLE submissions ADD COLUMN user_id INTEGER REFERENCES users (id);
-- A contestant's own submissions, newest first.
CREATE INDEX submissions_user ON submissions (user_id, id);
