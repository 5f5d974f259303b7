-- A submission an admin cancels while it waits keeps its record with the final status
-- 'cancelled' and is never judged (issue 22; SQLite's 0008). And the partial index the
-- per-user bound of queued submissions counts through.
ALTER TABLE submissions DROP CONSTRAINT submissions_status_check;
ALTER TABLE submissions ADD CONSTRAINT submissions_status_check
    CHECK (status IN ('queued', 'compiling', 'running', 'done', 'cancelled'));
CREATE INDEX submissions_user_queued ON submissions (user_id) WHERE status = 'queued';
