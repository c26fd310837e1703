import { describe, expect, it } from "vitest";
import type { StorageLike } from "./listing-filters";
import {
  matchCount,
  mergeStoredSearch,
  NO_SEARCH,
  normaliseParam,
  resolveStoredSearch,
  searchFromParams,
  searchToParams,
  storeSearch,
} from "./listing-search";

const q = (s: string) => new URLSearchParams(s);
function memoryStorage(
  init: Record<string, string> = {},
): StorageLike & { all: Map<string, string> } {
  const all = new Map(Object.entries(init));
  return { all, getItem: (k) => all.get(k) ?? null, setItem: (k, v) => void all.set(k, v) };
}

describe("list search parameters", () => {
  it("keeps each parameter's meaningful values and drops the rest", () => {
    expect(normaliseParam("properties", "beds", "3")).toBe("3");
    expect(normaliseParam("properties", "beds", "03")).toBe("3");
    for (const bad of ["0", "6", "2.5", "-1", "", "x", "1e1"]) {
      expect(normaliseParam("properties", "beds", bad), bad).toBeNull();
    }
    expect(normaliseParam("properties", "baths", "4")).toBeNull();
    expect(normaliseParam("properties", "minRent", "1500.4")).toBe("1500");
    expect(normaliseParam("properties", "minRent", "-5")).toBeNull();
    expect(normaliseParam("properties", "maxRent", "Infinity")).toBeNull();
    expect(normaliseParam("properties", "pets", "birds")).toBeNull();
    expect(normaliseParam("properties", "availableBy", "2027-02-30")).toBeNull();
    expect(normaliseParam("properties", "availableBy", "2027-02-28")).toBe("2027-02-28");
    expect(normaliseParam("properties", "q", "  Main   St. ")).toBe("Main St.");
    expect(normaliseParam("properties", "q", " .,; ")).toBeNull();
    expect(normaliseParam("properties", "sort", "rent-asc")).toBe("rent-asc");
    // Newest is the default order: no parameter says it.
    expect(normaliseParam("properties", "sort", "newest")).toBeNull();
    expect(normaliseParam("newConstruction", "sort", "rent-asc")).toBeNull();
    expect(normaliseParam("newConstruction", "filter", "available")).toBeNull();
    expect(normaliseParam("properties", "page", "1")).toBeNull();
    expect(normaliseParam("properties", "page", "2")).toBe("2");
    expect(normaliseParam("properties", "constructor", "x")).toBeNull();
  });

  it("reads a search from a query and writes it back canonically", () => {
    const search = searchFromParams(
      "properties",
      q(
        "beds=2&baths=1&minRent=1000&maxRent=2500&pets=dogs&availableBy=2027-01-01&q=oak&sort=rent-desc&type=Vacation&available=true",
      ),
    );
    expect(search).toEqual({
      availableOnly: true,
      propertyType: "Vacation",
      beds: 2,
      baths: 1,
      minRent: 1000,
      maxRent: 2500,
      pets: "dogs",
      availableBy: "2027-01-01",
      q: "oak",
      sort: "rent-desc",
    });
    expect(searchToParams("properties", search).toString()).toBe(
      "available=true&type=Vacation&beds=2&baths=1&minRent=1000&maxRent=2500&pets=dogs&availableBy=2027-01-01&q=oak&sort=rent-desc",
    );
    expect(searchToParams("properties", NO_SEARCH).toString()).toBe("");
  });

  it("?filter=available turns available-only on and clears the type (docs/behaviour.md §4)", () => {
    expect(searchFromParams("properties", q("filter=available&type=Commercial"))).toMatchObject({
      availableOnly: true,
      propertyType: "",
    });
  });

  it("constructions take only type, bedrooms, words and order", () => {
    expect(
      searchFromParams(
        "newConstruction",
        q("beds=2&baths=2&minRent=1&pets=cats&available=true&q=x&sort=beds-desc"),
      ),
    ).toEqual({ ...NO_SEARCH, beds: 2, q: "x", sort: "beds-desc" });
  });
});

describe("stored searches", () => {
  it("the server adds the stored values a query does not state, each part as a whole", () => {
    const stored = q("available=true&type=Commercial&beds=3&pets=cats");
    // No query: everything stored.
    expect(mergeStoredSearch("properties", q(""), stored).toString()).toBe(
      "available=true&type=Commercial&beds=3&pets=cats",
    );
    // A link with a new filter replaces the stored new filters; the spec's part stays stored.
    expect(mergeStoredSearch("properties", q("baths=2"), stored).toString()).toBe(
      "available=true&type=Commercial&baths=2",
    );
    // ?filter=available: the spec's rule, and the stored new filters stay.
    expect(mergeStoredSearch("properties", q("filter=available"), stored).toString()).toBe(
      "available=true&beds=3&pets=cats",
    );
    // The page only ever comes from the query; odd stored values mean nothing.
    expect(mergeStoredSearch("properties", q("page=3"), q("beds=99&page=5")).toString()).toBe(
      "page=3",
    );
  });

  it("the browser stores what the URL states and restores the rest (the spec's keys kept)", () => {
    const storage = memoryStorage();
    const fromLink = resolveStoredSearch("properties", q("beds=2&sort=rent-asc"), storage);
    expect(fromLink).toMatchObject({ beds: 2, sort: "rent-asc", availableOnly: false });
    expect(storage.all.get("propertySearch")).toBe("beds=2&sort=rent-asc");
    expect(storage.all.get("filterAvailable")).toBe("false");
    expect(storage.all.get("selectedPropertyType")).toBe("");
    storeSearch(
      "properties",
      { ...fromLink, availableOnly: true, propertyType: "Vacation" },
      storage,
    );
    expect(storage.all.get("filterAvailable")).toBe("true");
    expect(storage.all.get("selectedPropertyType")).toBe("Vacation");
    const restored = resolveStoredSearch("properties", q(""), storage);
    expect(restored).toMatchObject({ availableOnly: true, propertyType: "Vacation", beds: 2 });
    // An unknown stored type is none.
    storage.setItem("selectedPropertyType", "Castle");
    expect(resolveStoredSearch("properties", q(""), storage).propertyType).toBe("");
  });
});

describe("the count line", () => {
  it("says how many match, in the list's own words", () => {
    expect(matchCount("properties", 1)).toBe("1 property");
    expect(matchCount("properties", 37)).toBe("37 properties");
    expect(matchCount("properties", 8000)).toBe("8,000 properties");
    expect(matchCount("newConstruction", 1)).toBe("1 listing");
    expect(matchCount("newConstruction", 0)).toBe("0 listings");
  });
});
