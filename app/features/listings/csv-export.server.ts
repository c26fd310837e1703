// 'Export CSV' on /admin/listings: every listing of both kinds, one row each, RFC 4180 quoting and
// formula guards by toCsv. The columns are app/domain/listing-csv.ts's; photos are their URLs,
// one per line (a quoted field).
import type { Listing } from "~/domain/listing";
import { CSV_COLUMNS } from "~/domain/listing-csv";
import { toCsv } from "~/shared/csv.server";
import type { Queryable } from "~/shared/db.server";
import { FIELD_COLUMNS } from "./queries.server";

export async function exportCsv(
  db: Queryable,
  /** A stored photo URL (/images/…) as staff can open it (the site's or the CDN's address). */
  photoAddress: (url: string) => string = (url) => url,
): Promise<{ csv: string; rows: number }> {
  const listings = await db.query<Listing>(
    `SELECT collection, id, image_urls, ${FIELD_COLUMNS}
     FROM listings ORDER BY collection DESC, created_at, id`,
  );
  const records = listings.map((l) =>
    CSV_COLUMNS.map((column) => {
      if (column === "photos") return l.image_urls.map(photoAddress).join("\n");
      const value = l[column];
      return value === null || value === undefined ? "" : String(value);
    }),
  );
  const csv = toCsv([[...CSV_COLUMNS], ...records]);
  return { csv, rows: records.length };
}
