// The list pages' search code, loaded when the filter bar or 'Clear filters' is first used
// (filter-bar-on-demand.tsx; docs/decisions/0077-csv-guards-and-light-public-pages.md).
import { useState } from "react";
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

/**
 * The list query of the tab's stored values (listing-list-page.tsx's tabSearch(): the spec's
 * keys, then the new filters' query), as searchToParams() writes it: available, type, the rest.
 */
export function storedQuery(stored: [string, string][]): string {
  const [rest, type, available] = [...stored].reverse().map(([, value]) => value);
  const query = new URLSearchParams();
  if (available === "true") query.set("available", "true");
  if (type) query.set("type", type);
  for (const [k, v] of new URLSearchParams(rest)) query.append(k, v);
  return query.toString();
}

/**
 * What the server's bar holds now, for the real bar to start from (filter-bar-on-demand.tsx):
 * its values and the control used (none for Enter). The focus is read later, when the real bar
 * is put in place: `focused` is the bar's control that last had it (the server's, still there
 * or just replaced), unless the focus is now on something else of the page. Here, not in the
 * wrapper, as it is read only once this code is loaded.
 */
export function filterStart(
  form: HTMLFormElement,
  used: string | null,
  focused: () => HTMLElement | null,
): FilterStart {
  // A bar brought in meanwhile replaced it (its focus went with it): back to the control used.
  const replaced = !form.isConnected && used ? form.elements.namedItem(used) : null;
  return {
    values: [...new FormData(form)].map(([k, v]) => [k, String(v)]),
    used,
    focus: () => {
      const control = focused() ?? (replaced instanceof HTMLElement ? replaced : null);
      const now = document.activeElement;
      // The visitor is on something else of the page: the focus stays there.
      if (!control || !("name" in control) || (now && now !== document.body && now !== control))
        return null;
      const text = control instanceof HTMLInputElement ? control : null;
      return {
        name: String(control.name),
        start: text?.selectionStart ?? null,
        end: text?.selectionEnd ?? null,
      };
    },
  };
}

/** What filter-bar-on-demand.tsx shows: the real bar, from a start, mounted `n` times. */
export interface LiveStart {
  start?: FilterStart;
  n?: number;
}

/**
 * The bar after a takeover that read `start` from the server's bar: started again (a new key)
 * only when the values differ from those it started from; otherwise as it is, with whatever was
 * typed into it since.
 */
export function nextLive(now: LiveStart | null, start: FilterStart): LiveStart {
  return now?.start && String(now.start.values) === String(start.values)
    ? now
    : { start, n: (now?.n ?? 0) + 1 };
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
  // A new search from outside replaces what is shown, but only once it is new: an effect would
  // also run as the bar comes, and undo the change it starts with (the server's bar used before
  // this code came) until that change had loaded.
  const [search, setSearch] = useState(given);
  const [shownGiven, setShownGiven] = useState(given);
  if (given !== shownGiven) {
    setShownGiven(given);
    setSearch(given);
  }
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
