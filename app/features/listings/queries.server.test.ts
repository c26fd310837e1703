import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listingKey } from "~/domain/listing";
import { type ListingChange, LiveHub } from "~/features/live/hub.server";
import type { Db } from "~/shared/db.server";
import { dbTargets } from "../../../tests/support/db-targets";
import {
  deleteListing,
  getListing,
  getListingForEdit,
  insertListing,
  type ListingInput,
  listingExists,
  listSummaries,
  setAvailability,
  setImages,
  updateListing,
} from "./queries.server";

const base: ListingInput = {
  address: "100 Test Lane",
  bedrooms: 3,
  bathrooms: 2.5,
  description: "Line one\nLine two",
  image_urls: [],
  thumbnail_description: "A test",
  property_type: "Residential",
  currently_available: true,
  price: "2500",
  reserve_url: null,
};

describe.each(dbTargets)("listing queries on $name", (target) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let anotherInstance: (() => Promise<Db>) | undefined;
  beforeAll(async () => {
    ({ db, cleanup, another: anotherInstance } = await target.open());
  });
  afterAll(async () => cleanup?.());

  it("creates, reads and lists a property with every field", async () => {
    const id = listingKey(base.address);
    expect(
      await insertListing(db, "properties", id, { ...base, image_urls: ["/a.jpg", "/b.jpg"] }),
    ).toBe(true);
    const row = await getListing(db, "properties", id);
    expect(row).toMatchObject({
      id: "100-test-lane",
      collection: "properties",
      bedrooms: 3,
      bathrooms: 2.5,
      image_urls: ["/a.jpg", "/b.jpg"],
      thumbnail_image_url: "/a.jpg",
      currently_available: true,
      price: "2500",
      property_type: "Residential",
    });
    const cards = await listSummaries(db, "properties");
    expect(cards.map((c) => c.id)).toContain(id);
    expect(cards[0]).not.toHaveProperty("description");
    // Cards show the price (docs/decisions/0047-listing-presentation-and-detail-layout.md).
    expect(cards.find((c) => c.id === id)?.price).toBe("2500");
  });

  it("refuses a second record with the same key and keeps the first", async () => {
    const id = listingKey(base.address);
    expect(await insertListing(db, "properties", id, { ...base, price: "9999" })).toBe(false);
    expect((await getListing(db, "properties", id))?.price).toBe("2500");
    expect(await listingExists(db, "properties", id)).toBe(true);
    expect(await listingExists(db, "newConstruction", id)).toBe(false);
  });

  it("keeps the two collections apart under the same key", async () => {
    const id = listingKey(base.address);
    const construction = { ...base, currently_available: null, price: null };
    expect(await insertListing(db, "newConstruction", id, construction)).toBe(true);
    expect((await listSummaries(db, "newConstruction")).map((c) => c.collection)).toEqual([
      "newConstruction",
    ]);
    expect((await listSummaries(db)).length).toBe(2);
  });

  it("rejects offer fields on a construction", async () => {
    const construction = { ...base, address: "x", currently_available: null, price: null };
    // Each offer field alone is refused by the table's check, and nothing is stored.
    for (const offer of [
      { currently_available: true },
      { currently_available: false },
      { price: "2500" },
      { reserve_url: "https://example.com/reserve" },
    ]) {
      const refused = await insertListing(db, "newConstruction", "x", {
        ...construction,
        ...offer,
      }).then(
        () => null,
        (error: { code?: string; message?: string }) => error,
      );
      expect(refused, JSON.stringify(offer)).toMatchObject({
        code: "23514", // check_violation
        message: expect.stringMatching(/violates check constraint "listings_check"/),
      });
      expect(await listingExists(db, "newConstruction", "x")).toBe(false);
    }
    // Without them the same construction is stored (the refusal was for the offer fields).
    expect(await insertListing(db, "newConstruction", "x", construction)).toBe(true);
    expect(await listingExists(db, "newConstruction", "x")).toBe(true);
    await deleteListing(db, "newConstruction", "x");
  });

  it("updates availability, images (thumbnail = first) and the full record", async () => {
    const id = listingKey(base.address);
    expect(await setAvailability(db, id, false)).toBe(true);
    expect((await getListing(db, "properties", id))?.currently_available).toBe(false);
    await setImages(db, "properties", id, ["/b.jpg", "/a.jpg"]);
    expect((await getListing(db, "properties", id))?.thumbnail_image_url).toBe("/b.jpg");
    await setImages(db, "properties", id, []);
    expect((await getListing(db, "properties", id))?.thumbnail_image_url).toBeNull();
    const before = (await getListingForEdit(db, "properties", id))?.version ?? 0;
    expect(
      await updateListing(db, "properties", id, {
        ...base,
        property_type: "Vacation",
        reserve_url: "https://r.example",
      }),
    ).toBe(before + 1);
    expect(await getListing(db, "properties", id)).toMatchObject({
      property_type: "Vacation",
      reserve_url: "https://r.example",
    });
    expect(await updateListing(db, "properties", "missing", base)).toBeNull();
  });

  it("bumps the version at every change of a row, whoever makes it", async () => {
    const id = listingKey(base.address);
    const version = async () => (await getListingForEdit(db, "properties", id))?.version;
    const start = (await version()) ?? 0;
    expect(start).toBeGreaterThanOrEqual(1);
    await setAvailability(db, id, true);
    expect(await version()).toBe(start + 1);
    expect(await setImages(db, "properties", id, ["/c.jpg"])).toBe(start + 2);
    // A change from outside the app (psql, a script) counts too.
    await db.query("UPDATE listings SET description = 'by hand' WHERE id = $1", [id]);
    expect(await version()).toBe(start + 3);
    // Public reads do not carry it (pages stay as small as they were).
    expect(await getListing(db, "properties", id)).not.toHaveProperty("version");
  });

  it("rolls back a failed transaction completely", async () => {
    await expect(
      db.transaction(async (tx) => {
        await insertListing(tx, "properties", "tx-test", { ...base, address: "tx test" });
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await listingExists(db, "properties", "tx-test")).toBe(false);
  });

  it("announces every write on the live channel", async () => {
    const hub = await LiveHub.start(db);
    const seen: ListingChange[] = [];
    hub.subscribe((c) => seen.push(c));
    await insertListing(db, "properties", "live-test", { ...base, address: "live test" });
    await setAvailability(db, "live-test", true);
    await deleteListing(db, "properties", "live-test");
    await expect
      .poll(() => seen.filter((c) => c.id === "live-test").map((c) => c.op))
      .toEqual(["insert", "update", "delete"]);
    await hub.close();
  });

  // Several server instances on one PostgreSQL stay in step: a write through one instance's
  // connections reaches the live hub (and so the page cache and browsers) of another.
  // Only PostgreSQL has other instances (PGlite is one process's own): defined there only, so
  // no run reports it skipped.
  const onPostgres = target.name === "postgres" ? it : undefined;
  onPostgres?.("announces a write made by another server instance", async () => {
    const other = await anotherInstance?.();
    if (!other) throw new Error("this target has no second instance");
    const hub = await LiveHub.start(db);
    const seen: ListingChange[] = [];
    hub.subscribe((c) => seen.push(c));
    await insertListing(other, "properties", "other-instance", {
      ...base,
      address: "other instance",
    });
    await expect
      .poll(() => seen.filter((c) => c.id === "other-instance").map((c) => c.op))
      .toEqual(["insert"]);
    expect(await listingExists(db, "properties", "other-instance")).toBe(true);
    await deleteListing(other, "properties", "other-instance");
    await hub.close();
  });

  it("deletes a record", async () => {
    expect(await deleteListing(db, "properties", listingKey(base.address))).toBe(true);
    expect(await deleteListing(db, "properties", listingKey(base.address))).toBe(false);
  });
});
