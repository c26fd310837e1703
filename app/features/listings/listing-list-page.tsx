import { Suspense, useEffect, useRef, useState } from "react";
import { useFetcher, useNavigate, useRevalidator, useSearchParams } from "react-router";
import { matchCount, noMatchText } from "~/domain/list-texts";
import type { ListingSummary } from "~/domain/listing";
import { type ListingKind, listingPath } from "~/domain/listing-kinds";
import { useLiveRevalidation } from "~/features/live";
import {
  FilterBarOnDemand,
  loadSearch,
  useHydratedNow as useHydrated,
} from "./filter-bar-on-demand";
import type { ListPageData, SearchMirror } from "./list-loader.server";
import { ListingCard } from "./listing-card";
import type { AlertSlot } from "./listing-detail-page";

interface ListingListPageProps {
  kind: ListingKind;
  data: ListPageData;
  /**
   * 'E-mail me new matches' (the alerts feature's form, composed by the route). Only a list
   * with filters offers it: given lazily, an unfiltered list never fetches its wrapper, and a
   * filtered one keeps the server's form while it loads
   * (docs/decisions/0077-csv-guards-and-light-public-pages.md).
   */
  AlertForm?: AlertSlot;
}

/**
 * /properties and /new-construction: one page, the search of docs/decisions/0060-list-search.md,
 * live. The server sends the list the tab's search selects; the browser keeps it in step with
 * the tab's session storage (docs/behaviour.md §4) and its cookie.
 */
export function ListingListPage({ kind, data, AlertForm }: ListingListPageProps) {
  useLiveRevalidation([kind.collection]);
  const { collection } = kind;
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const hydrated = useHydrated();
  const [query, setQuery] = useState(data.mirror.query);
  useEffect(() => setQuery(data.mirror.query), [data.mirror.query]);

  // Session storage exists only in the browser: the URL's values are stored, or the stored ones
  // restored. The server normally showed them already (the cookie mirrors them); when the
  // cookie said something else (another tab wrote it), the list is loaded again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the address changes
  useEffect(() => {
    const { stored, changed } = tabSearch(searchParams, data.mirror, window.sessionStorage);
    if (!changed) {
      mirror(data.mirror.cookie, data.mirror.query);
      return;
    }
    // Rare (another tab wrote the cookie): the code that builds the query is loaded for it.
    let current = true;
    void loadSearch().then(({ storedQuery }) => {
      if (!current) return;
      mirror(data.mirror.cookie, storedQuery(stored));
      revalidator.revalidate();
    });
    return () => {
      current = false;
    };
  }, [collection, searchParams]);

  // docs/behaviour.md §4: a change navigates to the list without a query.
  function applied(next: string) {
    setQuery(next);
    navigate(kind.route, { preventScrollReset: true, replace: !window.location.search });
  }

  return (
    <section>
      <h1>{kind.listTitle}</h1>
      <FilterBarOnDemand kind={kind} search={data.search} hydrated={hydrated} onApplied={applied} />
      {hydrated ? <CopySearchLink kind={kind} query={query} /> : null}
      <ListResults
        kind={kind}
        data={data}
        onClear={() => void loadSearch().then((m) => applied(m.keepSearch(collection)))}
      />
      {/* A search with filters can be followed by e-mail (docs/behaviour.md §31). */}
      {AlertForm && data.mirror.filtered ? (
        <Suspense key={data.mirror.query} fallback={null}>
          <AlertForm
            target={{ collection, search: data.mirror.query }}
            renderedAt={data.renderedAt}
          />
        </Suspense>
      ) : null}
    </section>
  );
}

/** The URL's names of the spec's two controls and of the new filters (listing-search.ts). */
const SPEC_NAMES = ["filter", "available", "type"];

/**
 * What the tab's storage holds for this list once the URL's values are stored in it
 * (resolveStoredSearch() of listing-search.ts, on the server's canonical values: the server
 * answers any other parameter or value with a redirect without it), and whether that is another
 * search than the one the server showed. Missing values mean off, All and none.
 */
function tabSearch(url: URLSearchParams, shown: SearchMirror, storage: Storage) {
  const names = [...url.keys()].filter((n) => n !== "page");
  const urlSpec = names.some((n) => SPEC_NAMES.includes(n));
  const urlRest = names.some((n) => !SPEC_NAMES.includes(n));
  const last = shown.stored.length - 1;
  const stored = shown.stored.map(([key, value], i): [string, string] => {
    if (i === last ? urlRest : urlSpec) return [key, value];
    const held = storage.getItem(key) ?? "";
    // 'Only show available properties' is stored as JSON (first, properties only).
    return [key, i === 0 && last === 2 ? String(held === "true") : held];
  });
  if (urlSpec || urlRest) for (const [key, value] of stored) storage.setItem(key, value);
  const changed = stored.some(([, value], i) => value !== shown.stored[i]?.[1]);
  return { stored, changed };
}

/** The cookie the server reads the tab's search from (server/stored-search.ts). */
function mirror(name: string, query: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: one value, encoded here
  document.cookie = `${name}=${encodeURIComponent(query)}; Path=/; SameSite=Lax`;
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
  const searchKey = `${data.mirror.query}#${data.page}`;
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
  const query = new URLSearchParams(data.mirror.query);
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
function CopySearchLink({ kind, query }: { kind: ListingKind; query: string }) {
  const [copied, setCopied] = useState<"" | "copied" | "failed">("");
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
