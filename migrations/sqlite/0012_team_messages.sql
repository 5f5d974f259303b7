-- What a Kattis output validator wrote to teammessage.txt (issue 25), bounded by the judge
-- (2 KiB): meant for the contestant, shown on every test; the jury's message stays apart.
ALTER TABLE test_results ADD COLUMN team_message TEXT;
