-- The content hash of the problem package's data (limits, checker kind, tests) a submission
-- was submitted against (the API node's, at submission) and judged with (the judging node's,
-- with the result): nodes sharing one database can then tell whether they judge with the same
-- data. NULL for submissions stored before this migration, or by a node without the package.
ALTER TABLE submissions ADD COLUMN submitted_data_hash TEXT;
ALTER TABLE submissions ADD COLUMN judged_data_hash TEXT;
