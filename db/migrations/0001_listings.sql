-- Both listing kinds live in one table; `collection` is the spec's collection name.
-- Properties carry price, availability and reserve URL; constructions must leave them empty.
CREATE TABLE listings (
  collection text NOT NULL CHECK (collection IN ('properties', 'newConstruction')),
  id text NOT NULL CHECK (id <> ''),
  address text NOT NULL,
  bedrooms double precision,
  bathrooms double precision,
  description text NOT NULL DEFAULT '',
  image_urls jsonb NOT NULL DEFAULT '[]'::jsonb,
  thumbnail_image_url text,
  thumbnail_description text NOT NULL DEFAULT '',
  property_type text NOT NULL DEFAULT 'Residential'
    CHECK (property_type IN ('Residential', 'Commercial', 'Vacation')),
  currently_available boolean,
  price text,
  reserve_url text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (collection, id),
  CHECK (
    collection = 'properties'
    OR (currently_available IS NULL AND price IS NULL AND reserve_url IS NULL)
  )
);

-- Every change is announced, whoever makes it (server, admin CLI, psql), so open pages stay live.
CREATE FUNCTION notify_listing_change() RETURNS trigger AS $$
DECLARE
  r listings;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  PERFORM pg_notify(
    'listings_changed',
    json_build_object('collection', r.collection, 'id', r.id, 'op', lower(TG_OP))::text
  );
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER listings_changed
AFTER INSERT OR UPDATE OR DELETE ON listings
FOR EACH ROW EXECUTE FUNCTION notify_listing_change();
