import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listingKey } from "~/domain/listing";
import { NO_SEARCH, PAGE_SIZE } from "~/domain/listing-search";
import type { Db } from "~/shared/db.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { insertListing, type ListingInput } from "./queries.server";
import { searchListings } from "./search.server";

const base: ListingInput = {
  address: "",
  bedrooms: null,
  bathrooms: null,
  description: "",
  image_urls: [],
  thumbnail_description: "",
  property_type: "Residential",
  currently_available: true,
  price: null,
  reserve_url: null,
};

describe.each(dbTargets)("list search in SQL on $name", (target) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  const add = async (
    fields: Partial<ListingInput> & { address: string },
    collection: "properties" | "newConstruction" = "properties",
  ) => {
    expect(
      await insertListing(db, collection, listingKey(fields.address), { ...base, ...fields }),
    ).toBe(true);
  };
  const addresses = async (search: Partial<typeof NO_SEARCH>, page = 1) =>
    (await searchListings(db, "properties", { ...NO_SEARCH, ...search }, page)).items.map(
      (i) => i.address,
    );

  beforeAll(async () => {
    ({ db, cleanup } = await target.open());
    await add({
      address: "1 Oak St",
      bedrooms: 1,
      bathrooms: 1,
      price: "1200",
      pets: "cats",
      city: "Arlington",
      zip: "22201",
      description: "Sunny studio near the park",
    });
    await add({
      address: "2 Oak St",
      bedrooms: 3,
      bathrooms: 2.5,
      price: "2400.50",
      pets: "cats-and-dogs",
      available_from: "2027-03-01",
      description: "Fenced yard",
    });
    await add({
      address: "3 Elm St",
      bedrooms: 4,
      bathrooms: 3,
      price: "Call for pricing",
      pets: "none",
      currently_available: false,
      available_from: "2027-01-15",
      property_type: "Commercial",
    });
    await add({
      address: "4 Elm St",
      bedrooms: 2,
      bathrooms: 1,
      price: "1800",
      pets: "dogs",
      currently_available: false,
      city: "Fairfax",
    });
    await add(
      { address: "9 Construction Way", bedrooms: 5, currently_available: null },
      "newConstruction",
    );
    // Distinct creation times, a day apart in the order added (inserts may share a clock tick).
    await db.query(
      `UPDATE listings SET created_at = now() - make_interval(days => 10 - (
         CASE id WHEN '1-oak-st' THEN 1 WHEN '2-oak-st' THEN 2 WHEN '3-elm-st' THEN 3 ELSE 4 END))`,
    );
  });
  afterAll(async () => cleanup?.());

  it("filters by each control, and only this kind", async () => {
    expect(await addresses({})).toHaveLength(4);
    expect((await addresses({ beds: 3 })).sort()).toEqual(["2 Oak St", "3 Elm St"]);
    expect((await addresses({ baths: 2 })).sort()).toEqual(["2 Oak St", "3 Elm St"]);
    expect((await addresses({ availableOnly: true })).sort()).toEqual(["1 Oak St", "2 Oak St"]);
    expect(await addresses({ propertyType: "Commercial" })).toEqual(["3 Elm St"]);
    // A price that is not purely digits is no rent: left out by any rent filter.
    expect((await addresses({ minRent: 1 })).sort()).toEqual(["1 Oak St", "2 Oak St", "4 Elm St"]);
    expect((await addresses({ minRent: 1500, maxRent: 2400 })).sort()).toEqual(["4 Elm St"]);
    expect((await addresses({ maxRent: 2401 })).sort()).toEqual([
      "1 Oak St",
      "2 Oak St",
      "4 Elm St",
    ]);
    expect((await addresses({ maxRent: 2400 })).sort()).toEqual(["1 Oak St", "4 Elm St"]);
    expect((await addresses({ pets: "cats" })).sort()).toEqual(["1 Oak St", "2 Oak St"]);
    expect((await addresses({ pets: "dogs" })).sort()).toEqual(["2 Oak St", "4 Elm St"]);
    // Available by: the date, or now when currently available without one.
    expect((await addresses({ availableBy: "2027-02-01" })).sort()).toEqual([
      "1 Oak St",
      "3 Elm St",
    ]);
    expect(await addresses({ q: "arlington" })).toEqual(["1 Oak St"]);
    expect(await addresses({ q: "22201" })).toEqual(["1 Oak St"]);
    expect(await addresses({ q: "fen" })).toEqual(["2 Oak St"]);
    expect(await addresses({ q: "oak sunny" })).toEqual(["1 Oak St"]);
    expect(await addresses({ q: "oak zebra" })).toEqual([]);
    // Words are matched as words, whatever punctuation they come with.
    expect((await addresses({ q: "oak! & | :* (st" })).sort()).toEqual(["1 Oak St", "2 Oak St"]);
  });

  it("orders as asked, equal values by id, listings without the value last", async () => {
    expect(await addresses({ sort: "rent-asc" })).toEqual([
      "1 Oak St",
      "4 Elm St",
      "2 Oak St",
      "3 Elm St",
    ]);
    expect(await addresses({ sort: "rent-desc" })).toEqual([
      "2 Oak St",
      "4 Elm St",
      "1 Oak St",
      "3 Elm St",
    ]);
    expect(await addresses({ sort: "beds-desc" })).toEqual([
      "3 Elm St",
      "2 Oak St",
      "4 Elm St",
      "1 Oak St",
    ]);
    expect(await addresses({ sort: "available-soonest" })).toEqual([
      "1 Oak St",
      "3 Elm St",
      "2 Oak St",
      "4 Elm St",
    ]);
    expect(await addresses({ sort: "newest" })).toEqual([
      "4 Elm St",
      "3 Elm St",
      "2 Oak St",
      "1 Oak St",
    ]);
  });

  it("pages of PAGE_SIZE in a stable order, with the total", async () => {
    for (let i = 0; i < PAGE_SIZE + 3; i++) {
      await add({ address: `${100 + i} Paging Rd`, description: "paging", bedrooms: 2 });
    }
    const first = await searchListings(db, "properties", { ...NO_SEARCH, q: "paging" }, 1);
    const second = await searchListings(db, "properties", { ...NO_SEARCH, q: "paging" }, 2);
    const beyond = await searchListings(db, "properties", { ...NO_SEARCH, q: "paging" }, 5);
    expect(first.items).toHaveLength(PAGE_SIZE);
    expect(second.items).toHaveLength(3);
    expect(first.total).toBe(PAGE_SIZE + 3);
    expect(second.total).toBe(PAGE_SIZE + 3);
    expect(beyond).toMatchObject({ items: [], total: PAGE_SIZE + 3 });
    const all = [...first.items, ...second.items].map((i) => i.id);
    expect(new Set(all).size).toBe(PAGE_SIZE + 3);
  });
});
