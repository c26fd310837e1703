-- Outgoing e-mail (docs/decisions/0062-outbox-for-outgoing-mail.md): every message is written
-- here in the same transaction as what caused it, then sent by a worker of any instance. A
-- worker takes a message by setting `lease_until` (FOR UPDATE SKIP LOCKED in a short
-- transaction), sends it outside any transaction, then records the outcome; a lease that ran
-- out (the instance died mid-send) makes the message due again.
CREATE TABLE outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- What caused it ('inquiry', 'reply', ...), for staff reading the outbox.
  kind text NOT NULL,
  -- The record it belongs to ('lead:42'): erased with it (docs/behaviour.md §27).
  ref text,
  to_addresses text[] NOT NULL CHECK (cardinality(to_addresses) > 0),
  reply_to text,
  subject text NOT NULL,
  body text NOT NULL,
  -- An iCalendar invitation sent with the message (text/calendar; METHOD:REQUEST), if any.
  calendar text,
  state text NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  lease_until timestamptz,
  last_error text,
  sent_at timestamptz
);
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE state = 'waiting';
CREATE INDEX outbox_created ON outbox (created_at DESC, id DESC);
CREATE INDEX outbox_ref ON outbox (ref) WHERE ref IS NOT NULL;
