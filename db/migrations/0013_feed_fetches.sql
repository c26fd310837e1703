-- When each listing feed was last fetched, by whom and with how many listings
-- (docs/behaviour.md §28): one row per feed, upserted by every fetch (one small write, never one
-- per listing). `listing_count` is what that fetch was sent, so the 'Listing feeds' page can warn
-- when the HotPads feed has moved by more than 20% since the network last read it.
CREATE TABLE feed_fetches (
  feed text PRIMARY KEY CHECK (feed IN ('hotpads', 'listings-json', 'new-listings')),
  fetched_at timestamptz NOT NULL,
  user_agent text NOT NULL,
  listing_count integer NOT NULL CHECK (listing_count >= 0),
  fetches bigint NOT NULL DEFAULT 1
);
