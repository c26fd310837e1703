// 'Only these listings' (docs/behaviour.md §6, "Staff roles"): a Leasing agent may be limited
// to some listings, and then reads the leads and applications of those alone. One SQL clause
// for every query that lists or opens them.
import type { Collection } from "./listing-kinds";

/** The listings someone may read the leads and applications of; null: every listing. */
export type ListingScope = readonly { collection: Collection; id: string }[] | null;

/**
 * A condition true for rows of a listing in `scope` (always true for null); rows with no
 * listing pass when `general` (messages from /contact). Appends its parameters to `params`.
 */
export function withinScope(
  scope: ListingScope | undefined,
  params: unknown[],
  { collection = "collection", id = "listing_id", general = false } = {},
): string {
  if (!scope) return "TRUE";
  params.push(
    scope.map((l) => l.collection),
    scope.map((l) => l.id),
  );
  const a = params.length - 1;
  const b = params.length;
  const listed = `(${collection}, ${id}) IN (SELECT * FROM unnest($${a}::text[], $${b}::text[]))`;
  return general ? `(${id} IS NULL OR ${listed})` : listed;
}
