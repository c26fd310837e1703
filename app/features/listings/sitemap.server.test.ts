// The sitemap's reads on both databases: the count the index is built from, and each file's
// listings in a stable order (properties first, then by id), paged.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "~/shared/db.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { propertyInput } from "../../../tests/support/listing-input";
import { insertListing } from "./queries.server";
import { countListings, sitemapListings } from "./sitemap.server";

for (const target of dbTargets) {
  describe(`sitemap reads (${target.name})`, () => {
    let db: Db;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ db, cleanup } = await target.open());
    });
    afterAll(async () => cleanup?.());

    it("counts every listing of both kinds and pages them in a stable order", async () => {
      expect(await countListings(db)).toBe(0);
      await insertListing(db, "properties", "b-street", propertyInput("2 B Street"));
      await insertListing(
        db,
        "newConstruction",
        "a-build",
        propertyInput("1 A Build", { currently_available: null, price: null }),
      );
      await insertListing(db, "properties", "a-street", propertyInput("1 A Street"));
      expect(await countListings(db)).toBe(3);
      const all = await sitemapListings(db, { offset: 0, limit: 10 });
      expect(all.map((l) => `${l.collection}/${l.id}`)).toEqual([
        "properties/a-street",
        "properties/b-street",
        "newConstruction/a-build",
      ]);
      expect(all[0]?.address).toBe("1 A Street");
      const second = await sitemapListings(db, { offset: 1, limit: 1 });
      expect(second.map((l) => l.id)).toEqual(["b-street"]);
    });
  });
}
