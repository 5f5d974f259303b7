-- Queued submissions by owner, problem and submitted data hash (SQLite's 0018), kept by a
-- trigger on every write to `submissions` as `queue_owners` is, so a `/metrics` scrape (the
-- `sudojudge_queue_unclaimable` gauge) and a node's refusal log read one row per owner and
-- group instead of grouping every queued row (16 ms with 19,000 queued, growing with the
-- queue). Keyed by owner as `queue_owners` is, so the writers that already meet on an
-- owner's row are the only ones that meet here: claims of different owners' submissions to
-- one problem never wait on each other. `hash` is '' for a submission without one. A row
-- whose count reaches 0 is removed, so the table holds at most one row per owner and group
-- with something queued.
CREATE TABLE queue_groups (
    owner   BIGINT NOT NULL,
    problem TEXT NOT NULL,
    hash    TEXT NOT NULL,
    queued  BIGINT NOT NULL,
    PRIMARY KEY (owner, problem, hash)
);

-- An existing database's counts, from its rows.
INSERT INTO queue_groups (owner, problem, hash, queued)
SELECT COALESCE(user_id, 0), problem, COALESCE(submitted_data_hash, ''), COUNT(*)
FROM submissions WHERE status = 'queued'
GROUP BY COALESCE(user_id, 0), problem, COALESCE(submitted_data_hash, '');

CREATE FUNCTION sj_queue_groups() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    was_queued boolean := false;
    is_queued  boolean := false;
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        was_queued := OLD.status = 'queued';
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        is_queued := NEW.status = 'queued';
    END IF;
    IF TG_OP = 'UPDATE' AND was_queued = is_queued
       AND (NOT was_queued OR (OLD.user_id IS NOT DISTINCT FROM NEW.user_id
                               AND OLD.problem = NEW.problem
                               AND OLD.submitted_data_hash IS NOT DISTINCT FROM
                                   NEW.submitted_data_hash)) THEN
        RETURN NULL;
    END IF;
    IF was_queued THEN
        DELETE FROM queue_groups
        WHERE owner = COALESCE(OLD.user_id, 0) AND problem = OLD.problem
          AND hash = COALESCE(OLD.submitted_data_hash, '') AND queued <= 1;
        IF NOT FOUND THEN
            UPDATE queue_groups SET queued = queued - 1
            WHERE owner = COALESCE(OLD.user_id, 0) AND problem = OLD.problem
              AND hash = COALESCE(OLD.submitted_data_hash, '');
        END IF;
    END IF;
    IF is_queued THEN
        INSERT INTO queue_groups (owner, problem, hash, queued)
        VALUES (COALESCE(NEW.user_id, 0), NEW.problem, COALESCE(NEW.submitted_data_hash, ''), 1)
        ON CONFLICT (owner, problem, hash) DO UPDATE SET queued = queue_groups.queued + 1;
    END IF;
    RETURN NULL;
END $$;

-- Named after `queue_owners_counts` so it fires after it (PostgreSQL fires a row's triggers in
-- name order): a writer takes an owner's `queue_owners` row before its `queue_groups` rows.
CREATE TRIGGER queue_owners_groups
    AFTER INSERT OR DELETE OR UPDATE OF status, user_id, problem, submitted_data_hash
    ON submissions FOR EACH ROW EXECUTE FUNCTION sj_queue_groups();

-- An applied rejudging makes new judgements in the Contest API (SQLite's 0018).
ALTER TABLE rejudgings ADD COLUMN applied_clock TEXT;
ALTER TABLE rejudging_runs ADD COLUMN old_verdict TEXT;
ALTER TABLE rejudging_runs ADD COLUMN old_score BIGINT;
