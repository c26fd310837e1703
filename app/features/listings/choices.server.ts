// Listings as other features name them: a reference (`collection/id`) and an address, for the
// online application's first step (docs/behaviour.md §32).
import type { Queryable } from "~/shared/db.server";

export interface ListingRefAndAddress {
  /** `collection/id` (parseListingRef reads it back). */
  value: string;
  address: string;
}

/** Available properties, by address (at most 1,000): what a renter may apply for. */
export function availablePropertyChoices(db: Queryable): Promise<ListingRefAndAddress[]> {
  return db.query<ListingRefAndAddress>(
    `SELECT collection || '/' || id AS value, address FROM listings
     WHERE collection = 'properties' AND currently_available IS TRUE
     ORDER BY address, id LIMIT 1000`,
  );
}

/** Every listing, by address: what a Leasing agent may be limited to ('Leasing agents'). */
export function listingChoices(db: Queryable): Promise<ListingRefAndAddress[]> {
  return db.query<ListingRefAndAddress>(
    "SELECT collection || '/' || id AS value, address FROM listings ORDER BY address, collection, id",
  );
}

/**
 * The listing at this address, a property before a construction and an available one first;
 * null when none (an address with a control character names none: a NUL is no text to
 * PostgreSQL).
 */
export async function listingAtAddress(
  db: Queryable,
  address: string | null,
): Promise<ListingRefAndAddress | null> {
  if (!address?.trim() || /\p{Cc}/u.test(address)) return null;
  const [row] = await db.query<ListingRefAndAddress>(
    `SELECT collection || '/' || id AS value, address FROM listings
     WHERE address = $1 ORDER BY (collection = 'properties') DESC, currently_available DESC NULLS LAST
     LIMIT 1`,
    [address.trim()],
  );
  return row ?? null;
}

/** A listing's address as stored, or null when there is no such listing. */
export async function addressOf(
  db: Queryable,
  ref: { collection: string; id: string },
): Promise<string | null> {
  const [row] = await db.query<{ address: string }>(
    "SELECT address FROM listings WHERE collection = $1 AND id = $2",
    [ref.collection, ref.id],
  );
  return row?.address ?? null;
}
