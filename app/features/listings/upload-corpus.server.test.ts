// The upload corpus (tests/support/upload-corpus.ts) through the real write API: each file is
// refused with a clear message and changes nothing, or stored re-encoded as a clean JPEG.
import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiskImageStore } from "~/features/images/storage.server";
import { type Db, openDb } from "~/shared/db.server";
import { finalErrorHandler } from "../../../server/error-handler";
import { POLYGLOT_MARKER, uploadCorpus } from "../../../tests/support/upload-corpus";
import { createListingApi } from "./api.server";
import { getListing, insertListing } from "./queries.server";

describe("upload corpus", () => {
  let db: Db;
  let root: string;
  let store: DiskImageStore;
  let base: string;
  let stop: () => void;

  beforeAll(async () => {
    db = await openDb({ dataDir: "memory://" });
    root = await fs.mkdtemp(path.join(os.tmpdir(), "corpus-test-"));
    store = new DiskImageStore(root);
    await insertListing(db, "properties", "1-corpus-court", {
      address: "1 Corpus Court",
      bedrooms: 1,
      bathrooms: 1,
      description: "",
      image_urls: [],
      thumbnail_description: "",
      property_type: "Residential",
      currently_available: true,
      price: null,
      reserve_url: null,
    });
    const app = express();
    app.use("/api", createListingApi({ db, images: store, guard: () => (_q, _s, next) => next() }));
    // The API\'s errors are answered by the app\'s one error handler, as in server/app.ts.
    app.use(finalErrorHandler);
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/listings/properties/1-corpus-court/images`;
    stop = () => server.close();
  });
  afterAll(async () => {
    stop?.();
    await db?.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  const photoFiles = async () =>
    (await fs.readdir(root, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name))
      .sort();

  it.each(uploadCorpus)("$name", async ({ fileName, bytes, expect: outcome }) => {
    const input = await bytes();
    const before = await getListing(db, "properties", "1-corpus-court");
    const filesBefore = await photoFiles();
    const form = new FormData();
    form.append("images", new Blob([new Uint8Array(input)], { type: "image/jpeg" }), fileName);
    const res = await fetch(base, { method: "POST", body: form });
    const answer = (await res.json()) as { error?: string; image_urls?: string[] };

    if (outcome !== "stored") {
      expect(res.status).toBe(400);
      expect(answer.error).toMatch(outcome);
      expect(await getListing(db, "properties", "1-corpus-court")).toEqual(before);
      expect(await photoFiles()).toEqual(filesBefore);
      return;
    }
    expect(res.status, answer.error).toBe(200);
    const url = answer.image_urls?.at(-1) as string;
    const files = store.filesOf(url);
    expect(files).toHaveLength(9);
    for (const file of files) {
      const stored = await fs.readFile(file);
      const meta = await sharp(stored).metadata();
      expect([meta.exif, meta.icc, meta.iptc, meta.xmp], file).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
      expect(meta.space, file).toBe("srgb");
      expect(meta.channels, file).toBe(3);
      expect(meta.depth, file).toBe("uchar");
      expect(meta.pages ?? 1, file).toBe(1);
      // Nothing of the upload's own bytes survives re-encoding (no HTML, no GPS tag name).
      expect(stored.includes(POLYGLOT_MARKER), file).toBe(false);
      expect(stored.includes("GPS"), file).toBe(false);
    }
    const original = await sharp(files[0]).metadata();
    expect([original.format, original.width, original.height]).toEqual(["jpeg", 64, 48]);
  });
});
