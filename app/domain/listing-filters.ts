import type { ListingSummary } from "./listing";
import type { Collection } from "./listing-kinds";

/** Session storage keys (docs/behaviour.md §4 names the property ones; the construction key is ours). */
export const FILTER_STORAGE_KEYS = {
  properties: { available: "filterAvailable", type: "selectedPropertyType" },
  newConstruction: { available: null, type: "selectedConstructionType" },
} as const satisfies Record<Collection, { available: string | null; type: string }>;

export interface ListFilters {
  availableOnly: boolean;
  /** '' means All. */
  propertyType: string;
}

/** The one value of `?filter=` that means anything (docs/behaviour.md §4). */
export const AVAILABLE_FILTER = "available";

export const NO_FILTERS: ListFilters = { availableOnly: false, propertyType: "" };

/** A record passes when it passes the availability check (when on) and the type check (when chosen). */
export function applyFilters<
  T extends Pick<ListingSummary, "currently_available" | "property_type">,
>(items: readonly T[], filters: ListFilters): T[] {
  return items.filter(
    (item) =>
      (!filters.availableOnly || item.currently_available === true) &&
      (!filters.propertyType || item.property_type === filters.propertyType),
  );
}

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** What the URL alone says (also the server's first render, before storage can be read). */
export function filtersFromQuery(
  collection: Collection,
  search: URLSearchParams,
): ListFilters | null {
  return collection === "properties" && search.get("filter") === AVAILABLE_FILTER
    ? { availableOnly: true, propertyType: "" }
    : null;
}

/**
 * docs/behaviour.md §4: `?filter=available` sets available-only, clears the type and stores both;
 * without it the stored values are restored.
 */
export function resolveFilters(
  collection: Collection,
  search: URLSearchParams,
  storage: StorageLike,
): ListFilters {
  const fromQuery = filtersFromQuery(collection, search);
  if (fromQuery) {
    storeFilters(collection, fromQuery, storage);
    return fromQuery;
  }
  const keys = FILTER_STORAGE_KEYS[collection];
  return {
    availableOnly: keys.available ? storage.getItem(keys.available) === "true" : false,
    propertyType: storage.getItem(keys.type) ?? "",
  };
}

export function storeFilters(collection: Collection, filters: ListFilters, storage: StorageLike) {
  const keys = FILTER_STORAGE_KEYS[collection];
  if (keys.available) storage.setItem(keys.available, JSON.stringify(filters.availableOnly));
  storage.setItem(keys.type, filters.propertyType);
}
