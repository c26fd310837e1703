-- 'Only these listings' (docs/behaviour.md §6, "Staff roles"): the listings a Leasing agent is
-- limited to. None: every listing. Kept with the grant (by its address), gone with it; a
-- listing deleted meanwhile stays named (restoring it restores the agent's view of it).
CREATE TABLE staff_listings (
  email text NOT NULL REFERENCES admins (email) ON DELETE CASCADE ON UPDATE CASCADE,
  collection text NOT NULL CHECK (collection IN ('properties', 'newConstruction')),
  listing_id text NOT NULL CHECK (length(listing_id) BETWEEN 1 AND 200),
  PRIMARY KEY (email, collection, listing_id)
);
