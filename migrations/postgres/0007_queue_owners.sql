-- The fair claim in O(owners), not O(queue) (issue 28; SQLite's 0013): each owner's queued
-- and in-flight (compiling/running) counts, kept by a trigger on every write to
-- `submissions`, so a claim reads the load of each owner with something queued instead of
-- counting it for every queued row. `owner` is the submission's user_id, 0 for the open
-- mode's submissions without one (one owner, as the fair order treats them).
CREATE TABLE queue_owners (
    owner     BIGINT PRIMARY KEY,
    queued    BIGINT NOT NULL DEFAULT 0,
    in_flight BIGINT NOT NULL DEFAULT 0
);

-- An existing database's counts, from its rows.
INSERT INTO queue_owners (owner, queued, in_flight)
SELECT COALESCE(user_id, 0), COUNT(*) FILTER (WHERE status = 'queued'),
       COUNT(*) FILTER (WHERE status IN ('compiling', 'running'))
FROM submissions WHERE status IN ('queued', 'compiling', 'running')
GROUP BY COALESCE(user_id, 0);

CREATE FUNCTION sj_queue_owners() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    old_queued    int := 0;
    old_in_flight int := 0;
    new_queued    int := 0;
    new_in_flight int := 0;
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        old_queued := (OLD.status = 'queued')::int;
        old_in_flight := (OLD.status IN ('compiling', 'running'))::int;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        new_queued := (NEW.status = 'queued')::int;
        new_in_flight := (NEW.status IN ('compiling', 'running'))::int;
    END IF;
    IF TG_OP = 'UPDATE' AND OLD.user_id IS NOT DISTINCT FROM NEW.user_id
       AND old_queued = new_queued AND old_in_flight = new_in_flight THEN
        RETURN NULL;
    END IF;
    IF old_queued + old_in_flight > 0 THEN
        UPDATE queue_owners
        SET queued = queued - old_queued, in_flight = in_flight - old_in_flight
        WHERE owner = COALESCE(OLD.user_id, 0);
    END IF;
    IF new_queued + new_in_flight > 0 THEN
        INSERT INTO queue_owners (owner, queued, in_flight)
        VALUES (COALESCE(NEW.user_id, 0), new_queued, new_in_flight)
        ON CONFLICT (owner) DO UPDATE
        SET queued = queue_owners.queued + EXCLUDED.queued,
            in_flight = queue_owners.in_flight + EXCLUDED.in_flight;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER queue_owners_counts AFTER INSERT OR DELETE OR UPDATE OF status, user_id
    ON submissions FOR EACH ROW EXECUTE FUNCTION sj_queue_owners();

-- Each owner's queued submissions in the fair order (contest ones first, then oldest): the
-- claim reads the first accepted one of each owner from here.
CREATE INDEX submissions_owner_queue
    ON submissions (COALESCE(user_id, 0), (contest IS NULL), queued_at, id)
    WHERE status = 'queued';
