// Concurrency: writes to one listing that overlap in time. The interleavings that lost data are
// forced with a gated database (a statement held until another has run), so every run takes
// the same path; the outcome must hold whichever write the locks let go first.
import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listingKey } from "~/domain/listing";
import { COLLECTIONS, KINDS } from "~/domain/listing-kinds";
import { addedMessages } from "~/domain/messages";
import { DiskImageStore } from "~/features/images/storage.server";
import { finalErrorHandler } from "../../../server/error-handler";
import { dbTargets } from "../../../tests/support/db-targets";
import { type GatedDb, gatedDb } from "../../../tests/support/gated-db";
import { jpegWithGps } from "../../../tests/support/images";
import { storageProblems } from "../../../tests/support/storage-consistency";
import { createListingApi } from "./api.server";
import { getListingForEdit } from "./queries.server";

/** A read of one listing (plain, or locking). */
const READ_ONE = /FROM listings WHERE collection = \$1 AND id = \$2/;
const SET_IMAGES = /^\s*UPDATE listings SET image_urls/;
const SAVE_ALL = /^\s*UPDATE listings SET address/;
/** Long enough for a statement that can run to run; bounds the wait when locks forbid it. */
const HOLD_MS = 300;

/** An image store that can hold back storing photos (to place a write in between). */
class HeldStore extends DiskImageStore {
  beforeSave: Promise<unknown> | null = null;
  override async saveProcessed(...args: Parameters<DiskImageStore["saveProcessed"]>) {
    if (this.beforeSave) await this.beforeSave;
    return super.saveProcessed(...args);
  }
}

describe.each(dbTargets)("concurrent writes on $name", (target) => {
  let db: GatedDb;
  let cleanup: () => Promise<void>;
  let root: string;
  let store: HeldStore;
  let base: string;
  let stop: () => void;

  beforeAll(async () => {
    const opened = await target.open();
    cleanup = opened.cleanup;
    db = gatedDb(opened.db);
    root = await fs.mkdtemp(path.join(os.tmpdir(), "concurrency-test-"));
    store = new HeldStore(root);
    const app = express();
    app.use("/api", createListingApi({ db, images: store, guard: () => (_q, _s, next) => next() }));
    // The API\'s errors are answered by the app\'s one error handler, as in server/app.ts.
    app.use(finalErrorHandler);
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/listings`;
    stop = () => server.close();
  });
  afterAll(async () => {
    stop?.();
    await cleanup?.();
    await fs.rm(root, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await db.query("DELETE FROM listings");
    await fs.rm(root, { recursive: true, force: true });
  });

  const photoForm = async (count: number, data?: object) => {
    const form = new FormData();
    if (data) form.append("data", JSON.stringify(data));
    for (let i = 0; i < count; i++) {
      const bytes = await jpegWithGps(
        160 + i * 8,
        120,
        `#${(0x203040 + i * 0x111111).toString(16)}`,
      );
      form.append("images", new Blob([new Uint8Array(bytes)]), `p${i}.jpg`);
    }
    return form;
  };
  const fields = (address: string, description = "As added") => ({
    address,
    bedrooms: 3,
    bathrooms: 2,
    description,
    price: "2000",
    thumbnail_description: "Front",
    currently_available: true,
    property_type: "Residential",
  });

  async function seed(collection: (typeof COLLECTIONS)[number], address: string, photos: number) {
    const res = await fetch(`${base}/${collection}`, {
      method: "POST",
      body: await photoForm(photos, fields(address)),
    });
    expect(res.status).toBe(201);
    const id = listingKey(address);
    const listing = await getListingForEdit(db, collection, id);
    if (!listing) throw new Error("seed failed");
    return { id, url: `${base}/${collection}/${encodeURIComponent(id)}`, listing };
  }

  const removePhoto = (url: string, photo: string) =>
    fetch(`${url}/images`, {
      method: "DELETE",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: photo }),
    });
  const save = (url: string, body: object) =>
    fetch(url, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("two concurrent photo removals remove both photos; neither URL comes back", async () => {
    const { id, url, listing } = await seed("properties", "1 Two Removals Road", 3);
    const [p0, p1, p2] = listing.image_urls as [string, string, string];
    // The first removal's write waits until the second removal has read the listing.
    const firstRead = db.ran(READ_ONE);
    const secondRead = db.ran(READ_ONE);
    db.hold({ match: SET_IMAGES, until: secondRead, maxWaitMs: HOLD_MS });
    const first = removePhoto(url, p0);
    await firstRead;
    const second = removePhoto(url, p1);
    expect([(await first).status, (await second).status]).toEqual([200, 200]);

    const stored = await getListingForEdit(db, "properties", id);
    expect(stored?.image_urls).toEqual([p2]);
    expect(stored?.thumbnail_image_url).toBe(p2);
    for (const gone of [p0, p1]) expect(await store.exists(gone)).toBe(false);
    expect(await storageProblems(db, store)).toEqual([]);
  });

  it("the same photo removed twice at once: one removal, one clear 404, nothing else lost", async () => {
    const { id, url, listing } = await seed("properties", "2 Double Click Lane", 2);
    const [p0, p1] = listing.image_urls as [string, string];
    const firstRead = db.ran(READ_ONE);
    const secondRead = db.ran(READ_ONE);
    db.hold({ match: SET_IMAGES, until: secondRead, maxWaitMs: HOLD_MS });
    const first = removePhoto(url, p0);
    await firstRead;
    const second = removePhoto(url, p0);
    const answers = [await first, await second];
    expect(answers.map((r) => r.status)).toEqual([200, 404]);
    expect(await answers[1]?.json()).toMatchObject({
      ok: false,
      error: "That image is not part of this listing.",
    });
    expect((await getListingForEdit(db, "properties", id))?.image_urls).toEqual([p1]);
    expect(await storageProblems(db, store)).toEqual([]);
  });

  it("a save during an upload keeps the new photo and its files (and is applied or refused as stale)", async () => {
    const { id, url, listing } = await seed("properties", "3 Busy Street", 1);
    // The save reads before the upload's photos are appended, and writes after.
    const uploadRead = db.ran(READ_ONE); // the upload checks the listing exists before decoding
    const saveRead = db.ran(READ_ONE);
    const uploadAppended = db.ran(SET_IMAGES);
    db.hold({ match: SET_IMAGES, until: saveRead, maxWaitMs: HOLD_MS });
    db.hold({ match: SAVE_ALL, until: uploadAppended, maxWaitMs: HOLD_MS });
    const upload = fetch(`${url}/images`, { method: "POST", body: await photoForm(1) });
    await uploadRead;
    const saving = save(url, {
      ...fields("3 Busy Street", "Saved meanwhile"),
      image_urls: listing.image_urls,
      version: listing.version,
    });
    const [uploaded, saved] = [await upload, await saving];
    expect(uploaded.status).toBe(200);
    const added = ((await uploaded.json()) as { image_urls: string[] }).image_urls.at(-1) as string;

    const stored = await getListingForEdit(db, "properties", id);
    expect(stored?.image_urls).toEqual([...listing.image_urls, added]);
    expect(await store.exists(added)).toBe(true);
    if (saved.status === 200) expect(stored?.description).toBe("Saved meanwhile");
    else {
      expect(saved.status).toBe(409);
      expect(stored?.description).toBe("As added");
    }
    expect(await storageProblems(db, store)).toEqual([]);
  });

  it("a delete during an upload leaves no photo and no folder behind", async () => {
    const { id, url } = await seed("properties", "4 Gone Avenue", 0);
    // The upload stores its photos only after the listing was deleted meanwhile.
    let deleted = () => {};
    store.beforeSave = new Promise<void>((resolve) => {
      deleted = resolve;
    });
    const uploadRead = db.ran(READ_ONE);
    const upload = fetch(`${url}/images`, { method: "POST", body: await photoForm(2) });
    await uploadRead;
    expect((await fetch(url, { method: "DELETE" })).status).toBe(204);
    deleted();
    const answer = await upload;
    store.beforeSave = null;
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ ok: false, error: "Property not found." });
    expect(await getListingForEdit(db, "properties", id)).toBeNull();
    expect(await storageProblems(db, store)).toEqual([]);
  });

  it.each(COLLECTIONS)(
    "two staff editing one %s: the second, stale save is refused with 409 and overwrites nothing",
    async (collection) => {
      const { noun } = KINDS[collection];
      const { id, url, listing } = await seed(collection, "5 Shared Desk Road", 2);
      const opened = { image_urls: listing.image_urls, version: listing.version };
      const first = await save(url, { ...fields("5 Shared Desk Road", "First editor"), ...opened });
      expect(first.status).toBe(200);
      const second = await save(url, {
        ...fields("5 Shared Desk Road", "Second editor"),
        ...opened,
      });
      expect(second.status).toBe(409);
      expect(await second.json()).toMatchObject({
        ok: false,
        error: addedMessages.staleEdit(noun),
        code: "stale",
      });
      expect(addedMessages.staleEdit(noun)).toBe(
        `This ${noun.toLowerCase()} was changed by someone else since you opened it. Reload to see the changes.`,
      );
      const stored = await getListingForEdit(db, collection, id);
      expect(stored?.description).toBe("First editor");
      // After reloading (the current version) the second editor's save goes through.
      const again = await save(url, {
        ...fields("5 Shared Desk Road", "Second editor"),
        image_urls: stored?.image_urls,
        version: stored?.version,
      });
      expect(again.status).toBe(200);
      expect((await getListingForEdit(db, collection, id))?.description).toBe("Second editor");
      expect(await storageProblems(db, store)).toEqual([]);
    },
  );

  it("an editor's own photo changes move its version along; someone else's change does not", async () => {
    const { url, listing } = await seed("properties", "6 Own Changes Way", 2);
    const [p0] = listing.image_urls as [string, string];
    // This editor removes one photo and uploads another: each answer names the version it
    // was applied to, which is the editor's, so the editor moves on to the new one.
    const removed = (await (await removePhoto(url, p0)).json()) as Record<string, unknown>;
    expect(removed.previous_version).toBe(listing.version);
    const upload = await fetch(`${url}/images`, { method: "POST", body: await photoForm(1) });
    const uploaded = (await upload.json()) as { image_urls: string[]; version: number };
    expect(uploaded).toMatchObject({ previous_version: removed.version });
    const mine = await save(url, {
      ...fields("6 Own Changes Way", "Mine"),
      image_urls: [...uploaded.image_urls].reverse(),
      version: uploaded.version,
    });
    expect(mine.status).toBe(200);

    // Another editor, opened before a colleague's save, uploads: the answer is applied to a
    // newer version than theirs, so they keep their old one and their save is refused.
    const stale = await getListingForEdit(db, "properties", "6-own-changes-way");
    await save(url, {
      ...fields("6 Own Changes Way", "Colleague"),
      image_urls: stale?.image_urls,
      version: stale?.version,
    });
    const late = await fetch(`${url}/images`, { method: "POST", body: await photoForm(1) });
    const lateChange = (await late.json()) as { previous_version: number };
    expect(lateChange.previous_version).not.toBe(stale?.version);
  });
});
