-- Showings that book themselves (docs/behaviour.md §33): the company's showing hours (one row)
-- and each booking. A booking takes one of the slot's seats (1 … 'Visitors per slot'), and
-- only one live booking may hold a seat: two renters who take the last seat at the same moment,
-- on one instance or two, cannot both get it (the database refuses the second).
CREATE TABLE showing_hours (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  settings jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE showings (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  collection text NOT NULL CHECK (collection IN ('properties', 'newConstruction')),
  listing_id text NOT NULL,
  listing_address text NOT NULL,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL CHECK (ends_at > starts_at),
  seat smallint NOT NULL CHECK (seat BETWEEN 1 AND 20),
  status text NOT NULL DEFAULT 'booked'
    CHECK (status IN ('booked', 'confirmed', 'cancelled', 'completed', 'no-show')),
  status_at timestamptz NOT NULL DEFAULT now(),
  name text NOT NULL,
  email text NOT NULL,
  phone text NOT NULL DEFAULT '',
  move_in date,
  people smallint CHECK (people BETWEEN 1 AND 20),
  -- SHA-256 of the private 'Change or cancel' link's token (the token itself is never kept).
  token_hash bytea NOT NULL UNIQUE
);
CREATE UNIQUE INDEX showings_one_per_seat ON showings (collection, listing_id, starts_at, seat)
  WHERE status IN ('booked', 'confirmed');
CREATE INDEX showings_by_start ON showings (starts_at);
CREATE INDEX showings_email ON showings (lower(email));

-- The detail pages show the free times: a change of the hours or of any booking drops every
-- instance's kept pages (server/page-cache.ts), as a change of the site settings does. Per row,
-- so that a statement that changes nothing (a link cancelled twice, a purge with nothing to
-- purge) drops nothing; PostgreSQL sends one notification per transaction however many rows.
CREATE TRIGGER showing_hours_changed
AFTER INSERT OR UPDATE OR DELETE ON showing_hours
FOR EACH ROW EXECUTE FUNCTION notify_site_change();
CREATE TRIGGER showings_changed
AFTER INSERT OR UPDATE OR DELETE ON showings
FOR EACH ROW EXECUTE FUNCTION notify_site_change();
