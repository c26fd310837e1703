-- Listing facts renters search by (app/domain/listing-facts.ts declares them; issue 20).
-- All optional. Pets and the availability date belong to properties only.
ALTER TABLE listings
  ADD COLUMN square_feet integer CHECK (square_feet BETWEEN 1 AND 10000000),
  ADD COLUMN city text CHECK (length(city) BETWEEN 1 AND 100),
  ADD COLUMN state text CHECK (state ~ '^[A-Z]{2}$'),
  ADD COLUMN zip text CHECK (zip ~ '^[0-9]{5}(-[0-9]{4})?$'),
  ADD COLUMN pets text CHECK (pets IN ('none', 'cats', 'dogs', 'cats-and-dogs')),
  ADD COLUMN available_from date,
  ADD CONSTRAINT listings_property_facts
    CHECK (collection = 'properties' OR (pets IS NULL AND available_from IS NULL));

-- The monthly rent filtered and sorted by: the spec's price when it is purely digits with an
-- optional decimal point (as formatPrice() shows it in dollars), else none (rentOf() in
-- app/domain/listing-facts.ts says the same).
ALTER TABLE listings ADD COLUMN rent numeric
  GENERATED ALWAYS AS (CASE WHEN price ~ '^[0-9]+(\.[0-9]*)?$' THEN price::numeric END) STORED;

-- The day a property can be moved into, for 'Available by' and 'Available soonest': its
-- 'Available from' date, else now (-infinity) when it is currently available, else unknown.
ALTER TABLE listings ADD COLUMN available_on date
  GENERATED ALWAYS AS (
    COALESCE(available_from, CASE WHEN currently_available THEN '-infinity'::date END)
  ) STORED;

-- Words renters search for: address, city, ZIP and description, matched by prefix with the
-- 'simple' configuration (no stemming or stop words: '22201', 'Clarendon', 'the' all match as typed).
ALTER TABLE listings ADD COLUMN search_words tsvector
  GENERATED ALWAYS AS (
    to_tsvector('simple'::regconfig,
      address || ' ' || coalesce(city, '') || ' ' || coalesce(zip, '') || ' ' || description)
  ) STORED;

-- Filtering, ordering and paging run in SQL (app/features/listings/search.server.ts): one index
-- per order a page offers, the words index for 'Search'.
CREATE INDEX listings_newest ON listings (collection, created_at DESC, id);
CREATE INDEX listings_by_rent ON listings (collection, rent, id);
CREATE INDEX listings_by_bedrooms ON listings (collection, bedrooms DESC NULLS LAST, id);
CREATE INDEX listings_by_available_on ON listings (collection, available_on, id);
CREATE INDEX listings_search_words ON listings USING gin (search_words);
