-- The scheduler's record of each job, for the 'Status' page (docs/decisions/0081-scheduler-pg-boss-10.md).
-- The jobs themselves are pg-boss's, in its own schema; this holds no personal data.
CREATE TABLE job_runs (
  name text PRIMARY KEY,
  every_seconds int,
  last_started_at timestamptz,
  last_finished_at timestamptz,
  last_ok_at timestamptz,
  last_error text,
  last_error_at timestamptz,
  runs bigint NOT NULL DEFAULT 0,
  failures bigint NOT NULL DEFAULT 0
);
