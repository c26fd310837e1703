-- Demo listings are loaded at most once in a database's life
-- (docs/decisions/0033-demo-content-once-on-a-new-embedded-database.md): the first time loading
-- them is considered, one row records the outcome, and no later start loads them again, even
-- after staff have deleted every listing.
CREATE TABLE demo_content (
  once boolean PRIMARY KEY DEFAULT true CHECK (once),
  decided_at timestamptz NOT NULL DEFAULT now(),
  loaded boolean NOT NULL
);

-- A database that already holds listings is a working site: it never gets demo listings.
INSERT INTO demo_content (loaded) SELECT false WHERE EXISTS (SELECT 1 FROM listings);
