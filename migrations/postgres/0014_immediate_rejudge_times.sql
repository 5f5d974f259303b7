-- An immediate rejudge's new judgement is sent when its judging starts and again when it
-- ends (SQLite's 0020): the database's instants of the rejudge and of the end of the new
-- judging. Records kept before this migration have neither (NULL: shown as before).
ALTER TABLE immediate_rejudges ADD COLUMN queued_wall TEXT;
ALTER TABLE immediate_rejudges ADD COLUMN ended_wall TEXT;
ALTER TABLE immediate_rejudges ALTER COLUMN queued_wall SET DEFAULT sj_now();

CREATE FUNCTION sj_immediate_rejudge_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE immediate_rejudges SET ended_wall = sj_now()
    WHERE submission_id = NEW.id AND queued_wall IS NOT NULL AND ended_wall IS NULL;
    RETURN NULL;
END $$;

CREATE TRIGGER immediate_rejudge_ended AFTER UPDATE OF status ON submissions
FOR EACH ROW WHEN (NEW.status = 'done' AND OLD.status <> 'done')
EXECUTE FUNCTION sj_immediate_rejudge_ended();
