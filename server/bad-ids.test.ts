// Ids that cannot name a record (NUL: PostgreSQL text cannot hold it) get the ordinary
// not-found answers on every route that takes an id, on both databases; never a 5xx.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COLLECTIONS, KINDS } from "~/domain/listing-kinds";
import { messages } from "~/domain/messages";
import { insertListing } from "~/features/listings/queries.server";
import { dbTargets } from "../tests/support/db-targets";
import { startTestApp, type TestApp } from "../tests/support/test-app";

const IMPOSSIBLE_IDS = ["%00", "a%00b", "%00..%2F..%2Fetc"];

describe.each(dbTargets)("ids that cannot exist, on $name", (target) => {
  let t: TestApp;
  let cleanup: () => Promise<void>;
  let admin = "";

  beforeAll(async () => {
    const opened = await target.open();
    cleanup = opened.cleanup;
    t = await startTestApp({ db: opened.db });
    admin = await t.signIn("boss@example.com", { admin: true });
    for (const collection of COLLECTIONS) {
      await insertListing(t.db, collection, "1-real-road", {
        address: "1 Real Road",
        bedrooms: 1,
        bathrooms: 1,
        description: "Still here",
        image_urls: [],
        thumbnail_description: "",
        property_type: "Residential",
        currently_available: collection === "properties" ? true : null,
        price: null,
        reserve_url: null,
      });
    }
  });
  afterAll(async () => {
    await t?.close();
    await cleanup?.();
  });

  const get = (path: string, cookie = "") =>
    fetch(`${t.base}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });

  it.each(COLLECTIONS)(
    "detail pages of %s answer 404 with the missing-record dialog",
    async (c) => {
      for (const id of IMPOSSIBLE_IDS) {
        const page = await get(`${KINDS[c].route}/${id}`);
        expect.soft(page.status, id).toBe(404);
        const html = await page.text();
        expect.soft(html, id).toContain(messages.noData);
        expect.soft(html, id).not.toContain(messages.loadFailed);
        // The data request the client router makes for the same page.
        expect.soft((await get(`${KINDS[c].route}/${id}.data`)).status, `${id}.data`).toBe(404);
      }
      expect((await get(`${KINDS[c].route}/1-real-road`)).status).toBe(200);
    },
  );

  it.each(COLLECTIONS)("edit pages of %s answer the admin the ordinary 404 page", async (c) => {
    for (const id of IMPOSSIBLE_IDS) {
      const page = await get(`${KINDS[c].editRoute}/${id}`, admin);
      expect.soft(page.status, id).toBe(404);
      expect.soft(await page.text(), id).toContain("Page not found");
    }
    expect((await get(`${KINDS[c].editRoute}/1-real-road`, admin)).status).toBe(200);
  });

  it.each(COLLECTIONS)(
    "API writes on %s answer 404 '… not found.' and change nothing",
    async (c) => {
      const before = await t.db.query("SELECT * FROM listings ORDER BY collection, id");
      const noun = KINDS[c].noun;
      const json = (method: string, body?: object) => ({
        method,
        headers: { cookie: admin, "content-type": "application/json" },
        body: body ? JSON.stringify(body) : undefined,
      });
      const images = () => {
        const form = new FormData();
        form.append("images", new Blob([new Uint8Array([1, 2, 3])]), "a.jpg");
        return { method: "POST", headers: { cookie: admin }, body: form };
      };
      for (const id of IMPOSSIBLE_IDS) {
        const calls: [string, RequestInit][] = [
          [
            `/api/listings/${c}/${id}`,
            json("PUT", { address: "1 Real Road", image_urls: [], property_type: "Residential" }),
          ],
          [`/api/listings/${c}/${id}`, json("DELETE")],
          [`/api/listings/${c}/${id}/images`, json("DELETE", { url: "/images/x/y.jpg" })],
          [`/api/listings/${c}/${id}/images`, images()],
        ];
        if (c === "properties") {
          calls.push([
            `/api/listings/properties/${id}/availability`,
            json("PATCH", { currently_available: false }),
          ]);
        }
        for (const [path, init] of calls) {
          const res = await fetch(`${t.base}${path}`, init);
          expect.soft(res.status, `${init.method} ${path}`).toBe(404);
          expect.soft(await res.json(), `${init.method} ${path}`).toMatchObject({
            ok: false,
            error: messages.notFoundOnDelete(noun),
          });
        }
      }
      expect(await t.db.query("SELECT * FROM listings ORDER BY collection, id")).toEqual(before);
    },
  );

  it("API: an id that is not valid percent-encoding is a clear 400, not a 500", async () => {
    for (const id of ["%FF", "%", "%E2%82"]) {
      const res = await fetch(`${t.base}/api/listings/properties/${id}`, {
        method: "DELETE",
        headers: { cookie: admin },
      });
      expect.soft(res.status, id).toBe(400);
      expect.soft((await res.json()).error, id).toMatch(/percent-encod/);
    }
  });
});
