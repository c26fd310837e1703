// The list pages' search in SQL (docs/decisions/0060-list-search.md): filters, order
// and paging run in the database with the indexes of db/migrations/0009, on PGlite and
// PostgreSQL alike. A page holds PAGE_SIZE cards; the total comes with it.
import type { ListingSummary } from "~/domain/listing";
import type { Collection } from "~/domain/listing-kinds";
import { type ListSearch, PAGE_SIZE, type SortKey, searchWords } from "~/domain/listing-search";
import type { Queryable } from "~/shared/db.server";
import { SUMMARY_COLUMNS } from "./queries.server";

export interface SearchPage {
  items: ListingSummary[];
  total: number;
  page: number;
  pageSize: number;
}

/** Every order ends with the id, so equal values never swap places between pages. */
const ORDER_BY: Record<SortKey, string> = {
  newest: "created_at DESC, id",
  "rent-asc": "rent ASC NULLS LAST, id",
  "rent-desc": "rent DESC NULLS LAST, id",
  "beds-desc": "bedrooms DESC NULLS LAST, id",
  "available-soonest": "available_on ASC NULLS LAST, id",
};

/** The WHERE clause of a search and its parameters ($1 is the collection). */
export function searchWhere(collection: Collection, search: ListSearch) {
  const where = ["collection = $1"];
  const params: unknown[] = [collection];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (search.availableOnly && collection === "properties") where.push("currently_available");
  if (search.propertyType) add((p) => `property_type = ${p}`, search.propertyType);
  if (search.beds !== null) add((p) => `bedrooms >= ${p}`, search.beds);
  if (search.baths !== null) add((p) => `bathrooms >= ${p}`, search.baths);
  // A listing without a rent (price not purely digits) is excluded by a rent filter.
  if (search.minRent !== null) add((p) => `rent >= ${p}`, search.minRent);
  if (search.maxRent !== null) add((p) => `rent <= ${p}`, search.maxRent);
  if (search.pets === "cats") where.push("pets IN ('cats', 'cats-and-dogs')");
  if (search.pets === "dogs") where.push("pets IN ('dogs', 'cats-and-dogs')");
  if (search.availableBy !== null) add((p) => `available_on <= ${p}::date`, search.availableBy);
  const words = searchWords(search.q);
  if (words.length > 0) {
    add(
      (p) => `search_words @@ to_tsquery('simple', ${p})`,
      words.map((w) => `${w}:*`).join(" & "),
    );
  }
  return { where: where.join(" AND "), params };
}

export async function searchListings(
  db: Queryable,
  collection: Collection,
  search: ListSearch,
  page: number,
): Promise<SearchPage> {
  const { where, params } = searchWhere(collection, search);
  const offset = (page - 1) * PAGE_SIZE;
  const rows = await db.query<ListingSummary & { total: number }>(
    `SELECT ${SUMMARY_COLUMNS}, count(*) OVER ()::int AS total FROM listings
     WHERE ${where} ORDER BY ${ORDER_BY[search.sort]}
     LIMIT ${PAGE_SIZE} OFFSET ${offset}`,
    params,
  );
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && page > 1) {
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM listings WHERE ${where}`,
      params,
    );
    total = row?.n ?? 0;
  }
  const items = rows.map(({ total: _total, ...item }) => item as ListingSummary);
  return { items, total, page, pageSize: PAGE_SIZE };
}
