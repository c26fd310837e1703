// Featured listings through the whole app on each database (docs/behaviour.md §19): the
// defaults by exact address, featuring and removing, the staff's order, deletion, refusals.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import { listingKey } from "~/domain/listing";
import type { Collection } from "~/domain/listing-kinds";
import { insertListing } from "~/features/listings/queries.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { startTestApp, type TestApp } from "../../../tests/support/test-app";
import { editableOf } from "./editable";
import { featuredEntries } from "./featured.server";
import { readStoredContent } from "./settings.server";

const [A, B, C] = company.featuredAddresses as [string, string, string];

for (const target of dbTargets) {
  describe(`featured listings (${target.name})`, () => {
    let app: TestApp;
    let cleanup: () => Promise<void>;
    let admin = "";

    const add = (collection: Collection, address: string) =>
      insertListing(app.db, collection, listingKey(address), {
        address,
        bedrooms: 3,
        bathrooms: 2,
        description: "",
        image_urls: [],
        thumbnail_description: `card of ${address}`,
        property_type: "Residential",
        currently_available: collection === "properties" ? true : null,
        price: null,
        reserve_url: null,
      });

    beforeAll(async () => {
      const opened = await target.open();
      cleanup = opened.cleanup;
      app = await startTestApp({ db: opened.db });
      admin = await app.signIn("office@example.com", { admin: true });
      await add("properties", "1 Other Road");
      await add("properties", B);
      await add("properties", A);
      await add("newConstruction", C);
      // Not the featured address: the trailing space is missing.
      await add("newConstruction", C.trimEnd());
    });
    afterAll(async () => {
      await app?.close();
      await cleanup?.();
    });

    const call = (method: string, url: string, body?: unknown) =>
      fetch(app.base + url, {
        method,
        headers: { cookie: admin, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const homeCards = async () => {
      const html = await (await fetch(`${app.base}/`)).text();
      return [...html.matchAll(/class="card-title">([^<]*)</g)].map((m) => m[1]);
    };
    const addresses = async () => (await featuredEntries(app.db)).map((e) => e.address);

    it("features the three default addresses exactly, in their order, on a fresh install", async () => {
      expect(await addresses()).toEqual([A, B, C]);
      expect(await homeCards()).toEqual([A, B, C]);
      expect(await readStoredContent(app.db)).toEqual({});
    });

    it("features another listing at the end, and removes one", async () => {
      const res = await call("PUT", "/api/listings/properties/1-other-road/featured", {
        featured: true,
      });
      expect(res.status).toBe(200);
      expect(await homeCards()).toEqual([A, B, C, "1 Other Road"]);
      await call("PUT", `/api/listings/properties/${listingKey(B)}/featured`, { featured: false });
      expect(await homeCards()).toEqual([A, C, "1 Other Road"]);
      // Featuring twice keeps one entry.
      await call("PUT", "/api/listings/properties/1-other-road/featured", { featured: true });
      expect(await addresses()).toEqual([A, C, "1 Other Road"]);
    });

    it("takes the staff's order from the settings page", async () => {
      const body = new FormData();
      const order = [
        { collection: "properties", id: "1-other-road" },
        { collection: "newConstruction", id: listingKey(C) },
        // No longer featured: ignored.
        { collection: "properties", id: listingKey(B) },
      ];
      body.append("data", JSON.stringify({ ...editableOf(company), featured: order }));
      const res = await fetch(`${app.base}/api/site`, {
        method: "PUT",
        body,
        headers: { cookie: admin },
      });
      expect(res.status).toBe(200);
      expect(await homeCards()).toEqual(["1 Other Road", C, A]);
    });

    it("refuses bad requests with a 4xx and changes nothing", async () => {
      const before = await readStoredContent(app.db);
      const bad = await call("PUT", "/api/listings/properties/1-other-road/featured", {
        featured: "yes",
      });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: string }).error).toBe(
        "featured must be true or false.",
      );
      const missing = await call("PUT", "/api/listings/properties/nowhere/featured", {
        featured: true,
      });
      expect(missing.status).toBe(404);
      expect(((await missing.json()) as { error: string }).error).toBe("Property not found.");
      const badOrder = new FormData();
      badOrder.append(
        "data",
        JSON.stringify({ ...editableOf(company), featured: [{ collection: "x", id: "y" }] }),
      );
      const refused = await fetch(`${app.base}/api/site`, {
        method: "PUT",
        body: badOrder,
        headers: { cookie: admin },
      });
      expect(refused.status).toBe(400);
      expect(await readStoredContent(app.db)).toEqual(before);
    });

    it("drops a deleted listing from the list, and a new listing at its address is not featured", async () => {
      expect((await call("DELETE", "/api/listings/properties/1-other-road")).status).toBe(204);
      // (A listing write drops kept pages when its NOTIFY arrives: on PostgreSQL a moment later.)
      await expect.poll(homeCards).toEqual([C, A]);
      const stored = await readStoredContent(app.db);
      expect(stored.featured).toEqual([
        { collection: "newConstruction", id: listingKey(C) },
        { collection: "properties", id: listingKey(A) },
      ]);
      // /properties kept without the address: once it lists the new listing, the kept pages
      // were dropped after the add, so the home page below is rendered after it (not a kept
      // page from before, which would show [C, A] whatever the add did).
      const listed = async () =>
        (await (await fetch(`${app.base}/properties`)).text()).includes("1 Other Road");
      expect(await listed()).toBe(false);
      await add("properties", "1 Other Road");
      await expect.poll(listed, { message: "/properties lists the new listing" }).toBe(true);
      expect(await homeCards()).toEqual([C, A]);
      expect((await readStoredContent(app.db)).featured).toEqual(stored.featured);
    });
  });
}
