import { useEffect, useRef, useState } from "react";
import { useFetcher, useNavigate, useRevalidator, useSearchParams } from "react-router";
import type { ListingSummary } from "~/domain/listing";
import { type ListingKind, listingPath } from "~/domain/listing-kinds";
import {
  type ListSearch,
  matchCount,
  NO_SEARCH,
  noMatchText,
  resolveStoredSearch,
  sameSearch,
  searchCookie,
  searchToParams,
  storeSearch,
} from "~/domain/listing-search";
import { useLiveRevalidation } from "~/features/live";
import { useHydrated } from "~/shared/use-hydrated";
import { AlertFormOnDemand as AlertForm } from "./alert-form-on-demand";
import { ListFilterBar } from "./list-filter-bar";
import type { ListPageData } from "./list-loader.server";
import { ListingCard } from "./listing-card";

interface ListingListPageProps {
  kind: ListingKind;
  data: ListPageData;
}

/**
 * /properties and /new-construction: one page, the search of docs/decisions/0060-list-search.md,
 * live. The server sends the list the tab's search selects; the browser keeps it in step with
 * the tab's session storage (docs/behaviour.md §4) and its cookie.
 */
export function ListingListPage({ kind, data }: ListingListPageProps) {
  useLiveRevalidation([kind.collection]);
  const { collection } = kind;
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const hydrated = useHydrated();
  const [search, setSearch] = useState<ListSearch>(data.search);
  useEffect(() => setSearch(data.search), [data.search]);

  // Session storage exists only in the browser: the URL's values are stored, or the stored ones
  // restored. The server normally showed them already (the cookie mirrors them); when the
  // cookie said something else (another tab wrote it), the list is loaded again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the address changes
  useEffect(() => {
    const resolved = resolveStoredSearch(collection, searchParams, window.sessionStorage);
    mirror(collection, resolved);
    if (!sameSearch(collection, resolved, data.search)) {
      setSearch(resolved);
      revalidator.revalidate();
    }
  }, [collection, searchParams]);

  function change(next: ListSearch) {
    setSearch(next);
    storeSearch(collection, next, window.sessionStorage);
    mirror(collection, next);
    // docs/behaviour.md §4: a change navigates to the list without a query.
    navigate(kind.route, { preventScrollReset: true, replace: !window.location.search });
  }

  return (
    <section>
      <h1>{kind.listTitle}</h1>
      <ListFilterBar kind={kind} search={search} onChange={change} hydrated={hydrated} />
      {hydrated ? <CopySearchLink kind={kind} search={search} /> : null}
      <ListResults kind={kind} data={data} onClear={() => change(NO_SEARCH)} />
      {/* A search with filters can be followed by e-mail (docs/behaviour.md §31). */}
      {sameSearch(collection, { ...data.search, sort: NO_SEARCH.sort }, NO_SEARCH) ? null : (
        <AlertForm
          key={searchToParams(collection, data.search).toString()}
          target={{ collection, search: searchToParams(collection, data.search).toString() }}
          renderedAt={data.renderedAt}
        />
      )}
    </section>
  );
}

/** The cookie the server reads the tab's search from (server/stored-search.ts). */
function mirror(collection: ListingKind["collection"], search: ListSearch) {
  // biome-ignore lint/suspicious/noDocumentCookie: one value, encoded by searchCookie()
  document.cookie = searchCookie(collection, search);
}

/** The count, the cards and 'Show more' (a link without JavaScript, appended in place with it). */
function ListResults({
  kind,
  data,
  onClear,
}: {
  kind: ListingKind;
  data: ListPageData;
  onClear: () => void;
}) {
  const fetcher = useFetcher<ListPageData>();
  const [more, setMore] = useState<{ items: ListingSummary[]; page: number }>({
    items: [],
    page: data.page,
  });
  const firstNew = useRef<number | null>(null);
  const grid = useRef<HTMLUListElement>(null);
  // A new search starts the list again; a live change of the first page keeps what was added.
  const searchKey = `${searchToParams(kind.collection, data.search)}#${data.page}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the search changes
  useEffect(() => setMore({ items: [], page: data.page }), [searchKey]);
  useEffect(() => {
    const next = fetcher.data;
    if (!next || next.page !== more.page + 1) return;
    firstNew.current = data.items.length + more.items.length;
    setMore({ items: [...more.items, ...next.items], page: next.page });
  }, [fetcher.data, more, data.items.length]);
  // Focus moves to the first card 'Show more' added.
  // biome-ignore lint/correctness/useExhaustiveDependencies: after each append
  useEffect(() => {
    const at = firstNew.current;
    if (at === null) return;
    firstNew.current = null;
    grid.current?.querySelectorAll<HTMLAnchorElement>("li.card > a")[at]?.focus();
  }, [more.items.length]);

  // A listing added meanwhile shifts the pages: one seen twice is shown once.
  const seen = new Set<string>();
  const items = [...data.items, ...more.items].filter((l) => !seen.has(l.id) && seen.add(l.id));
  const shownUpTo = (more.page - 1) * data.pageSize + data.items.length + more.items.length;
  const hasMore = shownUpTo < data.total && items.length > 0;
  const query = searchToParams(kind.collection, data.search);
  query.set("page", String(more.page + 1));
  const moreHref = `${kind.route}?${query}`;

  if (data.total === 0) {
    return (
      <div className="empty">
        <p>{noMatchText(kind.collection)}</p>
        <form method="get" action={kind.route}>
          <button
            type="submit"
            className="btn btn-outline"
            onClick={(e) => {
              e.preventDefault();
              onClear();
            }}
          >
            Clear filters
          </button>
        </form>
      </div>
    );
  }
  return (
    <>
      <p className="match-count" aria-live="polite">
        {matchCount(kind.collection, data.total)}
      </p>
      <ul className="card-grid" ref={grid}>
        {items.map((listing, i) => (
          <ListingCard
            key={listing.id}
            listing={listing}
            to={listingPath(kind.collection, listing.id)}
            eager={i < 3}
            priority={i === 0}
            headingLevel={2}
          />
        ))}
      </ul>
      {hasMore ? (
        <p className="show-more">
          <a
            className="btn btn-outline"
            href={moreHref}
            aria-disabled={fetcher.state !== "idle" || undefined}
            onClick={(e) => {
              if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
              e.preventDefault();
              if (fetcher.state === "idle") fetcher.load(moreHref);
            }}
          >
            Show more
          </a>
        </p>
      ) : null}
    </>
  );
}

/** 'Copy link to this search': a link that opens this list with these filters in any tab. */
function CopySearchLink({ kind, search }: { kind: ListingKind; search: ListSearch }) {
  const [copied, setCopied] = useState<"" | "copied" | "failed">("");
  const query = searchToParams(kind.collection, search).toString();
  const url = () => `${window.location.origin}${kind.route}${query ? `?${query}` : ""}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search needs a new copy
  useEffect(() => setCopied(""), [query]);
  return (
    <p className="copy-search">
      <button
        type="button"
        className="btn btn-link"
        onClick={() =>
          navigator.clipboard.writeText(url()).then(
            () => setCopied("copied"),
            () => setCopied("failed"),
          )
        }
      >
        Copy link to this search
      </button>{" "}
      <span aria-live="polite">
        {copied === "copied" ? "Link copied." : copied === "failed" ? url() : ""}
      </span>
    </p>
  );
}
