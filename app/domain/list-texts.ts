// The list pages' count and no-match lines (docs/behaviour.md §4), apart from the search code so
// that a list page shows them without loading it (docs/decisions/0077-csv-guards-and-light-public-pages.md).
import { groupDigits } from "./listing-facts";
import type { Collection } from "./listing-kinds";

/** How many match: '1 property', '37 properties' (constructions: '{n} listings'). */
export function matchCount(collection: Collection, n: number): string {
  const grouped = groupDigits(n);
  if (collection === "properties") return `${grouped} ${n === 1 ? "property" : "properties"}`;
  return `${grouped} ${n === 1 ? "listing" : "listings"}`;
}

export function noMatchText(collection: Collection): string {
  return collection === "properties"
    ? "No properties match these filters."
    : "No listings match these filters.";
}
