-- Queued submissions by owner, problem and submitted data hash (PostgreSQL's 0012), kept by
-- triggers on every write to `submissions` as `queue_owners` is (0013), so a `/metrics`
-- scrape and a node's refusal log read one row per owner and group instead of grouping every
-- queued row. `hash` is '' for a submission without one. A row whose count reaches 0 is
-- removed. A migration that rebuilds `submissions` drops these triggers with it and must
-- create them again.
CREATE TABLE queue_groups (
    owner   INTEGER NOT NULL,
    problem TEXT NOT NULL,
    hash    TEXT NOT NULL,
    queued  INTEGER NOT NULL,
    PRIMARY KEY (owner, problem, hash)
);

-- An existing database's counts, from its rows.
INSERT INTO queue_groups (owner, problem, hash, queued)
SELECT COALESCE(user_id, 0), problem, COALESCE(submitted_data_hash, ''), COUNT(*)
FROM submissions WHERE status = 'queued'
GROUP BY COALESCE(user_id, 0), problem, COALESCE(submitted_data_hash, '');

CREATE TRIGGER queue_groups_added AFTER INSERT ON submissions
WHEN NEW.status = 'queued'
BEGIN
    INSERT INTO queue_groups (owner, problem, hash, queued)
    VALUES (COALESCE(NEW.user_id, 0), NEW.problem, COALESCE(NEW.submitted_data_hash, ''), 1)
    ON CONFLICT (owner, problem, hash) DO UPDATE SET queued = queued + 1;
END;

CREATE TRIGGER queue_groups_changed
AFTER UPDATE OF status, user_id, problem, submitted_data_hash ON submissions
WHEN (OLD.status = 'queued' OR NEW.status = 'queued')
 AND NOT (OLD.status IS NEW.status AND OLD.user_id IS NEW.user_id
          AND OLD.problem IS NEW.problem
          AND OLD.submitted_data_hash IS NEW.submitted_data_hash)
BEGIN
    UPDATE queue_groups SET queued = queued - 1
    WHERE OLD.status = 'queued' AND owner = COALESCE(OLD.user_id, 0)
      AND problem = OLD.problem AND hash = COALESCE(OLD.submitted_data_hash, '');
    DELETE FROM queue_groups
    WHERE queued <= 0 AND owner = COALESCE(OLD.user_id, 0)
      AND problem = OLD.problem AND hash = COALESCE(OLD.submitted_data_hash, '');
    INSERT INTO queue_groups (owner, problem, hash, queued)
    SELECT COALESCE(NEW.user_id, 0), NEW.problem, COALESCE(NEW.submitted_data_hash, ''), 1
    WHERE NEW.status = 'queued'
    ON CONFLICT (owner, problem, hash) DO UPDATE SET queued = queued + 1;
END;

CREATE TRIGGER queue_groups_removed AFTER DELETE ON submissions
WHEN OLD.status = 'queued'
BEGIN
    UPDATE queue_groups SET queued = queued - 1
    WHERE owner = COALESCE(OLD.user_id, 0)
      AND problem = OLD.problem AND hash = COALESCE(OLD.submitted_data_hash, '');
    DELETE FROM queue_groups
    WHERE queued <= 0 AND owner = COALESCE(OLD.user_id, 0)
      AND problem = OLD.problem AND hash = COALESCE(OLD.submitted_data_hash, '');
END;

-- An applied rejudging makes new judgements in the Contest API (CLICS: a rejudging's
-- judgements supersede the old ones, which stay with `current: false`): each run keeps the
-- verdict and score its submission had when the rejudging was applied (NULL: not applied to
-- it, the submission was no longer judged), and the rejudging the contest-clock instant of
-- its apply, where the event feed places the new judgements.
ALTER TABLE rejudgings ADD COLUMN applied_clock TEXT;
ALTER TABLE rejudging_runs ADD COLUMN old_verdict TEXT;
ALTER TABLE rejudging_runs ADD COLUMN old_score INTEGER;
