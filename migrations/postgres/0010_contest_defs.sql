-- Contests made or edited at runtime (issue 30, point 2): the admin page and
-- `POST /api/contests`, `PATCH /api/contests/{id}`. `definition` is the text of a contest file
-- (checked by the same code as the files); `revision` moves with every edit, so every node
-- sees that its copy is stale when the sum of revisions differs (read per request), and an
-- edit stored over a revision it did not check is refused.
CREATE TABLE contest_defs (
    id          TEXT   PRIMARY KEY,
    definition  TEXT   NOT NULL,
    revision    BIGINT NOT NULL DEFAULT 1,
    created_at  TEXT   NOT NULL,
    updated_at  TEXT   NOT NULL
);
