-- Mail to an address nobody has confirmed (an inquiry's confirmation, an alert's confirmation,
-- an application's links; docs/behaviour.md §26) is capped per recipient a day and in all an
-- hour (UNCONFIRMED_MAIL_PER_ADDRESS_PER_DAY, UNCONFIRMED_MAIL_PER_HOUR): counted here, by the
-- SHA-256 of the lower-cased recipient (NULL for every other message).
ALTER TABLE outbox ADD COLUMN recipient_hash text;
CREATE INDEX outbox_unconfirmed_recipient ON outbox (recipient_hash, created_at)
  WHERE recipient_hash IS NOT NULL;
CREATE INDEX outbox_unconfirmed_created ON outbox (created_at) WHERE recipient_hash IS NOT NULL;
