-- The fair claim in O(owners), not O(queue) (issue 28): each owner's queued and in-flight
-- (compiling/running) counts, kept by triggers on every write to `submissions` (enqueue,
-- claim, release, completion, cancel, rejudge, lease expiry, max_attempts), so a claim reads
-- the load of each owner with something queued instead of counting it for every queued row.
-- `owner` is the submission's user_id, 0 for the open mode's submissions without one (one
-- owner, as the fair order treats them). A migration that rebuilds `submissions` drops these
-- triggers with it and must create them again.
CREATE TABLE queue_owners (
    owner     INTEGER PRIMARY KEY,
    queued    INTEGER NOT NULL DEFAULT 0,
    in_flight INTEGER NOT NULL DEFAULT 0
);

-- An existing database's counts, from its rows.
INSERT INTO queue_owners (owner, queued, in_flight)
SELECT COALESCE(user_id, 0), SUM(status = 'queued'), SUM(status IN ('compiling', 'running'))
FROM submissions WHERE status IN ('queued', 'compiling', 'running')
GROUP BY COALESCE(user_id, 0);

CREATE TRIGGER queue_owners_added AFTER INSERT ON submissions
WHEN NEW.status IN ('queued', 'compiling', 'running')
BEGIN
    INSERT INTO queue_owners (owner, queued, in_flight)
    VALUES (COALESCE(NEW.user_id, 0), NEW.status = 'queued',
            NEW.status IN ('compiling', 'running'))
    ON CONFLICT (owner) DO UPDATE SET queued = queued + excluded.queued,
                                      in_flight = in_flight + excluded.in_flight;
END;

CREATE TRIGGER queue_owners_changed AFTER UPDATE OF status, user_id ON submissions
WHEN (OLD.status = 'queued') IS NOT (NEW.status = 'queued')
  OR (OLD.status IN ('compiling', 'running')) IS NOT (NEW.status IN ('compiling', 'running'))
  OR OLD.user_id IS NOT NEW.user_id
BEGIN
    UPDATE queue_owners
    SET queued = queued - (OLD.status = 'queued'),
        in_flight = in_flight - (OLD.status IN ('compiling', 'running'))
    WHERE owner = COALESCE(OLD.user_id, 0);
    INSERT INTO queue_owners (owner, queued, in_flight)
    VALUES (COALESCE(NEW.user_id, 0), NEW.status = 'queued',
            NEW.status IN ('compiling', 'running'))
    ON CONFLICT (owner) DO UPDATE SET queued = queued + excluded.queued,
                                      in_flight = in_flight + excluded.in_flight;
END;

CREATE TRIGGER queue_owners_removed AFTER DELETE ON submissions
WHEN OLD.status IN ('queued', 'compiling', 'running')
BEGIN
    UPDATE queue_owners
    SET queued = queued - (OLD.status = 'queued'),
        in_flight = in_flight - (OLD.status IN ('compiling', 'running'))
    WHERE owner = COALESCE(OLD.user_id, 0);
END;

-- Each owner's queued submissions in the fair order (contest ones first, then oldest): the
-- claim reads the first accepted one of each owner from here.
CREATE INDEX submissions_owner_queue
    ON submissions (COALESCE(user_id, 0), contest IS NULL, queued_at, id)
    WHERE status = 'queued';
