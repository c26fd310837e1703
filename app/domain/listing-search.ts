// Search on the list pages (docs/decisions/0060-list-search.md): the spec's two
// controls (docs/behaviour.md §4, listing-filters.ts) plus the filters renters use most, carried
// by links, stored per tab in session storage and mirrored in a cookie the server reads, so the
// HTML it sends already shows the visitor's list.
import { isIsoDate } from "./listing-facts";
import { AVAILABLE_FILTER, FILTER_STORAGE_KEYS, type StorageLike } from "./listing-filters";
import { type Collection, isPropertyType } from "./listing-kinds";

export { matchCount, noMatchText } from "./list-texts";

export const SORTS = {
  properties: ["newest", "rent-asc", "rent-desc", "beds-desc", "available-soonest"],
  newConstruction: ["newest", "beds-desc"],
} as const satisfies Record<Collection, readonly string[]>;
export type SortKey = (typeof SORTS)["properties"][number];
export const SORT_LABELS: Record<SortKey, string> = {
  newest: "Newest",
  "rent-asc": "Rent: low to high",
  "rent-desc": "Rent: high to low",
  "beds-desc": "Most bedrooms",
  "available-soonest": "Available soonest",
};
export const BEDS_CHOICES = [1, 2, 3, 4, 5] as const;
export const BATHS_CHOICES = [1, 2, 3] as const;
export const PET_CHOICES = { cats: "Cats allowed", dogs: "Dogs allowed" } as const;
export type PetChoice = keyof typeof PET_CHOICES;

/** Cards a list shows at once; 'Show more' adds as many. */
export const PAGE_SIZE = 24;
/** A search's words: at most this many, each matched as a prefix. */
const MAX_WORDS = 8;
const MAX_RENT = 1_000_000;
const MAX_PAGE = 10_000;

/** Every control of a list page. Properties only: availableOnly, rent, pets, availableBy. */
export interface ListSearch {
  /** The spec's 'Only show available properties'. */
  availableOnly: boolean;
  /** The spec's type filter; '' means All. */
  propertyType: string;
  beds: number | null;
  baths: number | null;
  minRent: number | null;
  maxRent: number | null;
  pets: PetChoice | null;
  /** YYYY-MM-DD. */
  availableBy: string | null;
  q: string;
  sort: SortKey;
}

export const NO_SEARCH: ListSearch = {
  availableOnly: false,
  propertyType: "",
  beds: null,
  baths: null,
  minRent: null,
  maxRent: null,
  pets: null,
  availableBy: null,
  q: "",
  sort: "newest",
};

/** The parameters of the spec's own controls in links of ours (the no-JavaScript form's). */
export const SPEC_PARAMS = ["available", "type"] as const;
/** The new filters' parameters, in the order a canonical link writes them. */
export const SEARCH_PARAMS = [
  "beds",
  "baths",
  "minRent",
  "maxRent",
  "pets",
  "availableBy",
  "q",
  "sort",
] as const;
export type SearchParam = (typeof SEARCH_PARAMS)[number];

/** The parameters each list takes (constructions: type, bedrooms, words and order). */
export function paramsOf(collection: Collection): readonly string[] {
  return collection === "properties"
    ? ["filter", ...SPEC_PARAMS, ...SEARCH_PARAMS, "page"]
    : ["type", "beds", "q", "sort", "page"];
}

const wholeIn = (min: number, max: number) => (v: string) =>
  /^\d{1,7}$/.test(v) && Number(v) >= min && Number(v) <= max ? String(Number(v)) : null;

/**
 * Each parameter's one canonical value, or null when the value means nothing (it is then
 * ignored, never an error): server/page-queries.ts declares these for both lists.
 */
export function normaliseParam(collection: Collection, name: string, value: string): string | null {
  switch (name) {
    case "filter":
      return collection === "properties" && value === AVAILABLE_FILTER ? value : null;
    case "available":
      return collection === "properties" && value === "true" ? value : null;
    case "type":
      return isPropertyType(value) ? value : null;
    case "beds":
      return wholeIn(1, BEDS_CHOICES.length)(value);
    case "baths":
      return wholeIn(1, BATHS_CHOICES.length)(value);
    case "minRent":
    case "maxRent": {
      const n = Number(value.trim());
      return value.trim() !== "" && Number.isFinite(n) && n >= 0 && n <= MAX_RENT
        ? String(Math.round(n))
        : null;
    }
    case "pets":
      return value === "cats" || value === "dogs" ? value : null;
    case "availableBy":
      return isIsoDate(value) ? value : null;
    case "q": {
      // Kept as typed (spaces collapsed), so the box shows it; matched by its words.
      const text = value.replace(/\s+/g, " ").trim().slice(0, 200);
      return searchWords(text).length ? text : null;
    }
    case "sort":
      return (SORTS[collection] as readonly string[]).includes(value) && value !== "newest"
        ? value
        : null;
    case "page":
      return wholeIn(2, MAX_PAGE)(value);
    default:
      return null;
  }
}

/** The words of a search, lower case, letters and digits only (safe in a text-search query). */
export function searchWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_WORDS);
}

const valid = (collection: Collection, params: URLSearchParams, name: string) => {
  const raw = params.get(name);
  return raw === null ? null : normaliseParam(collection, name, raw);
};

/** Whether a query carries the spec's controls (`filter=available`, or our `available`/`type`). */
export function hasSpecParams(collection: Collection, params: URLSearchParams) {
  return ["filter", ...SPEC_PARAMS].some((n) => valid(collection, params, n) !== null);
}

/** Whether a query carries any of the new filters (a link's values replace the stored ones). */
export function hasSearchParams(collection: Collection, params: URLSearchParams) {
  return SEARCH_PARAMS.some((n) => valid(collection, params, n) !== null);
}

/**
 * The search a query states. docs/behaviour.md §4: `?filter=available` turns available-only on
 * and clears the type; without it `available` and `type` (our links and form) set them.
 */
export function searchFromParams(collection: Collection, params: URLSearchParams): ListSearch {
  const get = (name: string) => valid(collection, params, name);
  const filterAvailable = get("filter") !== null;
  const num = (name: string) => {
    const v = get(name);
    return v === null ? null : Number(v);
  };
  const properties = collection === "properties";
  return {
    availableOnly: filterAvailable || get("available") !== null,
    propertyType: filterAvailable ? "" : (get("type") ?? ""),
    beds: num("beds"),
    baths: properties ? num("baths") : null,
    minRent: properties ? num("minRent") : null,
    maxRent: properties ? num("maxRent") : null,
    pets: properties ? ((get("pets") as PetChoice | null) ?? null) : null,
    availableBy: properties ? get("availableBy") : null,
    q: get("q") ?? "",
    sort: (get("sort") as SortKey | null) ?? "newest",
  };
}

/** The page of cards a query asks for (1 without `page`). */
export function pageFromParams(params: URLSearchParams): number {
  const v = normaliseParam("properties", "page", params.get("page") ?? "");
  return v === null ? 1 : Number(v);
}

/**
 * A search as canonical query parameters (no `filter`: `available` says the same without the
 * spec's rule of clearing the type). `part` limits it to the spec's or the new controls.
 */
export function searchToParams(
  collection: Collection,
  search: ListSearch,
  part: "all" | "spec" | "new" = "all",
): URLSearchParams {
  const out = new URLSearchParams();
  const put = (name: string, value: string | number | null | boolean) => {
    if (value === null || value === "" || value === false) return;
    const normalised = normaliseParam(collection, name, String(value));
    if (normalised !== null) out.set(name, normalised);
  };
  if (part !== "new") {
    put("available", search.availableOnly ? "true" : null);
    put("type", search.propertyType);
  }
  if (part !== "spec") {
    put("beds", search.beds);
    put("baths", search.baths);
    put("minRent", search.minRent);
    put("maxRent", search.maxRent);
    put("pets", search.pets);
    put("availableBy", search.availableBy);
    put("q", search.q);
    put("sort", search.sort);
  }
  return out;
}

export function sameSearch(collection: Collection, a: ListSearch, b: ListSearch) {
  return searchToParams(collection, a).toString() === searchToParams(collection, b).toString();
}

/** The cookie that mirrors a tab's stored search for the server (read by server/stored-search.ts). */
export const SEARCH_COOKIE: Record<Collection, string> = {
  properties: "propertySearch",
  newConstruction: "constructionSearch",
};
/** Session storage key of the new filters (the spec's two keep their own keys). */
export const SEARCH_STORAGE_KEY: Record<Collection, string> = {
  properties: "propertySearch",
  newConstruction: "constructionSearch",
};

/**
 * What a request for a list shows: the query's own values where it has them, else those the
 * tab stored (its cookie): the spec's two controls and the new filters each as a whole, as
 * docs/behaviour.md §4 and docs/decisions/0060-list-search.md say. `page` only ever comes from the
 * query.
 */
export function mergeStoredSearch(
  collection: Collection,
  query: URLSearchParams,
  stored: URLSearchParams,
): URLSearchParams {
  const fromQuery = searchFromParams(collection, query);
  const fromStore = searchFromParams(collection, stored);
  const spec = hasSpecParams(collection, query) ? fromQuery : fromStore;
  const rest = hasSearchParams(collection, query) ? fromQuery : fromStore;
  const merged = searchToParams(collection, {
    ...rest,
    availableOnly: spec.availableOnly,
    propertyType: spec.propertyType,
  });
  const page = query.get("page");
  if (page !== null && normaliseParam(collection, "page", page) !== null) merged.set("page", page);
  return merged;
}

/**
 * The search this tab shows (browser): the URL's values where it has them, else the stored
 * ones (docs/behaviour.md §4 for the spec's keys). What the URL states is stored.
 */
export function resolveStoredSearch(
  collection: Collection,
  url: URLSearchParams,
  storage: StorageLike,
): ListSearch {
  const keys = FILTER_STORAGE_KEYS[collection];
  const stored = new URLSearchParams(storage.getItem(SEARCH_STORAGE_KEY[collection]) ?? "");
  const fromStore = searchFromParams(collection, stored);
  fromStore.availableOnly = keys.available ? storage.getItem(keys.available) === "true" : false;
  const type = storage.getItem(keys.type) ?? "";
  fromStore.propertyType = isPropertyType(type) ? type : "";
  const fromUrl = searchFromParams(collection, url);
  const spec = hasSpecParams(collection, url) ? fromUrl : fromStore;
  const rest = hasSearchParams(collection, url) ? fromUrl : fromStore;
  const search = { ...rest, availableOnly: spec.availableOnly, propertyType: spec.propertyType };
  if (hasSpecParams(collection, url) || hasSearchParams(collection, url)) {
    storeSearch(collection, search, storage);
  }
  return search;
}

/** Stores a search in the tab: the spec's keys as the spec says, the rest as one query string. */
export function storeSearch(collection: Collection, search: ListSearch, storage: StorageLike) {
  const keys = FILTER_STORAGE_KEYS[collection];
  if (keys.available) storage.setItem(keys.available, JSON.stringify(search.availableOnly));
  storage.setItem(keys.type, search.propertyType);
  storage.setItem(
    SEARCH_STORAGE_KEY[collection],
    searchToParams(collection, search, "new").toString(),
  );
}

/** The cookie line that mirrors a stored search (a session cookie for the whole site). */
export function searchCookie(collection: Collection, search: ListSearch): string {
  const value = encodeURIComponent(searchToParams(collection, search).toString());
  return `${SEARCH_COOKIE[collection]}=${value}; Path=/; SameSite=Lax`;
}
