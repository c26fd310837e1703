// A list page shows the search its tab stored (docs/decisions/0060-list-search.md):
// the browser mirrors the tab's session storage in a cookie, and the server adds the cookie's
// values to the page's URL before the URL is made canonical, so the HTML sent first already
// shows the visitor's list and is kept (or not) under the URL of that search.
import { COLLECTIONS, type Collection, KINDS } from "~/domain/listing-kinds";
import { mergeStoredSearch, paramsOf, SEARCH_COOKIE } from "~/domain/listing-search";

/** Each list's page and its route data (`.data`), by the kinds' own routes. */
const LIST_PATHS: Readonly<Record<string, Collection>> = Object.fromEntries(
  COLLECTIONS.flatMap((c) => [
    [KINDS[c].route, c],
    [`${KINDS[c].route}.data`, c],
  ]),
);

/** The URL a list page is rendered for: its own, with the stored search added; others as is. */
export function withStoredSearch(url: URL, cookieHeader: string | null | undefined): URL {
  if (!cookieHeader) return url;
  const collection = Object.hasOwn(LIST_PATHS, url.pathname) ? LIST_PATHS[url.pathname] : undefined;
  if (!collection) return url;
  const stored = cookieValue(cookieHeader, SEARCH_COOKIE[collection]);
  if (stored === null) return url;
  const merged = mergeStoredSearch(collection, url.searchParams, new URLSearchParams(stored));
  const out = new URL(url);
  for (const name of paramsOf(collection)) out.searchParams.delete(name);
  for (const [name, value] of merged) out.searchParams.append(name, value);
  return out;
}

/** Whether a request may carry a stored search (cheap: no parsing for other requests). */
export function mayCarryStoredSearch(cookieHeader: string | null | undefined): boolean {
  return (
    !!cookieHeader &&
    (cookieHeader.includes(SEARCH_COOKIE.properties) ||
      cookieHeader.includes(SEARCH_COOKIE.newConstruction))
  );
}

function cookieValue(header: string, name: string): string | null {
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}
