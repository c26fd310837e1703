-- Per-client request counters shared by every instance (docs/decisions/0063-limits-shared-by-instances.md):
-- with DATABASE_URL the sign-in and write limits count here, one fixed window per row, so
-- several instances apply one limit instead of one each. Rows of windows long past are deleted.
CREATE TABLE rate_counters (
  key text NOT NULL,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_counters_window ON rate_counters (window_start);
