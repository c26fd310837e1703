// Photos are answered with the same URLs and headers from either store: the disk's files are
// sent, the bucket's objects streamed through (docs/decisions/0038-object-storage.md).
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImageStore } from "~/features/images/storage.server";
import {
  imageStoreTargets,
  type OpenedStore,
  stopSharedS3,
} from "../tests/support/image-store-targets";
import { photoFiles } from "./static-files";

afterAll(stopSharedS3);

describe.each(imageStoreTargets)("photos served from the $name store", (target) => {
  let opened: OpenedStore;
  let images: ImageStore;
  let server: http.Server;
  let base: string;
  let url: string;
  const bytes = Buffer.from("jpeg-bytes of a photo");

  beforeAll(async () => {
    opened = await target.open();
    images = opened.images;
    url = await images.save("properties", "12-main-st", "image_1700000000000_0.jpg", bytes);
    await images.saveVariant(url, 400, "webp", Buffer.from("webp-400"));
    server = express().use(photoFiles(images)).listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.close();
    await opened?.cleanup();
  });

  it("answers an original with its bytes, type and year-long immutable caching", async () => {
    const res = await fetch(base + url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("content-length")).toBe(String(bytes.length));
    expect(res.headers.get("last-modified")).toBeTruthy();
  });

  it("answers a variant as WebP, and a variant never made with the original for a day", async () => {
    const webp = await fetch(base + url.replace(/\.jpg$/, ".w400.webp"));
    expect([webp.status, webp.headers.get("content-type"), await webp.text()]).toEqual([
      200,
      "image/webp",
      "webp-400",
    ]);
    const fallback = await fetch(base + url.replace(/\.jpg$/, ".w800.webp"));
    expect(fallback.status).toBe(200);
    expect(fallback.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(Buffer.from(await fallback.arrayBuffer())).toEqual(bytes);
  });

  it("answers a revalidation with 304 and HEAD without a body", async () => {
    const first = await fetch(base + url);
    await first.arrayBuffer();
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    // (Not fetch(): with a conditional header it adds `Cache-Control: no-cache`, as browsers do.)
    const status = await new Promise<number | undefined>((resolve, reject) => {
      http
        .get(base + url, { headers: { "if-none-match": etag as string } }, (res) => {
          res.resume();
          resolve(res.statusCode);
        })
        .on("error", reject);
    });
    expect(status).toBe(304);
    const head = await fetch(base + url, { method: "HEAD" });
    expect([head.status, await head.text()]).toEqual([200, ""]);
    expect(head.headers.get("content-length")).toBe(String(bytes.length));
  });

  it("answers one byte range with 206, an unsatisfiable one with 416, a stale If-Range whole", async () => {
    const part = await fetch(base + url, { headers: { range: "bytes=5-9" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 5-9/${bytes.length}`);
    expect(part.headers.get("content-length")).toBe("5");
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(5, 10));
    const tail = await fetch(base + url, { headers: { range: "bytes=-4" } });
    expect([tail.status, await tail.text()]).toEqual([206, "hoto"]);
    const beyond = await fetch(base + url, { headers: { range: `bytes=${bytes.length}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${bytes.length}`);
    await beyond.arrayBuffer();
    const stale = await fetch(base + url, {
      headers: { range: "bytes=0-1", "if-range": '"another-version"' },
    });
    expect(stale.status).toBe(200);
    expect(Buffer.from(await stale.arrayBuffer())).toEqual(bytes);
    expect(part.headers.get("accept-ranges")).toBe("bytes");
  });

  it.each([
    "/images/properties/12-main-st/image_1700000000000_9.jpg",
    "/images/properties/..%2F12-main-st/image_1700000000000_0.jpg",
    "/images/elsewhere/12-main-st/image_1700000000000_0.jpg",
    "/images/properties/12-main-st/notes.txt",
  ])("answers 404 for %s", async (path) => {
    const res = await fetch(base + path);
    expect([res.status, await res.text()]).toEqual([404, "Not Found"]);
  });

  it("refuses writes", async () => {
    expect((await fetch(base + url, { method: "PUT", body: "x" })).status).toBe(404);
  });
});
