// Stored photos over HTTP: only our photo names inside the storage root are ever served.
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiskImageStore } from "~/features/images/storage.server";
import { photoFiles } from "./static-files";

/** A GET sent exactly as written (no normalisation of `..` or `%2F`), like `curl --path-as-is`. */
function rawGet(port: number, rawPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: rawPath, method: "GET" }, (res) => {
      let body = "";
      res.setEncoding("latin1");
      res.on("data", (c: string) => {
        body += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("photo files", () => {
  let dataDir: string;
  let outside: string;
  let store: DiskImageStore;
  let port: number;
  let server: http.Server;
  const SECRET = "secret bytes outside the data directory";

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "static-files-data-"));
    outside = await fs.mkdtemp(path.join(os.tmpdir(), "static-files-outside-"));
    await fs.writeFile(path.join(outside, "image_1_1.jpg"), SECRET);
    await fs.writeFile(path.join(outside, "image_1_1.w400.jpg"), SECRET);
    store = new DiskImageStore(path.join(dataDir, "images"));
    await store.save("properties", "a-b", "image_1_0.jpg", Buffer.from("jpeg-bytes"));
    const app = express();
    app.use(photoFiles(store));
    server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
    await fs.rm(outside, { recursive: true, force: true });
  });

  /** `..%2F` up to the filesystem root, then the outside folder with `%2F` separators. */
  const climb = (from: string, to: string, encodedSlash = "%2F") =>
    `${`..${encodedSlash}`.repeat(from.split(path.sep).length + 2)}${to
      .split(path.sep)
      .filter(Boolean)
      .join(encodedSlash)}`;

  it("refuses the reported traversal through the variant fallback (anonymous, sent as is)", async () => {
    const folder = climb(path.join(store.root, "properties"), outside);
    const res = await rawGet(port, `/images/properties/${folder}/image_1_1.w400.jpg`);
    expect(res.body).not.toContain(SECRET);
    expect(res.status).toBe(404);
  });

  it.each([
    ["the original", (f: string) => `/images/properties/${f}/image_1_1.jpg`, "%2F"],
    [
      "a variant, double-encoded",
      (f: string) => `/images/properties/${f}/image_1_1.w400.jpg`,
      "%252F",
    ],
    ["a backslash", (f: string) => `/images/properties/${f}/image_1_1.w400.jpg`, "%5C"],
    ["the collection", (f: string) => `/images/${f}/image_1_1.jpg`, "%2F"],
  ])("refuses traversal aimed at %s", async (_label, make, slash) => {
    const res = await rawGet(port, make(climb(store.root, outside, slash)));
    expect(res.body).not.toContain(SECRET);
    expect(res.status).toBe(404);
  });

  it.each([
    "/images/properties/..%2Fproperties%2Fa-b/image_1_0.jpg",
    "/images/properties/../properties/a-b/image_1_0.jpg",
    "/images/properties/a-b/..%2Fa-b%2Fimage_1_0.jpg",
    "/images/properties/a-b%00/image_1_0.jpg",
    "/images/properties/a-b/image_1_0.jpg%00.png",
    "/images/properties/%2E%2E/a-b/image_1_0.jpg",
    "/images/properties/a-b%2F/image_1_0.jpg",
    "/images/properties/%E0%A4%A/image_1_0.jpg",
    "/images/properties/a-b/image_1_0.jpg.1234.tmp",
  ])("answers 404 for %s", async (url) => {
    expect((await rawGet(port, url)).status).toBe(404);
  });

  it("still serves our photos and the fallback for a variant never made", async () => {
    const res = await rawGet(port, "/images/properties/a-b/image_1_0.jpg");
    expect([res.status, res.body]).toEqual([200, "jpeg-bytes"]);
    const fallback = await rawGet(port, "/images/properties/a-b/image_1_0.w800.webp");
    expect([fallback.status, fallback.body]).toEqual([200, "jpeg-bytes"]);
  });

  it("never serves temporary or staged files", async () => {
    const folder = store.folder("properties", "a-b");
    await fs.writeFile(path.join(folder, "image_2_0.jpg.77.tmp"), "half");
    await fs.mkdir(path.join(store.root, "properties", "a-b.removing-1-2"), { recursive: true });
    await fs.writeFile(
      path.join(store.root, "properties", "a-b.removing-1-2", "image_3_0.jpg"),
      "x",
    );
    expect((await rawGet(port, "/images/properties/a-b/image_2_0.jpg.77.tmp")).status).toBe(404);
    expect((await rawGet(port, "/images/properties/a-b.removing-1-2/image_3_0.jpg")).status).toBe(
      404,
    );
  });
});

describe("DiskImageStore paths", () => {
  const store = new DiskImageStore(path.join(os.tmpdir(), "store-paths"));

  it.each([
    "/images/properties/..%2F..%2Fetc/image_1_1.jpg",
    "/images/properties/..%5C..%5Cetc/image_1_1.jpg",
    "/images/properties/..%00/image_1_1.jpg",
    "/images/properties/%2E%2E/image_1_1.jpg",
    "/images/properties/./image_1_1.jpg",
    "/images/properties/%/image_1_1.jpg",
  ])("refuses %s", (url) => {
    expect(store.pathOf(url)).toBeNull();
  });

  it("refuses file names and ids that would leave the root", async () => {
    await expect(
      store.save("properties", "x", "../../image_1_0.jpg", Buffer.from("x")),
    ).rejects.toThrow();
    // Every key gets one folder directly under its collection, whatever it contains.
    for (const id of ["..", ".", "../..", "a/../../b", "..\\..\\x", "a\u0000b", "%2e%2e"]) {
      const dir = store.folder("properties", id);
      expect(path.dirname(dir), id).toBe(path.join(store.root, "properties"));
      expect(store.pathOf(store.url("properties", id, "image_1_0.jpg")), id).toBe(
        path.join(dir, "image_1_0.jpg"),
      );
    }
  });
});
