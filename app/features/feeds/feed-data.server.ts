// Everything the three feeds and the 'Listing feeds' page read, in one SQL query: every listing
// (both kinds, newest first) and the stored site settings. Run once per change of the data, not
// once per request (feed-cache.server.ts).
import { company, mergeContent, type SiteContent, type StoredContent } from "~/domain/company";
import type { Listing } from "~/domain/listing";
import type { FeedListing } from "~/domain/listing-feeds";
import type { Queryable } from "~/shared/db.server";

/** One listing as the feeds see it; times as ISO 8601 UTC text ('2026-11-26T16:05:04.123456Z'). */
export interface FeedRow
  extends FeedListing,
    Pick<
      Listing,
      | "reserve_url"
      | "thumbnail_description"
      | "square_feet"
      | "city"
      | "state"
      | "zip"
      | "pets"
      | "available_from"
    > {
  image_captions: Record<string, string>;
  created_at: string;
  updated_at: string;
}

export interface FeedSnapshot {
  /** The company content every page shows: stored settings over the defaults. */
  content: SiteContent;
  /** Every listing, newest first. */
  listings: FeedRow[];
}

// Microseconds, so that the text sorts as the time does.
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

const SNAPSHOT_SQL = `
SELECT
  (SELECT content FROM site_settings WHERE id) AS settings,
  COALESCE(
    (SELECT json_agg(l ORDER BY l.created_at DESC, l.collection DESC, l.id)
       FROM (
         SELECT collection, id, address, bedrooms, bathrooms, description, price, property_type,
           currently_available, reserve_url, image_urls, image_captions, thumbnail_description,
           square_feet, city, state, zip, pets, available_from::text AS available_from,
           to_char(created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at,
           to_char(updated_at AT TIME ZONE 'UTC', ${ISO}) AS updated_at
         FROM listings
       ) l),
    '[]'::json
  ) AS listings`;

export async function loadFeedSnapshot(db: Queryable): Promise<FeedSnapshot> {
  const [row] = await db.query<{ settings: StoredContent | null; listings: FeedRow[] }>(
    SNAPSHOT_SQL,
  );
  return {
    content: mergeContent(company, row?.settings ?? {}),
    listings: (row?.listings ?? []).map((l) => ({
      ...l,
      image_urls: Array.isArray(l.image_urls) ? l.image_urls : [],
      image_captions: l.image_captions ?? {},
    })),
  };
}
