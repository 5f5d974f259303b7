-- The fair claim counts each owner's submissions being judged (compiling or running) for every
-- queued one it considers; these are at most one per worker, so a partial index keeps each count
-- a lookup instead of a scan of every submission ever stored.
CREATE INDEX submissions_in_flight ON submissions (user_id) WHERE status IN ('compiling', 'running');
