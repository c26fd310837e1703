// Change history and Recently deleted through the whole app on each database (docs/behaviour.md
// §21, §22): entries in the change's transaction, 'Restore this version' with photos from the
// trash, the duplicate-address refusal, delete → restore with the same id and photos, purge.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "~/domain/messages";
import type { ImageStore } from "~/features/images/index.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { imageStoreTargets, stopSharedS3 } from "../../../tests/support/image-store-targets";
import { jpegWithGps } from "../../../tests/support/images";
import { startTestApp, type TestApp } from "../../../tests/support/test-app";
import { listDeleted, namedPhotos, purgeExpired } from "./deleted.server";
import { listHistory } from "./history.server";
import { RETENTION_MS } from "./listing-writes.server";
import { getListingForEdit } from "./queries.server";

afterAll(stopSharedS3);

// On each database and each image store: the trash is a folder on disk, a prefix in a bucket.
const combinations = dbTargets.flatMap((db) =>
  imageStoreTargets.map((storage) => ({ name: `${db.name} + ${storage.name}`, db, storage })),
);

for (const { name, db: target, storage } of combinations) {
  describe(`history and recently deleted (${name})`, () => {
    let app: TestApp<ImageStore>;
    let cleanup: () => Promise<void>;
    let cleanupStore: (() => Promise<void>) | undefined;
    let admin = "";

    beforeAll(async () => {
      const opened = await target.open();
      cleanup = opened.cleanup;
      const store = await storage.open();
      cleanupStore = store.cleanup;
      app = await startTestApp({ db: opened.db, images: store.images });
      admin = await app.signIn("ada@example.com", { admin: true });
    });
    afterAll(async () => {
      await app?.close();
      await cleanup?.();
      await cleanupStore?.();
    });

    const api = (method: string, url: string, body?: unknown) =>
      fetch(`${app.base}/api${url}`, {
        method,
        headers: {
          cookie: admin,
          ...(body instanceof FormData ? {} : { "content-type": "application/json" }),
        },
        body:
          body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
      });
    const photo = async (color: string) => {
      const body = new FormData();
      body.append("images", new Blob([new Uint8Array(await jpegWithGps(60, 40, color))]), "p.jpg");
      return body;
    };
    const current = () => getListingForEdit(app.db, "properties", "7-history-street");
    const status = async (url: string) => (await fetch(app.base + url)).status;

    it("records every change with who, when and what, newest first", async () => {
      const add = new FormData();
      add.append("data", JSON.stringify({ address: "7 History Street", price: "1000" }));
      add.append("images", (await photo("#aa0000")).get("images") as Blob, "a.jpg");
      expect((await api("POST", "/listings/properties", add)).status).toBe(201);
      expect(
        (await api("POST", "/listings/properties/7-history-street/images", await photo("#00aa00")))
          .status,
      ).toBe(200);
      const v = await current();
      if (!v) throw new Error("not stored");
      const [a, b] = v.image_urls as [string, string];
      const save = await api("PUT", "/listings/properties/7-history-street", {
        address: "7 History Street",
        price: "1200",
        currently_available: true,
        image_urls: [b, a],
        image_captions: { [a]: "Porch" },
        version: v.version,
      });
      expect(save.status).toBe(200);
      expect(
        (await api("DELETE", "/listings/properties/7-history-street/images", { url: b })).status,
      ).toBe(200);
      const history = await listHistory(app.db, "properties", "7-history-street");
      expect(history.map((h) => h.action)).toEqual([
        "photo-removed",
        "saved",
        "photos-added",
        "added",
      ]);
      expect(history[0]?.by_email).toBe("ada@example.com");
      expect(history[1]?.changes).toEqual(
        expect.arrayContaining([
          { field: "price", before: "1000", after: "1200" },
          { field: "currently_available", before: false, after: true },
          { photos: "reordered" },
          { caption: 2, before: "", after: "Porch" },
        ]),
      );
      expect(history[0]?.changes).toEqual([{ photos: "removed", count: 1 }]);
      // The removed photo is out of public reach but kept (named by the history).
      expect(await status(b)).toBe(404);
      expect((await namedPhotos(app.db)).has(b)).toBe(true);
      // The history page: admins only.
      const page = await fetch(`${app.base}/properties/7-history-street/history`, {
        headers: { cookie: admin },
      });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("Restore this version");
      const member = await app.signIn("member@example.com");
      for (const cookie of ["", member]) {
        const res = await fetch(`${app.base}/properties/7-history-street/history`, {
          headers: { cookie },
        });
        expect(res.status).toBe(404);
      }
    });

    it("restores a version with its fields and photos, as a new entry", async () => {
      const history = await listHistory(app.db, "properties", "7-history-street");
      const saved = history.find((h) => h.action === "saved");
      const res = await api(
        "POST",
        `/listings/properties/7-history-street/history/${saved?.seq}/restore`,
      );
      expect(res.status).toBe(204);
      const now = await current();
      expect(now?.image_urls).toEqual(saved?.after.image_urls);
      expect(now?.price).toBe("1200");
      for (const url of now?.image_urls ?? []) expect(await status(url)).toBe(200);
      const again = await listHistory(app.db, "properties", "7-history-street");
      expect(again[0]?.action).toBe("restored");
      // From the state after the photo removal (price 1200, photo a with its caption) back to
      // the saved version: only photo b comes back, in front of a; nothing else differs.
      expect(again[0]?.changes).toEqual([{ photos: "added", count: 1 }]);
      expect(again[0]?.after.image_urls).toEqual(saved?.after.image_urls);
      expect(again.length).toBe(history.length + 1);
      // Back to the first version: the second photo goes to the trash again.
      const added = again.find((h) => h.action === "added");
      expect(
        (await api("POST", `/listings/properties/7-history-street/history/${added?.seq}/restore`))
          .status,
      ).toBe(204);
      const first = await current();
      expect(first?.image_urls).toEqual(added?.after.image_urls);
      expect(first?.price).toBe("1000");
      const latest = await listHistory(app.db, "properties", "7-history-street");
      expect(latest[0]?.action).toBe("restored");
      expect(latest[0]?.changes).toHaveLength(4);
      expect(latest[0]?.changes).toEqual(
        expect.arrayContaining([
          { field: "price", before: "1200", after: "1000" },
          { field: "currently_available", before: true, after: false },
          { photos: "removed", count: 1 },
          { caption: 1, before: "Porch", after: "" },
        ]),
      );
    });

    it("refuses a restore onto an address another listing has, and unknown versions", async () => {
      const other = new FormData();
      other.append("data", JSON.stringify({ address: "9 Taken Road" }));
      expect((await api("POST", "/listings/properties", other)).status).toBe(201);
      const before = await current();
      // Rename 7 History Street to 9 Taken Road's address by a save (allowed), then to 8, and
      // try to restore the version named like 9 Taken Road: refused.
      const renamed = await api("PUT", "/listings/properties/7-history-street", {
        address: "8 Renamed Road",
        image_urls: before?.image_urls,
        version: before?.version,
      });
      expect(renamed.status).toBe(200);
      await app.db.query(
        "UPDATE listings SET address = '7 History Street' WHERE id = '9-taken-road'",
      );
      const history = await listHistory(app.db, "properties", "7-history-street");
      const old = history.find((h) => h.after.address === "7 History Street");
      const snapshot = await current();
      const res = await api(
        "POST",
        `/listings/properties/7-history-street/history/${old?.seq}/restore`,
      );
      expect(res.status).toBe(409);
      expect(((await res.json()) as { error: string }).error).toBe(
        messages.duplicateAddress("Property"),
      );
      expect(await current()).toEqual(snapshot);
      expect(
        (await api("POST", "/listings/properties/7-history-street/history/999999/restore")).status,
      ).toBe(404);
      await app.db.query("DELETE FROM listings WHERE id = '9-taken-road'");
    });

    it("moves a deleted listing to Recently deleted and restores it with the same id and photos", async () => {
      const before = await current();
      expect((await api("DELETE", "/listings/properties/7-history-street")).status).toBe(204);
      expect(await current()).toBeNull();
      for (const url of before?.image_urls ?? []) expect(await status(url)).toBe(404);
      expect(await status("/properties/7-history-street")).toBe(404);
      const [entry] = await listDeleted(app.db);
      expect(entry?.address).toBe("8 Renamed Road");
      const page = await fetch(`${app.base}/admin/deleted`, { headers: { cookie: admin } });
      expect(await page.text()).toContain("8 Renamed Road");
      const res = await api("POST", `/deleted/${entry?.entry}/restore`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ collection: "properties", id: "7-history-street" });
      const back = await current();
      expect(back?.image_urls).toEqual(before?.image_urls);
      expect(back?.address).toBe("8 Renamed Road");
      for (const url of back?.image_urls ?? []) expect(await status(url)).toBe(200);
      expect(await listDeleted(app.db)).toEqual([]);
      expect((await listHistory(app.db, "properties", "7-history-street"))[0]?.action).toBe(
        "undeleted",
      );
    });

    it("refuses to restore a deleted listing whose address was reused, changing nothing", async () => {
      expect((await api("DELETE", "/listings/properties/7-history-street")).status).toBe(204);
      const reuse = new FormData();
      reuse.append("data", JSON.stringify({ address: "8 Renamed Road" }));
      expect((await api("POST", "/listings/properties", reuse)).status).toBe(201);
      const [entry] = await listDeleted(app.db);
      const res = await api("POST", `/deleted/${entry?.entry}/restore`);
      expect(res.status).toBe(409);
      expect(((await res.json()) as { error: string }).error).toBe(
        messages.duplicateAddress("Property"),
      );
      expect(await listDeleted(app.db)).toHaveLength(1);
      expect(await current()).toBeNull();
      expect((await api("POST", "/deleted/999999/restore")).status).toBe(404);
    });

    it("purges after 30 days: the entry, its history and its photos", async () => {
      const [entry] = await listDeleted(app.db);
      const [row] = await app.db.query<{ record: { image_urls: string[] } }>(
        "SELECT record FROM deleted_listings WHERE entry = $1",
        [entry?.entry],
      );
      const urls = row?.record.image_urls ?? [];
      expect(urls.length).toBeGreaterThan(0);
      const trashFiles = async () =>
        (await app.images.keys()).filter((key) => key.startsWith(".trash/"));
      expect((await trashFiles()).length).toBeGreaterThan(0);
      expect(await purgeExpired(app.db, app.images, Date.now())).toBe(0);
      expect(await purgeExpired(app.db, app.images, Date.now() + RETENTION_MS + 1000)).toBe(1);
      expect(await listDeleted(app.db, Date.now())).toEqual([]);
      expect(await listHistory(app.db, "properties", "7-history-street")).toEqual([]);
      expect(await trashFiles()).toEqual([]);
    });
  });
}
