import type { AppLoadContext } from "react-router";
import { FILTER_STORAGE_KEYS } from "~/domain/listing-filters";
import type { Collection } from "~/domain/listing-kinds";
import {
  type ListSearch,
  NO_SEARCH,
  pageFromParams,
  SEARCH_COOKIE,
  SEARCH_STORAGE_KEY,
  sameSearch,
  searchFromParams,
  searchToParams,
} from "~/domain/listing-search";
import { summariesOf } from "./queries.server";
import { type SearchPage, searchListings } from "./search.server";

/** Home's featured cards, in the staff's order (docs/behaviour.md §19); missing ones dropped. */
export async function loadFeaturedSummaries(
  context: AppLoadContext,
  entries: readonly { collection: Collection; id: string }[],
) {
  const rows = await summariesOf(context.db, entries);
  return entries.flatMap((e) => rows.filter((l) => l.collection === e.collection && l.id === e.id));
}

export interface ListPageData extends SearchPage {
  search: ListSearch;
  /** When the page was made (ms), for the alert form's time check (docs/behaviour.md §31). */
  renderedAt: number;
  /**
   * The search as the browser stores and links it, worked out here so that the page needs the
   * search code only once a control is used (docs/decisions/0077-csv-guards-and-light-public-pages.md).
   */
  mirror: SearchMirror;
}

/** A search's link query, whether it filters, and what the tab stores and mirrors for it. */
export interface SearchMirror {
  /** searchToParams(): the query of a link to this search. */
  query: string;
  /** Whether it filters at all (the sort aside): the alert form is offered then. */
  filtered: boolean;
  /** Session storage as storeSearch() writes it: key, value. */
  stored: [string, string][];
  /** The cookie's name (its value is `query`, encoded). */
  cookie: string;
}

export function searchMirror(collection: Collection, search: ListSearch): SearchMirror {
  const keys = FILTER_STORAGE_KEYS[collection];
  return {
    query: searchToParams(collection, search).toString(),
    filtered: !sameSearch(collection, { ...search, sort: NO_SEARCH.sort }, NO_SEARCH),
    stored: [
      ...(keys.available ? [[keys.available, JSON.stringify(search.availableOnly)] as const] : []),
      [keys.type, search.propertyType],
      [SEARCH_STORAGE_KEY[collection], searchToParams(collection, search, "new").toString()],
    ].map(([k, v]) => [k, v]),
    cookie: SEARCH_COOKIE[collection],
  };
}

/**
 * A list page: the search its URL states (the server has already added the tab's stored search
 * from its cookie, server/stored-search.ts), one page of cards and how many match.
 */
export async function loadListPage(
  context: AppLoadContext,
  collection: Collection,
  request: Request,
): Promise<ListPageData> {
  const params = new URL(request.url).searchParams;
  const search = searchFromParams(collection, params);
  const page = await searchListings(context.db, collection, search, pageFromParams(params));
  return { ...page, search, renderedAt: Date.now(), mirror: searchMirror(collection, search) };
}
