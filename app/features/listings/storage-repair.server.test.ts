// What a crash leaves in the image folders, put right by the repair (run at every start).
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DiskImageStore } from "~/features/images/storage.server";
import { type Db, openDb } from "~/shared/db.server";
import {
  imageStoreTargets,
  type OpenedStore,
  stopSharedS3,
} from "../../../tests/support/image-store-targets";
import { jpegWithGps } from "../../../tests/support/images";
import { storageProblems } from "../../../tests/support/storage-consistency";
import type { ListingFields } from "./listing-input.server";
import { ListingWrites } from "./listing-writes.server";
import { deleteListing, getListing, setImages } from "./queries.server";
import { REPAIR_TIMING, repairAtStart, repairImageStorage } from "./storage-repair.server";

const fields: ListingFields = {
  address: "1 Crash Close",
  bedrooms: 2,
  bathrooms: 1,
  description: "",
  thumbnail_description: "",
  property_type: "Residential",
  currently_available: true,
  price: null,
  reserve_url: null,
};

describe("image store repair", () => {
  let db: Db;
  let root: string;
  let store: DiskImageStore;
  let writes: ListingWrites;
  let photos: string[];
  const id = "1-crash-close";

  beforeAll(async () => {
    db = await openDb({ dataDir: "memory://" });
    root = await fs.mkdtemp(path.join(os.tmpdir(), "repair-test-"));
    store = new DiskImageStore(path.join(root, "images"));
    writes = new ListingWrites(db, store);
    photos = [];
    for (const color of ["#aa0000", "#00aa00"]) {
      const file = path.join(root, `upload-${photos.length}`);
      await fs.writeFile(file, await jpegWithGps(80, 60, color));
      photos.push(file);
    }
  });
  afterAll(async () => {
    await db?.close();
    await fs.rm(root, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await db.query("DELETE FROM listings");
    await fs.rm(store.root, { recursive: true, force: true });
    await writes.add("properties", fields, photos);
    // These cases are about records and files alone: no history names the photos (photos the
    // history names are kept in the trash; see the last case).
    await db.query("DELETE FROM listing_history");
  });

  const urls = async () => (await getListing(db, "properties", id))?.image_urls ?? [];
  const repair = () => repairImageStorage(db, store, { exclusive: true });

  it("restores a listing's folder staged for removal when the record was not deleted", async () => {
    await store.stageRemoval([store.folder("properties", id)]); // then the process died
    expect(await storageProblems(db, store)).not.toEqual([]);
    const report = await repair();
    expect(report.restored).toEqual([store.folder("properties", id)]);
    expect(await storageProblems(db, store)).toEqual([]);
  });

  it("restores a folder staged the old way ({folder}.removing-{pid}-{time})", async () => {
    const folder = store.folder("properties", id);
    await fs.rename(folder, `${folder}.removing-4242-1700000000000`);
    await repair();
    expect(await storageProblems(db, store)).toEqual([]);
    expect(await fs.readdir(path.join(store.root, "properties"))).toEqual([path.basename(folder)]);
  });

  it("finishes a staged removal whose record is gone", async () => {
    await store.stageRemoval([store.folder("properties", id)]);
    await deleteListing(db, "properties", id); // the delete committed, then the process died
    const report = await repair();
    expect(report.finished).toEqual([store.folder("properties", id)]);
    expect(await fs.readdir(path.join(store.root, "properties"))).toEqual([]);
  });

  it("restores or finishes a staged photo removal by what the record says", async () => {
    const [first, second] = (await urls()) as [string, string];
    await store.stageRemoval(store.filesOf(first)); // died before the record changed
    await store.stageRemoval(store.filesOf(second));
    await setImages(db, "properties", id, [first]); // ...this one after
    const report = await repair();
    expect(report.restored).toHaveLength(9);
    expect(report.finished).toHaveLength(9);
    expect(await store.exists(first)).toBe(true);
    expect(await store.exists(second)).toBe(false);
    expect(await storageProblems(db, store)).toEqual([]);
  });

  it("deletes temporary files, old and new style", async () => {
    await fs.mkdir(store.tempDir, { recursive: true });
    await fs.writeFile(path.join(store.tempDir, "upload-x.tmp"), "half an upload");
    const folder = store.folder("properties", id);
    await fs.writeFile(path.join(folder, "image_9_0.jpg.1234.tmp"), "half a photo");
    await fs.writeFile(path.join(folder, "image_9_0.w400.webp.tmp"), "half a variant");
    const report = await repair();
    expect(report.temporaryRemoved).toBe(3);
    expect(await storageProblems(db, store)).toEqual([]);
  });

  it("reports photo files no record names, and deletes them once past the grace period", async () => {
    const [first] = (await urls()) as [string];
    await setImages(db, "properties", id, (await urls()).slice(1)); // record lost the photo
    const young = await repair();
    expect(young.orphans).toHaveLength(9);
    expect(young.orphansRemoved).toEqual([]);
    expect(await store.exists(first)).toBe(true);

    const later = Date.now() + REPAIR_TIMING.orphanGraceMs + 1000;
    const old = await repairImageStorage(db, store, { exclusive: true, now: later });
    expect(old.orphansRemoved).toHaveLength(9);
    expect(await store.exists(first)).toBe(false);
    expect(await storageProblems(db, store)).toEqual([]);
  });

  it("leaves a shared store's fresh leftovers to their owner (another server may be at work)", async () => {
    await store.stageRemoval([store.folder("properties", id)]);
    await fs.mkdir(store.tempDir, { recursive: true });
    await fs.writeFile(path.join(store.tempDir, "upload-y.tmp"), "being uploaded");
    const shared = await repairImageStorage(db, store, { exclusive: false });
    expect([shared.restored, shared.temporaryRemoved]).toEqual([[], 0]);
    const later = Date.now() + REPAIR_TIMING.sharedInFlightMs + 1000;
    const after = await repairImageStorage(db, store, { exclusive: false, now: later });
    expect([after.restored.length, after.temporaryRemoved]).toEqual([1, 1]);
    expect(await storageProblems(db, store)).toEqual([]);
  });

  it("runs at start, before anything is served (startServices awaits it)", async () => {
    await store.stageRemoval([store.folder("properties", id)]);
    await fs.mkdir(store.tempDir, { recursive: true });
    await fs.writeFile(path.join(store.tempDir, "upload-z.tmp"), "half");
    await repairAtStart(db, store, { exclusive: true });
    expect(await storageProblems(db, store)).toEqual([]);
  });

  it("deletes nothing when the records look wrong (an empty or another database)", async () => {
    const [first] = (await urls()) as [string];
    // (An empty or another database names no photo anywhere, history included.)
    for (const table of ["listings", "listing_history", "deleted_listings"]) {
      await db.query(`DELETE FROM ${table}`);
    }
    const later = Date.now() + REPAIR_TIMING.orphanGraceMs + 1000;
    const report = await repairImageStorage(db, store, { exclusive: true, now: later });
    expect(report.orphanDeletionWithheld).toBe(true);
    expect(report.orphans).toHaveLength(18);
    expect(report.orphansRemoved).toEqual([]);
    expect(await store.exists(first)).toBe(true);
  });
  it("puts back a live photo a crash left in the trash, and trashes a history photo left in place", async () => {
    const [first, second] = (await urls()) as [string, string];
    await store.moveToTrash([first]); // moved, then the process died before the record changed
    expect(await store.exists(first)).toBe(false);
    await repair();
    expect(await store.exists(first)).toBe(true);
    // A photo only the history names, left in its folder (a restore that died half-way).
    await writes.removeImage("properties", id, second);
    await store.restoreFromTrash([second]);
    expect(await store.exists(second)).toBe(true);
    const report = await repair();
    expect(report.orphans).toEqual([]);
    expect(await store.exists(second)).toBe(false);
    expect((await store.restoreFromTrash([second])).missing).toEqual([]);
  });
});

afterAll(stopSharedS3);

// The checks every backend must pass: on a bucket nothing is staged (objects are deleted once
// the record changed), so a crash leaves at most objects no record names, removed after the
// grace period under the same rule for suspect records (docs/decisions/0038-object-storage.md).
describe.each(imageStoreTargets)("image store repair on the $name store", (target) => {
  let db: Db;
  let opened: OpenedStore;
  let writes: ListingWrites;
  let photos: string[];
  let fixtures: string;
  const id = "1-crash-close";
  const later = () => Date.now() + REPAIR_TIMING.orphanGraceMs + 1000;

  beforeAll(async () => {
    db = await openDb({ dataDir: "memory://" });
    opened = await target.open();
    fixtures = await fs.mkdtemp(path.join(os.tmpdir(), "repair-fixtures-"));
    writes = new ListingWrites(db, opened.images);
    photos = [];
    for (const color of ["#aa0000", "#00aa00"]) {
      // (Not in the store's temporary folder: the repair empties that.)
      const file = path.join(fixtures, `photo-${photos.length}.jpg`);
      await fs.writeFile(file, await jpegWithGps(80, 60, color));
      photos.push(file);
    }
  });
  afterAll(async () => {
    await db?.close();
    await opened?.cleanup();
    await fs.rm(fixtures, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await db.query("DELETE FROM listings");
    await opened.clear();
    await writes.add("properties", fields, photos);
  });

  const urls = async () => (await getListing(db, "properties", id))?.image_urls ?? [];

  it("keeps the store consistent through adds and removals", async () => {
    const [first] = (await urls()) as [string];
    await writes.removeImage("properties", id, first);
    expect(await opened.images.exists(first)).toBe(false);
    expect(await storageProblems(db, opened.images)).toEqual([]);
    await writes.remove("properties", id);
    // Only the trash is left: the photos Recently deleted restores (docs/behaviour.md §22).
    const left = await opened.everything();
    expect(left.filter((f) => !f.startsWith(".trash"))).toEqual([]);
    expect(left.length).toBeGreaterThan(0);
  });

  it("removes photos a crash left without a record, once past the grace period", async () => {
    // An add cut short: its photos were stored, its record never written.
    const orphanUrl = await opened.images.save(
      "properties",
      "2-lost-lane",
      "image_1700000000000_0.jpg",
      Buffer.from("a photo"),
    );
    const young = await repairImageStorage(db, opened.images, { exclusive: true });
    expect(young.orphans).toEqual([opened.images.filesOf(orphanUrl)[0]]);
    expect(young.orphansRemoved).toEqual([]);
    expect(await opened.images.exists(orphanUrl)).toBe(true);
    const old = await repairImageStorage(db, opened.images, { exclusive: true, now: later() });
    expect(old.orphansRemoved).toHaveLength(1);
    expect(await opened.images.exists(orphanUrl)).toBe(false);
    expect(await storageProblems(db, opened.images)).toEqual([]);
  });

  it("removes a deleted listing's photos when the process died right after the delete", async () => {
    await writes.add("properties", { ...fields, address: "3 Other Road" }, photos);
    const removal = await opened.images.stageRemoval([opened.images.folder("properties", id)]);
    await deleteListing(db, "properties", id); // committed, then the process died
    void removal;
    const report = await repairImageStorage(db, opened.images, { exclusive: true, now: later() });
    expect(report.orphanDeletionWithheld).toBe(false);
    expect(await storageProblems(db, opened.images)).toEqual([]);
    // Out of public reach; what the history still names waits in the trash (§21).
    expect(
      (await opened.everything()).filter((f) => f.includes(id) && !f.startsWith(".trash")),
    ).toEqual([]);
  });

  it("deletes nothing when the records look wrong (an empty or another database)", async () => {
    const [first] = (await urls()) as [string];
    for (const table of ["listings", "listing_history", "deleted_listings"]) {
      await db.query(`DELETE FROM ${table}`);
    }
    const report = await repairImageStorage(db, opened.images, { exclusive: true, now: later() });
    expect(report.orphanDeletionWithheld).toBe(true);
    expect(report.orphans).toHaveLength(18);
    expect(report.orphansRemoved).toEqual([]);
    expect(await opened.images.exists(first)).toBe(true);
  });

  it("deletes temporary upload files at start, and leaves a shared store's fresh ones", async () => {
    const temp = await opened.images.tempPath("upload");
    await fs.writeFile(temp, "half an upload");
    const shared = await repairImageStorage(db, opened.images, { exclusive: false });
    expect(shared.temporaryRemoved).toBe(0);
    await repairAtStart(db, opened.images, { exclusive: true });
    await expect(fs.access(temp)).rejects.toThrow();
  });
});
