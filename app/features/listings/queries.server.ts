import type { Listing, ListingSummary } from "~/domain/listing";
import { FIELD_KEYS, type ListingFieldValues } from "~/domain/listing-fields";
import type { Collection } from "~/domain/listing-kinds";
import type { Db, Queryable } from "~/shared/db.server";

export const SUMMARY_COLUMNS = `collection, id, address, bedrooms, bathrooms, thumbnail_image_url,
  thumbnail_description, property_type, currently_available, price`;
/**
 * Every field of app/domain/listing-fields.ts, read as the record types have it (a date as its
 * YYYY-MM-DD text).
 */
export const FIELD_COLUMNS = FIELD_KEYS.map((k) =>
  k === "available_from" ? "available_from::text AS available_from" : k,
).join(", ");
const ALL_COLUMNS = `collection, id, thumbnail_image_url, image_urls, image_captions, ${FIELD_COLUMNS},
  to_char(availability_checked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS availability_checked_on`;

/** Cards of one collection, or of both when `collection` is omitted (home page). */
export async function listSummaries(
  db: Queryable,
  collection?: Collection,
): Promise<ListingSummary[]> {
  const where = collection ? "WHERE collection = $1" : "";
  return db.query<ListingSummary>(
    `SELECT ${SUMMARY_COLUMNS} FROM listings ${where} ORDER BY collection DESC, created_at, id`,
    collection ? [collection] : [],
  );
}

/** The cards of the given records (home's featured list), in no particular order. */
export async function summariesOf(
  db: Queryable,
  keys: readonly { collection: Collection; id: string }[],
): Promise<ListingSummary[]> {
  if (keys.length === 0) return [];
  return db.query<ListingSummary>(
    `SELECT ${SUMMARY_COLUMNS} FROM listings
     WHERE (collection, id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    [keys.map((k) => k.collection), keys.map((k) => k.id)],
  );
}

export async function getListing(
  db: Queryable,
  collection: Collection,
  id: string,
): Promise<Listing | null> {
  const rows = await db.query<Listing>(
    `SELECT ${ALL_COLUMNS} FROM listings WHERE collection = $1 AND id = $2`,
    [collection, id],
  );
  return rows[0] ?? null;
}

/** A record with the version an edit form is based on (see db/migrations/0003). */
export type VersionedListing = Listing & { version: number };

export async function getListingForEdit(
  db: Queryable,
  collection: Collection,
  id: string,
): Promise<VersionedListing | null> {
  const rows = await db.query<VersionedListing>(
    `SELECT ${ALL_COLUMNS}, version FROM listings WHERE collection = $1 AND id = $2`,
    [collection, id],
  );
  return rows[0] ?? null;
}

/**
 * Reads a record's photos and version and locks its row until the transaction ends: every
 * read-modify-write starts here, so concurrent writes to one listing run one after another.
 */
export async function lockListing(
  tx: Queryable,
  collection: Collection,
  id: string,
): Promise<{ image_urls: string[]; version: number } | null> {
  const rows = await tx.query<{ image_urls: string[]; version: number }>(
    "SELECT image_urls, version FROM listings WHERE collection = $1 AND id = $2 FOR UPDATE",
    [collection, id],
  );
  return rows[0] ?? null;
}

export async function listingExists(db: Queryable, collection: Collection, id: string) {
  const rows = await db.query("SELECT 1 FROM listings WHERE collection = $1 AND id = $2", [
    collection,
    id,
  ]);
  return rows.length > 0;
}

/** A record to write: the spec's fields and, optionally, the facts (absent means none). */
export interface ListingInput extends ListingFieldValues {
  image_urls: string[];
  /** Captions by photo URL; absent: none on insert, unchanged on update. */
  image_captions?: Record<string, string>;
}

/** Inserts a new record; returns false (and writes nothing) when the key is taken. */
export async function insertListing(
  db: Queryable,
  collection: Collection,
  id: string,
  input: ListingInput,
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO listings (collection, id, image_urls, thumbnail_image_url, image_captions,
       ${FIELD_KEYS.join(", ")})
     VALUES ($1, $2, $3::jsonb, $4, COALESCE($5::jsonb, '{}'::jsonb),
       ${FIELD_KEYS.map((_, i) => `$${6 + i}`).join(", ")})
     ON CONFLICT (collection, id) DO NOTHING
     RETURNING id`,
    [collection, id, ...inputParams(input)],
  );
  return rows.length > 0;
}

/** Full update on save; returns the new version, or null when the record does not exist. */
export async function updateListing(
  db: Queryable,
  collection: Collection,
  id: string,
  input: ListingInput,
): Promise<number | null> {
  const rows = await db.query<{ version: number }>(
    `UPDATE listings SET image_urls = $3::jsonb, thumbnail_image_url = $4,
       image_captions = COALESCE($5::jsonb, image_captions),
       ${FIELD_KEYS.map((k, i) => `${k} = $${6 + i}`).join(", ")}, updated_at = now(),
       availability_checked_at = now()
     WHERE collection = $1 AND id = $2 RETURNING version`,
    [collection, id, ...inputParams(input)],
  );
  return rows[0]?.version ?? null;
}

export async function setAvailability(db: Queryable, id: string, available: boolean) {
  const rows = await db.query(
    `UPDATE listings SET currently_available = $2, updated_at = now(),
       availability_checked_at = now()
     WHERE collection = 'properties' AND id = $1 RETURNING id`,
    [id, available],
  );
  return rows.length > 0;
}

/**
 * 'Still available' (docs/behaviour.md §30): staff confirm an available property's status. Not
 * a change of the listing (its version and last change stay, db/migrations/0014). Returns
 * 'missing' or 'not-available' when there is nothing to confirm.
 */
export async function confirmAvailability(
  db: Queryable,
  id: string,
): Promise<"confirmed" | "missing" | "not-available"> {
  // (The outer SELECT sees the row as the statement started: whether it was confirmed is read
  // from the UPDATE itself, so a toggle committed meanwhile is never reported as confirmed.)
  const [row] = await db.query<{ confirmed: boolean }>(
    `WITH confirmed AS (
       UPDATE listings SET availability_checked_at = now()
       WHERE collection = 'properties' AND id = $1 AND currently_available
       RETURNING id)
     SELECT EXISTS (SELECT 1 FROM confirmed) AS confirmed
     FROM listings WHERE collection = 'properties' AND id = $1`,
    [id],
  );
  if (!row) return "missing";
  return row.confirmed ? "confirmed" : "not-available";
}

/**
 * Partial update of image_urls; the thumbnail always follows the first image. Returns the new
 * version, or null when the record does not exist.
 */
export async function setImages(
  db: Queryable,
  collection: Collection,
  id: string,
  urls: string[],
): Promise<number | null> {
  const rows = await db.query<{ version: number }>(
    `UPDATE listings SET image_urls = $3::jsonb, thumbnail_image_url = $4, updated_at = now()
     WHERE collection = $1 AND id = $2 RETURNING version`,
    [collection, id, JSON.stringify(urls), urls[0] ?? null],
  );
  return rows[0]?.version ?? null;
}

export async function deleteListing(db: Queryable, collection: Collection, id: string) {
  const rows = await db.query(
    "DELETE FROM listings WHERE collection = $1 AND id = $2 RETURNING id",
    [collection, id],
  );
  return rows.length > 0;
}

export async function countListings(db: Db): Promise<number> {
  const rows = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM listings");
  return rows[0]?.n ?? 0;
}

function inputParams(input: ListingInput) {
  return [
    JSON.stringify(input.image_urls),
    input.image_urls[0] ?? null,
    input.image_captions === undefined ? null : JSON.stringify(input.image_captions),
    ...FIELD_KEYS.map((k) => input[k] ?? null),
  ];
}
