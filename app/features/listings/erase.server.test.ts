// 'Erase for good' through the whole app on each database and image store (docs/behaviour.md
// §21, §22, decision 0053): every copy and variant of the photos is gone from the disk or from
// both buckets, nothing names them any more, only admins may do it, and one audit line says so.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiskImageStore, type ImageStore } from "~/features/images/index.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { imageStoreTargets, stopSharedS3 } from "../../../tests/support/image-store-targets";
import { jpegWithGps } from "../../../tests/support/images";
import { captureLogs, LEVEL } from "../../../tests/support/logs";
import { startTestApp, type TestApp } from "../../../tests/support/test-app";
import { listDeleted, namedPhotos } from "./deleted.server";
import { listHistory } from "./history.server";
import { getListingForEdit } from "./queries.server";

afterAll(stopSharedS3);

const combinations = dbTargets.flatMap((db) =>
  imageStoreTargets.map((storage) => ({ name: `${db.name} + ${storage.name}`, db, storage })),
);

/** The file name of a photo URL without its extension: every variant's key contains it. */
const stem = (url: string) => (url.split("/").pop() ?? "").replace(/\.jpg$/, "");

for (const { name, db: target, storage } of combinations) {
  describe(`erase for good (${name})`, () => {
    let app: TestApp<ImageStore>;
    let cleanup: () => Promise<void>;
    let cleanupStore: (() => Promise<void>) | undefined;
    let everything: () => Promise<string[]>;
    let admin = "";
    let member = "";
    let logs: ReturnType<typeof captureLogs>;

    beforeAll(async () => {
      // (Before the app: its loggers are children of the logger of then.)
      logs = captureLogs("info");
      const opened = await target.open();
      cleanup = opened.cleanup;
      const store = await storage.open();
      cleanupStore = store.cleanup;
      everything = store.everything;
      app = await startTestApp({ db: opened.db, images: store.images });
      admin = await app.signIn("erin@example.com", { admin: true });
      member = await app.signIn("member@example.com");
    });
    afterAll(async () => {
      logs.restore();
      await app?.close();
      await cleanup?.();
      await cleanupStore?.();
    });

    const call = (cookie: string, method: string, url: string, body?: unknown) =>
      fetch(`${app.base}${url}`, {
        method,
        headers: {
          cookie,
          ...(body instanceof FormData ? {} : { "content-type": "application/json" }),
        },
        body:
          body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
      });
    const api = (method: string, url: string, body?: unknown) =>
      call(admin, method, `/api${url}`, body);
    const listing = () => getListingForEdit(app.db, "properties", "3-erase-lane");
    const historyPage = async () => {
      const res = await call(admin, "GET", "/properties/3-erase-lane/history");
      expect(res.status).toBe(200);
      return res.text();
    };
    const preview = (url: string) =>
      `/api/listings/properties/3-erase-lane/history/photo?url=${encodeURIComponent(url)}`;
    let kept = "";
    let removed = "";

    it("keeps a removed photo private and shows it to staff on the history page", async () => {
      const add = new FormData();
      add.append("data", JSON.stringify({ address: "3 Erase Lane", price: "900" }));
      for (const color of ["#aa0000", "#0000aa"]) {
        add.append("images", new Blob([new Uint8Array(await jpegWithGps(60, 40, color))]), "p.jpg");
      }
      expect((await api("POST", "/listings/properties", add)).status).toBe(201);
      const v = await listing();
      if (!v) throw new Error("not stored");
      [kept, removed] = v.image_urls as [string, string];
      const captioned = await api("PUT", "/listings/properties/3-erase-lane", {
        address: "3 Erase Lane",
        price: "900",
        image_urls: [kept, removed],
        image_captions: { [removed]: "Old kitchen" },
        version: v.version,
      });
      expect(captioned.status).toBe(200);
      const res = await api("DELETE", "/listings/properties/3-erase-lane/images", { url: removed });
      expect(res.status).toBe(200);
      expect((await fetch(app.base + removed)).status).toBe(404);
      const trashUrl = `/images/.trash/${removed.slice("/images/".length)}`;
      expect((await fetch(app.base + trashUrl)).status).toBe(404);
      // Kept in the trash (with its variants) for the history.
      const copies = (await everything()).filter((key) => key.includes(stem(removed)));
      expect(copies.length).toBeGreaterThan(1);
      expect(copies.every((key) => key.startsWith(".trash/"))).toBe(true);
      const html = await historyPage();
      expect(html).toContain("Photos only the history keeps");
      expect(html).toContain("Erase for good: Old kitchen");
      const photo = await call(admin, "GET", preview(removed));
      expect(photo.status).toBe(200);
      expect(photo.headers.get("content-type")).toBe("image/jpeg");
      expect(photo.headers.get("cache-control")).toBe("private, no-store");
      expect((await photo.arrayBuffer()).byteLength).toBeGreaterThan(100);
      // Only photos this listing's history names, never a photo on the listing.
      expect((await call(admin, "GET", preview(kept))).status).toBe(404);
      expect((await call(admin, "GET", preview("/images/../../etc/passwd"))).status).toBe(404);
    });

    it("refuses non-admins: 404, nothing erased", async () => {
      for (const [cookie, status] of [
        ["", 401],
        [member, 403],
      ] as const) {
        const erase = await call(
          cookie,
          "DELETE",
          "/api/listings/properties/3-erase-lane/history/photos",
          {
            url: removed,
          },
        );
        expect(erase.status).toBe(status);
        expect((await call(cookie, "GET", preview(removed))).status).toBe(status);
        expect((await call(cookie, "DELETE", "/api/deleted/1")).status).toBe(status);
      }
      expect(
        (await everything()).filter((key) => key.includes(stem(removed))).length,
      ).toBeGreaterThan(1);
      expect((await namedPhotos(app.db)).has(removed)).toBe(true);
    });

    it("refuses bad requests clearly, changing nothing", async () => {
      const path = "/listings/properties/3-erase-lane/history/photos";
      expect((await api("DELETE", path, {})).status).toBe(400);
      expect((await api("DELETE", path, { url: 7 })).status).toBe(400);
      const onListing = await api("DELETE", path, { url: kept });
      expect(onListing.status).toBe(409);
      expect(((await onListing.json()) as { error: string }).error).toMatch(
        /still part of the listing/,
      );
      expect((await fetch(app.base + kept)).status).toBe(200);
      expect(
        (await api("DELETE", path, { url: "/images/properties/3-erase-lane/image_1_0.jpg" }))
          .status,
      ).toBe(404);
      expect(
        (await api("DELETE", "/listings/properties/4-nowhere/history/photos", { url: removed }))
          .status,
      ).toBe(404);
      expect((await api("DELETE", "/deleted/abc")).status).toBe(404);
      expect((await api("DELETE", "/deleted/999999")).status).toBe(404);
      expect((await namedPhotos(app.db)).has(removed)).toBe(true);
    });

    it("erases a history-only photo: every copy and variant, every mention, one audit line", async () => {
      logs.clear();
      const res = await api("DELETE", "/listings/properties/3-erase-lane/history/photos", {
        url: removed,
      });
      expect(res.status).toBe(204);
      expect((await everything()).filter((key) => key.includes(stem(removed)))).toEqual([]);
      expect((await namedPhotos(app.db)).has(removed)).toBe(false);
      const rows = await app.db.query<{ text: string }>(
        "SELECT COALESCE(before::text, '') || after::text AS text FROM listing_history WHERE id = '3-erase-lane'",
      );
      expect(
        rows.filter((r) => r.text.includes(stem(removed)) || r.text.includes("Old kitchen")),
      ).toEqual([]);
      const history = await listHistory(app.db, "properties", "3-erase-lane");
      expect(history[0]?.action).toBe("photo-erased");
      expect(history[0]?.changes).toEqual([{ photos: "erased", count: 1 }]);
      expect(history[0]?.by_email).toBe("erin@example.com");
      const events = logs.lines.filter((l) => l.event === "photo erased");
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ who: "erin@example.com", url: removed, level: LEVEL.info });
      const html = await historyPage();
      expect(html).not.toContain("Photos only the history keeps");
      expect(html).toContain("1 photo erased for good");
      expect((await call(admin, "GET", preview(removed))).status).toBe(404);
      // Again: nothing names it any more.
      expect(
        (await api("DELETE", "/listings/properties/3-erase-lane/history/photos", { url: removed }))
          .status,
      ).toBe(404);
      // The version that had it restores without it; the other photo is untouched.
      const added = history.find((h) => h.action === "added");
      expect(added?.after.image_urls).toEqual([kept]);
      expect(
        (await api("POST", `/listings/properties/3-erase-lane/history/${added?.seq}/restore`))
          .status,
      ).toBe(204);
      expect((await listing())?.image_urls).toEqual([kept]);
      expect((await fetch(app.base + kept)).status).toBe(200);
    });

    it("erases a listing in Recently deleted: the entry, its history and every copy", async () => {
      expect((await api("DELETE", "/listings/properties/3-erase-lane")).status).toBe(204);
      const trashed = (await everything()).filter((key) => key.includes(stem(kept)));
      expect(trashed.length).toBeGreaterThan(1);
      expect(trashed.every((key) => key.startsWith(".trash/"))).toBe(true);
      const [entry] = await listDeleted(app.db);
      logs.clear();
      expect((await api("DELETE", `/deleted/${entry?.entry}`)).status).toBe(204);
      expect((await everything()).filter((key) => key.includes("3-erase-lane"))).toEqual([]);
      expect(await listDeleted(app.db)).toEqual([]);
      expect(await listHistory(app.db, "properties", "3-erase-lane")).toEqual([]);
      expect((await namedPhotos(app.db)).has(kept)).toBe(false);
      const events = logs.lines.filter((l) => l.event === "listing erased");
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ who: "erin@example.com", id: "3-erase-lane", photos: 1 });
      expect((await api("DELETE", `/deleted/${entry?.entry}`)).status).toBe(404);
      expect((await api("POST", `/deleted/${entry?.entry}/restore`)).status).toBe(404);
    });
  });
}

// A store that breaks off after deleting the variants (a bucket gone away mid-way): the erase is
// refused with a 5xx, the history still names the photo, and it can still be restored.
class FailingPurgeStore extends DiskImageStore {
  async purge(urls: string[]) {
    // The variants' files (public or trashed) go; then the store fails before the original.
    const variants = urls.flatMap((url) => this.filesOf(url).slice(1));
    for (const file of variants) {
      await fs.rm(file, { force: true });
      await fs.rm(path.join(this.root, ".trash", path.relative(this.root, file)), { force: true });
    }
    throw new Error("storage went away");
  }
}

describe("erase for good when the store fails", () => {
  let app: TestApp<FailingPurgeStore>;
  let root = "";
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), "erase-fail-"));
    app = await startTestApp({ images: new FailingPurgeStore(root) });
  });
  afterAll(async () => {
    await app?.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  it("leaves the history, the photo and its restore as they were", async () => {
    const admin = await app.signIn("fay@example.com", { admin: true });
    const call = (method: string, url: string, body?: unknown) =>
      fetch(`${app.base}/api${url}`, {
        method,
        headers: {
          cookie: admin,
          ...(body instanceof FormData ? {} : { "content-type": "application/json" }),
        },
        body:
          body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
      });
    const add = new FormData();
    add.append("data", JSON.stringify({ address: "6 Sturdy Street" }));
    add.append("images", new Blob([new Uint8Array(await jpegWithGps(60, 40))]), "p.jpg");
    expect((await call("POST", "/listings/properties", add)).status).toBe(201);
    const [photo = ""] =
      (await getListingForEdit(app.db, "properties", "6-sturdy-street"))?.image_urls ?? [];
    expect(
      (await call("DELETE", "/listings/properties/6-sturdy-street/images", { url: photo })).status,
    ).toBe(200);
    const before = await listHistory(app.db, "properties", "6-sturdy-street");

    const res = await call("DELETE", "/listings/properties/6-sturdy-street/history/photos", {
      url: photo,
    });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: string }).error).toBe(
      "Something went wrong on the server.",
    );
    expect(await listHistory(app.db, "properties", "6-sturdy-street")).toEqual(before);
    expect((await namedPhotos(app.db)).has(photo)).toBe(true);
    const added = before.find((h) => h.action === "added");
    expect(
      (await call("POST", `/listings/properties/6-sturdy-street/history/${added?.seq}/restore`))
        .status,
    ).toBe(204);
    expect((await fetch(app.base + photo)).status).toBe(200);
  });
});
