-- 'Activity' (docs/behaviour.md §6, "Activity"): who did what and when, from the audit events
-- (app/shared/events.server.ts). Staff e-mail and item ids only, never a renter's personal
-- data; kept ACTIVITY_RETENTION_DAYS.
CREATE TABLE activity_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  who text,
  kind text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX activity_events_at ON activity_events (at DESC, id DESC);
CREATE INDEX activity_events_who ON activity_events (who, at DESC);
