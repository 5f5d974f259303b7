-- A scoring problem's test score (issue 29): what its output validator wrote to score.txt
-- on an accepted test. The groups' scores are computed from these and the package's groups.
ALTER TABLE test_results ADD COLUMN score DOUBLE PRECISION;
