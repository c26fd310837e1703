import type { AppLoadContext } from "react-router";
import type { Collection } from "~/domain/listing-kinds";
import { type ListSearch, pageFromParams, searchFromParams } from "~/domain/listing-search";
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
  return { ...page, search, renderedAt: Date.now() };
}
