// The staff table at /admin/listings: both kinds in one list, searched, sorted and paged in SQL.

import type { Collection, PropertyType } from "~/domain/listing-kinds";
import {
  searchWords,
  TABLE_PAGE_SIZE,
  type TableQuery,
  type TableSort,
} from "~/domain/listing-table";
import type { Queryable } from "~/shared/db.server";

export interface TableRow {
  collection: Collection;
  id: string;
  address: string;
  property_type: PropertyType;
  currently_available: boolean | null;
  price: string | null;
  photos: number;
  /** ISO time of the last change (the row's updated_at). */
  changed: string;
  /** An available property whose availability was not confirmed lately (§30). */
  stale: boolean;
  /** The day (YYYY-MM-DD, UTC) its availability was last confirmed. */
  checked: string;
}

export interface TablePage {
  rows: TableRow[];
  /** Listings matching the search, on every page. */
  total: number;
}

// Fixed SQL per sort key (never text from the request). NULLs last either way, then a stable
// tie-break so paging never repeats or skips a row.
const ORDER: Record<TableSort, string> = {
  address: "lower(address)",
  kind: "collection",
  type: "property_type",
  status: "currently_available",
  rent: "rent",
  photos: "jsonb_array_length(image_urls)",
  changed: "updated_at",
};

/** LIKE's wildcards and escape character taken literally. */
const likeEscaped = (word: string) => word.replace(/[\\%_]/g, (c) => `\\${c}`);

/** What 'Stale' means in SQL: an available property not confirmed for $n days. */
const STALE = (n: number) =>
  `(collection = 'properties' AND currently_available
    AND availability_checked_at < now() - make_interval(days => $${n}))`;

export async function listTable(
  db: Queryable,
  query: TableQuery,
  staleAfterDays: number,
): Promise<TablePage> {
  const params: unknown[] = [staleAfterDays];
  // ILIKE rather than the search_words index: a part of a word or of a ZIP matches too, the
  // same on PGlite and PostgreSQL; staff tables are hundreds of rows, not millions.
  const conditions = searchWords(query.q).map((word) => {
    params.push(`%${likeEscaped(word)}%`);
    return `(address || ' ' || coalesce(city, '') || ' ' || coalesce(zip, '') || ' ' || description)
      ILIKE $${params.length}`;
  });
  if (query.stale) conditions.push(STALE(1));
  const where = conditions.length ? `WHERE ${conditions.join(" AND ")}` : "";
  const dir = query.dir === "desc" ? "DESC" : "ASC";
  params.push(TABLE_PAGE_SIZE, (query.page - 1) * TABLE_PAGE_SIZE);
  const rows = await db.query<TableRow & { total: number }>(
    `SELECT collection, id, address, property_type, currently_available, price,
       jsonb_array_length(image_urls)::int AS photos, updated_at AS changed,
       ${STALE(1)} AS stale,
       to_char(availability_checked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS checked,
       count(*) OVER ()::int AS total
     FROM listings ${where}
     ORDER BY ${ORDER[query.sort]} ${dir} NULLS LAST, collection, id
     LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  // A page past the end has no rows to carry the count: ask for it alone.
  const total =
    rows[0]?.total ??
    (
      await db.query<{ n: number }>(
        // ($1, the stale days, is named even when no condition uses it: every parameter sent
        // must occur in the statement.)
        `SELECT count(*)::int AS n, $1::int AS stale_days FROM listings ${where}`,
        params.slice(0, -2),
      )
    )[0]?.n ??
    0;
  return {
    rows: rows.map(({ total: _total, changed, ...row }) => ({
      ...row,
      changed: new Date(changed).toISOString(),
    })),
    total,
  };
}
