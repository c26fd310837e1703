// The query parameters each page accepts, in one place (docs/decisions/0050-canonical-urls-and-
// render-limit.md). A parameter not listed for a page, or a value its normaliser refuses, is
// dropped: a page URL redirects (308) to its canonical form, and route data is answered for the
// canonical URL. A page that takes a new parameter declares it here, with the values it accepts.

import { inboxParam } from "~/domain/inquiry";
import type { Collection } from "~/domain/listing-kinds";
import { normaliseParam, paramsOf } from "~/domain/listing-search";
import { tableParam } from "~/domain/listing-table";
import { isStepId } from "~/domain/rental-application";

/** The value to keep (possibly rewritten to its one canonical spelling), or null to drop it. */
export type Normaliser = (value: string) => string | null;

export interface QueryParam {
  normalise: Normaliser;
  /**
   * "page": the server renders with it, so it is part of the page's cache key. "browser": only
   * the browser reads it (after hydration); it stays in the address bar, but the page is
   * rendered and kept without it, so any number of values costs one render.
   */
  readBy: "page" | "browser";
  /**
   * false: a page rendered with this parameter is never kept. For free values (words, rents,
   * dates), each of which would otherwise be one more kept page pushing real ones out.
   */
  kept?: false;
}

/** Free-valued list parameters: rendered each time, never kept. */
const UNKEPT = new Set(["q", "minRent", "maxRent", "availableBy"]);

/** A list page's parameters (app/domain/listing-search.ts), in canonical order. */
function listQueries(collection: Collection): Record<string, QueryParam> {
  return Object.fromEntries(
    paramsOf(collection).map((name) => [
      name,
      {
        normalise: (v: string) => normaliseParam(collection, name, v),
        readBy: "page" as const,
        ...(UNKEPT.has(name) ? { kept: false as const } : {}),
      },
    ]),
  );
}

const ALERT_TOKEN: QueryParam = {
  normalise: (v) => (/^[A-Za-z0-9_-]{43}$/.test(v) ? v : null),
  readBy: "browser",
};

const INBOX_FILTERS: Record<string, QueryParam> = {
  status: { normalise: inboxParam.status, readBy: "page" },
  kind: { normalise: inboxParam.kind, readBy: "page" },
  listing: { normalise: inboxParam.listing, readBy: "page" },
};

/** Route id (app/routes.ts file, without extension) → its parameters, in canonical order. */
export const PAGE_QUERIES: Readonly<Record<string, Readonly<Record<string, QueryParam>>>> = {
  // The spec's `filter=available` and the list search (app/domain/listing-search.ts).
  "routes/properties": listQueries("properties"),
  "routes/new-construction": listQueries("newConstruction"),
  // The staff table: search, order and page are rendered by the server (admins only, never kept).
  // The inbox's filters, for the page and its CSV (app/domain/inquiry.ts).
  "routes/admin-inbox": { ...INBOX_FILTERS, page: { normalise: inboxParam.page, readBy: "page" } },
  "routes/admin-inbox-export": INBOX_FILTERS,
  // 'Activity' (docs/behaviour.md §6): a person, a kind, a page.
  "routes/admin-activity": {
    who: { normalise: (v) => (v.length > 0 && v.length <= 320 ? v : null), readBy: "page" },
    kind: { normalise: (v) => (/^[a-z -]{1,40}$/.test(v) ? v : null), readBy: "page" },
    page: { normalise: tableParam.page, readBy: "page" },
  },
  "routes/admin-outbox": {
    page: { normalise: tableParam.page, readBy: "page" },
  },
  "routes/admin-listings": {
    q: { normalise: tableParam.q, readBy: "page" },
    stale: { normalise: tableParam.stale, readBy: "page" },
    sort: { normalise: tableParam.sort, readBy: "page" },
    dir: { normalise: tableParam.dir, readBy: "page" },
    page: { normalise: tableParam.page, readBy: "page" },
  },
  // An alert link's token (docs/behaviour.md §31): read by the browser and the action only.
  "routes/alerts-confirm": { token: ALERT_TOKEN },
  "routes/alerts-unsubscribe": { token: ALERT_TOKEN },
  // The online application (docs/behaviour.md §32): the listing named by 'How to Apply''s
  // address, and an applicant's private link. Free or secret values: rendered, never kept.
  "routes/apply-online": {
    address: {
      normalise: (v) => (v.trim() && v.length <= 500 ? v : null),
      readBy: "page",
      kept: false,
    },
  },
  // A staff sign-in link's token (docs/behaviour.md §6, "Staff sign-in"): secret, never kept.
  "routes/sign-in-link": {
    token: { normalise: ALERT_TOKEN.normalise, readBy: "page", kept: false },
  },
  "routes/application-link": {
    token: { normalise: ALERT_TOKEN.normalise, readBy: "page", kept: false },
    step: { normalise: (v) => (isStepId(v) ? v : null), readBy: "page", kept: false },
    done: { normalise: (v) => (v === "1" ? v : null), readBy: "page", kept: false },
    saved: { normalise: (v) => (v === "1" || v === "0" ? v : null), readBy: "page", kept: false },
    withdraw: { normalise: (v) => (v === "1" ? v : null), readBy: "page", kept: false },
  },
  // 'Schedule a showing' (docs/behaviour.md §33): the listing and the time chosen on its page,
  // then the private 'Change or cancel' link. Free or secret values: rendered, never kept.
  "routes/showings-book": {
    listing: { normalise: (v) => (v.length <= 300 ? v : null), readBy: "page", kept: false },
    start: {
      normalise: (v) => (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(v) ? v : null),
      readBy: "page",
      kept: false,
    },
  },
  "routes/showings-manage": {
    token: { normalise: ALERT_TOKEN.normalise, readBy: "page", kept: false },
    // A reminder's links: 'Cancel' opens the page at 'Are you sure?'; 'Confirm I'm coming' at
    // the page, whose button confirms (a followed link changes nothing).
    intent: {
      normalise: (v) => (v === "cancel" || v === "confirm" ? v : null),
      readBy: "page",
      kept: false,
    },
  },
  // A staff member's private 'Calendar feed' (docs/behaviour.md §33): secret, never kept.
  "routes/showings-calendar": {
    token: { normalise: ALERT_TOKEN.normalise, readBy: "page", kept: false },
  },
  "routes/rental-application": {
    // Free text ("Return to {address}"): shown by the browser, never rendered by the server.
    address: { normalise: (v) => (v.trim() && v.length <= 500 ? v : null), readBy: "browser" },
  },
};
