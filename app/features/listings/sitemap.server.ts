// The sitemap's reads of the listings (docs/behaviour.md, sitemap; sitemap.ts builds the XML).
import type { Queryable } from "~/shared/db.server";
import type { SitemapListing } from "./sitemap";

/** How many listings there are, of both kinds: how many sitemap files the index names. */
export async function countListings(db: Queryable): Promise<number> {
  const [row] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM listings");
  return row?.n ?? 0;
}

/** One sitemap file's listings, in a stable order (properties first, then by id). */
export function sitemapListings(
  db: Queryable,
  { offset, limit }: { offset: number; limit: number },
): Promise<SitemapListing[]> {
  return db.query<SitemapListing>(
    `SELECT collection, id, address, image_urls, updated_at FROM listings
     ORDER BY collection DESC, id LIMIT $1 OFFSET $2`,
    [limit, offset],
  );
}
