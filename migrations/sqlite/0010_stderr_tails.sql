-- The last lines of a run-time error's stderr (issue 27): a traceback, a panic, a sanitizer's
-- report, bounded by the judge (12 lines, 2 KiB). Shown to contestants on samples only.
ALTER TABLE test_results ADD COLUMN stderr_tail TEXT;
