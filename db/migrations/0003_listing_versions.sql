-- Optimistic concurrency for edits: every change of a listing row bumps its version, whoever
-- makes it (server, admin CLI, psql), so a save based on an older version can be refused
-- instead of silently overwriting someone else's change.
ALTER TABLE listings ADD COLUMN version integer NOT NULL DEFAULT 1;

CREATE FUNCTION bump_listing_version() RETURNS trigger AS $$
BEGIN
  NEW.version := OLD.version + 1;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER listings_version
BEFORE UPDATE ON listings
FOR EACH ROW EXECUTE FUNCTION bump_listing_version();
