// The list pages' search code, loaded when the filter bar or 'Clear filters' is first used
// (filter-bar-on-demand.tsx; docs/decisions/0077-csv-guards-and-light-public-pages.md).
import { useEffect, useState } from "react";
import type { Collection, ListingKind } from "~/domain/listing-kinds";
import {
  type ListSearch,
  NO_SEARCH,
  searchCookie,
  searchToParams,
  storeSearch,
} from "~/domain/listing-search";
import { type FilterStart, ListFilterBar } from "./list-filter-bar";

/** Stores a search in the tab and mirrors it in the cookie (docs/behaviour.md §4); its query. */
export function keepSearch(collection: Collection, search: ListSearch = NO_SEARCH): string {
  storeSearch(collection, search, window.sessionStorage);
  // biome-ignore lint/suspicious/noDocumentCookie: one value, encoded by searchCookie()
  document.cookie = searchCookie(collection, search);
  return searchToParams(collection, search).toString();
}

/** The filter bar with its search: a change shows at once, is kept, and `onApplied` loads it. */
export default function LiveFilterBar({
  kind,
  search: given,
  hydrated,
  onApplied,
  start,
}: {
  kind: ListingKind;
  search: ListSearch;
  hydrated: boolean;
  onApplied: (query: string) => void;
  start?: FilterStart;
}) {
  const [search, setSearch] = useState(given);
  useEffect(() => setSearch(given), [given]);
  const change = (next: ListSearch) => {
    setSearch(next);
    onApplied(keepSearch(kind.collection, next));
  };
  return (
    <ListFilterBar
      kind={kind}
      search={search}
      onChange={change}
      hydrated={hydrated}
      start={start}
    />
  );
}
