-- Change history (docs/behaviour.md §21): one entry per admin change of a listing, written in
-- the change's own transaction. `after` is the whole record after the change (the version an
-- entry restores), `before` the record before it (null for an add); `changes` says what changed.
-- No foreign key: a listing's history outlives its deletion until the listing is purged.
CREATE TABLE listing_history (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  collection text NOT NULL CHECK (collection IN ('properties', 'newConstruction')),
  id text NOT NULL,
  at timestamptz NOT NULL,
  by_name text,
  by_email text,
  action text NOT NULL,
  changes jsonb NOT NULL DEFAULT '[]'::jsonb,
  before jsonb,
  after jsonb NOT NULL
);
CREATE INDEX listing_history_listing ON listing_history (collection, id, seq DESC);

-- Recently deleted (docs/behaviour.md §22): a deleted listing's whole row, kept 30 days so it can
-- be restored; its photos wait in the image store's trash. Its (collection, id) is free again
-- meanwhile, so a new listing may take the address (a restore is then refused).
CREATE TABLE deleted_listings (
  entry bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  collection text NOT NULL CHECK (collection IN ('properties', 'newConstruction')),
  id text NOT NULL,
  record jsonb NOT NULL,
  deleted_at timestamptz NOT NULL,
  deleted_by text
);
CREATE INDEX deleted_listings_deleted_at ON deleted_listings (deleted_at);
