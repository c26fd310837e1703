-- Per-client request counters shared by every instance (docs/decisions/0063-limits-shared-by-instances.md):
-- with DATABASE_URL the sign-in and write limits count here, one row per limit and client. As in
-- express-rate-limit's own memory store, a client's window starts with its first request and
-- the count starts again once the window has passed. Rows idle for a day are deleted.
CREATE TABLE rate_counters (
  key text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL
);
CREATE INDEX rate_counters_window ON rate_counters (window_start);
