-- An immediate rejudge's new judgement in the Contest API is sent when its judging starts
-- (no end, no verdict) and again when it ends, with its end time (as DOMjudge serves it):
-- each record keeps the database's instant of the rejudge and of the end of the new
-- judging (the submission done again), both on one clock, so the judging's duration added to
-- the rejudge's contest-clock instant is its end on the contest clock. Records kept before
-- this migration have neither and are shown as before (one judgement, at the rejudge).
ALTER TABLE immediate_rejudges ADD COLUMN queued_wall TEXT;
ALTER TABLE immediate_rejudges ADD COLUMN ended_wall TEXT;

CREATE TRIGGER immediate_rejudge_queued AFTER INSERT ON immediate_rejudges
BEGIN
    UPDATE immediate_rejudges SET queued_wall = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    WHERE id = NEW.id;
END;

-- The rejudge's transaction queues the submission right after keeping the record; the
-- judging ends when the submission is done again (a result stored, or given up as SE).
CREATE TRIGGER immediate_rejudge_ended AFTER UPDATE OF status ON submissions
WHEN NEW.status = 'done' AND OLD.status <> 'done'
BEGIN
    UPDATE immediate_rejudges SET ended_wall = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    WHERE submission_id = NEW.id AND queued_wall IS NOT NULL AND ended_wall IS NULL;
END;
