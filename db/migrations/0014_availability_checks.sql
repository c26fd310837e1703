-- Listings that stay true (docs/behaviour.md §30): when staff last confirmed that a property's
-- status is right, set by every save, every availability toggle and the staff table's 'Still
-- available' button. A weekly e-mail lists available properties not confirmed for
-- STALE_AFTER_DAYS; the staff table marks and filters them.

-- A confirmation alone is not a change of the listing: its version stays, so an edit form
-- opened before it can still be saved (the generated columns are left out: a BEFORE trigger
-- does not see them computed).
CREATE OR REPLACE FUNCTION bump_listing_version() RETURNS trigger AS $$
BEGIN
  IF (to_jsonb(NEW) - 'availability_checked_at' - 'rent' - 'available_on' - 'search_words')
     = (to_jsonb(OLD) - 'availability_checked_at' - 'rent' - 'available_on' - 'search_words') THEN
    RETURN NEW;
  END IF;
  NEW.version := OLD.version + 1;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

ALTER TABLE listings ADD COLUMN availability_checked_at timestamptz;
-- Until now, the last change was the last time anyone looked.
UPDATE listings SET availability_checked_at = updated_at;
ALTER TABLE listings
  ALTER COLUMN availability_checked_at SET DEFAULT now(),
  ALTER COLUMN availability_checked_at SET NOT NULL;

-- The stale ones: available properties by the time they were last confirmed.
CREATE INDEX listings_availability_checked ON listings (availability_checked_at)
  WHERE collection = 'properties' AND currently_available;

-- Jobs that run once across instances at an interval (the weekly stale digest): an instance
-- takes a run by moving `last_run` forward only when the interval has passed (one UPDATE, so
-- two instances never both take it).
CREATE TABLE scheduled_runs (
  name text PRIMARY KEY,
  last_run timestamptz NOT NULL
);
