-- 'Notify me when it's available' and 'E-mail me new matches' (docs/behaviour.md §31). An alert
-- is kept from the form; nothing is sent to it but the confirmation until `confirmed_at` is set
-- (double opt-in). The database keeps only the SHA-256 of the confirmation link's token; the
-- unsubscribe token is kept as it is, since every e-mail to the address carries it (it lets its
-- holder do nothing but delete the address's alerts).
CREATE TABLE listing_alerts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('listing', 'search')),
  email text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  token_hash text NOT NULL UNIQUE,
  unsubscribe_token text NOT NULL UNIQUE,
  collection text NOT NULL CHECK (collection IN ('properties', 'newConstruction')),
  -- 'listing': the property to watch (the alert goes with it when it is deleted).
  listing_id text,
  -- 'search': the list page's query, canonical ('beds=2&maxRent=2000').
  search text,
  created_at timestamptz NOT NULL DEFAULT now(),
  confirmed_at timestamptz,
  -- 'search': listings added after this are new to it (the last e-mail, else the confirmation).
  last_sent_at timestamptz,
  -- 'listing': set when the property became available; the alert worker e-mails and deletes it.
  due_at timestamptz,
  CHECK ((kind = 'listing') = (listing_id IS NOT NULL)),
  CHECK ((kind = 'search') = (search IS NOT NULL)),
  FOREIGN KEY (collection, listing_id) REFERENCES listings ON DELETE CASCADE
);
CREATE INDEX listing_alerts_listing ON listing_alerts (collection, listing_id)
  WHERE listing_id IS NOT NULL;
CREATE INDEX listing_alerts_email ON listing_alerts (lower(email));
CREATE INDEX listing_alerts_due ON listing_alerts (due_at) WHERE due_at IS NOT NULL;

-- A property that becomes available makes its confirmed alerts due, whoever changed it (a save,
-- a toggle, a restore, psql), in the same transaction.
CREATE FUNCTION listing_alerts_due() RETURNS trigger AS $$
BEGIN
  UPDATE listing_alerts SET due_at = now()
  WHERE kind = 'listing' AND collection = NEW.collection AND listing_id = NEW.id
    AND confirmed_at IS NOT NULL AND due_at IS NULL;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER listings_became_available
AFTER UPDATE OF currently_available ON listings
FOR EACH ROW
WHEN (NEW.currently_available AND OLD.currently_available IS DISTINCT FROM true)
EXECUTE FUNCTION listing_alerts_due();

-- One-click unsubscribe (RFC 8058): the URL an e-mail's List-Unsubscribe header names.
ALTER TABLE outbox ADD COLUMN unsubscribe_url text;
