-- Erasure and retention that leave nobody behind (docs/behaviour.md §32,
-- docs/decisions/0075-erasure-reaches-everything.md).

-- Files whose row is gone but which are still to be deleted from the private store: written in
-- the transaction that deletes their row, removed once the file is gone; the hourly retention
-- worker tries again until then.
CREATE TABLE file_deletions (
  storage_key text PRIMARY KEY,
  queued_at timestamptz NOT NULL DEFAULT now(),
  attempts int NOT NULL DEFAULT 0,
  last_error text
);

-- What happened to an application, without personal data: it outlives withdrawal, erasure and
-- retention (no foreign key). application_events ('Viewed by' and 'History') are copied into it,
-- stripped, when they are deleted (app/features/applications/applications.server.ts), so no
-- trigger runs twice on a restored backup.
CREATE TABLE application_audit (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  application_id bigint NOT NULL,
  event text NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  -- The staff member's sign-in subject (users.sub), or none (the applicant or the site itself).
  actor_id text
);
CREATE INDEX application_audit_application ON application_audit (application_id, id);

-- Sent and failed mail goes OUTBOX_RETENTION_DAYS after it was sent or given up.
CREATE INDEX outbox_done ON outbox (coalesce(sent_at, created_at)) WHERE state <> 'waiting';
