// Uploads under pressure: streamed to temporary files (never held in memory), cut off at the
// first limit with a clear 413, cleaned up on every path, and decoded a few at a time.
import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHARP_SLOTS } from "~/features/images/sharp-queue.server";
import type { ImageStore } from "~/features/images/storage.server";
import { type Db, openDb } from "~/shared/db.server";
import { finalErrorHandler } from "../../../server/error-handler";
import {
  imageStoreTargets,
  type OpenedStore,
  stopSharedS3,
} from "../../../tests/support/image-store-targets";
import { jpegWithGps } from "../../../tests/support/images";
import { streamingUpload } from "../../../tests/support/streaming-upload";
import { createListingApi } from "./api.server";
import { insertListing } from "./queries.server";

const MB = 1024 * 1024;

afterAll(stopSharedS3);

describe.each(imageStoreTargets)("uploads to the $name store", (target) => {
  let db: Db;
  let opened: OpenedStore;
  let store: ImageStore;
  let port: number;
  let stop: () => void;
  const imagesPath = "/api/listings/properties/1-upload-lane/images";

  beforeAll(async () => {
    db = await openDb({ dataDir: "memory://" });
    opened = await target.open();
    store = opened.images;
    await insertListing(db, "properties", "1-upload-lane", {
      address: "1 Upload Lane",
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
    port = (server.address() as AddressInfo).port;
    stop = () => {
      server.closeAllConnections();
      server.close();
    };
  });
  afterAll(async () => {
    stop?.();
    await db?.close();
    await opened?.cleanup();
  });

  /** Files in the image store's temporary folder (local, under the data directory). */
  const tempFiles = async () =>
    (await fs.readdir(store.tempDir, { withFileTypes: true }).catch(() => []))
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name));
  const noTempFiles = () => expect.poll(tempFiles, { timeout: 5_000 }).toEqual([]);

  it("answers a photo over 25 MB with a clear 413 as soon as the limit is passed, reading no further", async () => {
    const result = await streamingUpload({ port, path: imagesPath, fileSize: 100 * MB });
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({
      ok: false,
      error: "big.jpg is larger than 25 MB.",
    });
    // The client could send only what the server read, plus what the kernel buffers hold.
    expect(result.sent).toBeLessThan(60 * MB);
    await noTempFiles();
  });

  it("answers a body declared larger than the per-request cap before reading any of it", async () => {
    const result = await streamingUpload({
      port,
      path: imagesPath,
      fileSize: 400 * MB,
      declaredLength: 400 * MB,
    });
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({
      error: "The upload is larger than 300 MB in total. Send fewer images at once.",
    });
    expect(result.sent).toBeLessThan(30 * MB);
    await noTempFiles();
  });

  it("streams the body into a temporary file under the data directory, deleted afterwards", async () => {
    // Half-way through sending, the bytes so far are on disk (not in memory).
    let seen = 0;
    const onDisk = expect
      .poll(
        async () => {
          const sizes = await Promise.all(
            (await tempFiles()).map(async (f) => (await fs.stat(f).catch(() => null))?.size ?? 0),
          );
          seen = Math.max(0, ...sizes);
          return seen;
        },
        { timeout: 5_000 },
      )
      .toBeGreaterThanOrEqual(2 * MB);
    const result = await streamingUpload({
      port,
      path: imagesPath,
      fileSize: 4 * MB,
      holdAt: { bytes: 3 * MB, until: onDisk },
    });
    await onDisk;
    expect(seen).toBeGreaterThanOrEqual(2 * MB);
    expect(result.status).toBe(400);
    expect(JSON.parse(result.body)).toMatchObject({
      error: "The file is not an image this site can read.",
    });
    await noTempFiles();
  });

  it("deletes the temporary files on every path: stored, refused, cut off, abandoned", async () => {
    const form = new FormData();
    form.append("images", new Blob([new Uint8Array(await jpegWithGps(120, 90))]), "ok.jpg");
    const stored = await fetch(`http://127.0.0.1:${port}${imagesPath}`, {
      method: "POST",
      body: form,
    });
    expect(stored.status).toBe(200);
    await noTempFiles();

    const abandoned = await streamingUpload({
      port,
      path: imagesPath,
      fileSize: 8 * MB,
      abortAt: 2 * MB,
    });
    expect(abandoned.status).toBe(0);
    await noTempFiles();
  });

  it("decodes at most one image per core at a time, however many arrive at once", async () => {
    // Counts sharp operations in flight, whoever starts them.
    const proto = Object.getPrototypeOf(sharp()) as Record<string, (...a: unknown[]) => unknown>;
    let active = 0;
    let peak = 0;
    const originals: [string, (...a: unknown[]) => unknown][] = [];
    for (const name of ["toBuffer", "metadata"]) {
      const original = proto[name] as (...a: unknown[]) => Promise<unknown>;
      originals.push([name, original]);
      proto[name] = function (this: unknown, ...args: unknown[]) {
        active++;
        peak = Math.max(peak, active);
        return original.apply(this, args).finally(() => {
          active--;
        });
      };
    }
    try {
      const photo = await jpegWithGps(900, 600);
      const send = () => {
        const form = new FormData();
        for (let i = 0; i < 2; i++) {
          form.append("images", new Blob([new Uint8Array(photo)]), `p${i}.jpg`);
        }
        return fetch(`http://127.0.0.1:${port}${imagesPath}`, { method: "POST", body: form });
      };
      const answers = await Promise.all([send(), send(), send()]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    } finally {
      for (const [name, original] of originals) proto[name] = original;
    }
    // Six photos at once keep every slot busy: the peak is the limit, never more. (The limit
    // is at most the thread pool less two, so at most 2 with the default pool of 4, on any
    // number of cores: a bound by the core count alone could not fail on a large machine.)
    expect(SHARP_SLOTS).toBeLessThanOrEqual(os.availableParallelism());
    expect(peak).toBe(SHARP_SLOTS);
  });
});
