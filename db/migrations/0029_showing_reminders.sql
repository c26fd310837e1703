-- Reminders of booked showings (docs/behaviour.md §33): one row per reminder sent, so that a
-- reminder is sent once however many instances run its job or how often it is retried. Each
-- reminder carries its own private link (its 'Confirm I'm coming' and 'Cancel'), which opens
-- the showing as the booking's link does; only the SHA-256 of its token is kept.
CREATE TABLE showing_reminders (
  showing_id bigint NOT NULL REFERENCES showings (id) ON DELETE CASCADE,
  hours_before smallint NOT NULL CHECK (hours_before BETWEEN 1 AND 168),
  sent_at timestamptz NOT NULL DEFAULT now(),
  token_hash bytea NOT NULL UNIQUE,
  PRIMARY KEY (showing_id, hours_before)
);
