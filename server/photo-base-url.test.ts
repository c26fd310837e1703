// PHOTO_BASE_URL: pages point their photos at a CDN in front of the bucket, the page's policy
// allows that origin for images, and records keep their /images URLs
// (docs/decisions/0038-object-storage.md).
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ListObjectsV2Command, PutObjectCommand } from "@aws-sdk/client-s3";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import { S3ImageStore } from "~/features/images/storage.server";
import { insertListing } from "~/features/listings/queries.server";
import { editableOf } from "~/features/site-settings";
import { startS3, type TestS3 } from "../tests/support/s3";
import { startTestApp, type TestApp } from "../tests/support/test-app";

const CDN = "https://photos.cdn.example.net/leasing";

describe("photos from PHOTO_BASE_URL", () => {
  let app: TestApp;
  const url = "/images/properties/7-cdn-court/image_1700000000000_0.jpg";

  beforeAll(async () => {
    app = await startTestApp({ env: { PHOTO_BASE_URL: `${CDN}/` } });
    await insertListing(app.db, "properties", "7-cdn-court", {
      address: "7 CDN Court",
      bedrooms: 2,
      bathrooms: 1,
      description: "",
      image_urls: [url],
      thumbnail_description: "",
      property_type: "Residential",
      currently_available: true,
      price: null,
      reserve_url: null,
    });
  });
  afterAll(() => app?.close());

  it("points the listing page's photos and the list's thumbnails at the base URL", async () => {
    for (const page of ["/properties/7-cdn-court", "/properties"]) {
      const res = await fetch(app.base + page);
      const html = await res.text();
      expect(res.status).toBe(200);
      expect(html).toContain(`src="${CDN}/properties/7-cdn-court/image_1700000000000_0.jpg"`);
      expect(html).toContain(`${CDN}/properties/7-cdn-court/image_1700000000000_0.w400.webp 400w`);
      expect(html).not.toContain(`src="${url}"`);
      const policy = res.headers.get("content-security-policy") ?? "";
      expect(policy).toMatch(/img-src 'self' data: blob: https:\/\/photos\.cdn\.example\.net;/);
    }
  });

  it("points an uploaded logo at the base URL too (it is in the photo store, docs/behaviour.md §18)", async () => {
    const admin = await app.signIn("cdn-admin@example.com", { admin: true });
    const body = new FormData();
    body.append("data", JSON.stringify(editableOf(company)));
    const png = await sharp({
      create: { width: 40, height: 20, channels: 4, background: "#123456" },
    })
      .png()
      .toBuffer();
    body.append("logo", new Blob([new Uint8Array(png)]), "logo.png");
    const saved = await fetch(`${app.base}/api/site`, {
      method: "PUT",
      body,
      headers: { cookie: admin },
    });
    expect(saved.status).toBe(200);
    const html = await (await fetch(`${app.base}/about`)).text();
    expect(html).toMatch(new RegExp(`src="${CDN}/site/logo_\\d+\\.png"`));
    const [, name] = /src="[^"]*\/site\/(logo_\d+\.png)"/.exec(html) ?? [];
    const direct = await fetch(`${app.base}/images/site/${name}`);
    expect(direct.status).toBe(200);
    expect(direct.headers.get("content-type")).toBe("image/png");
  });

  it("keeps the site's own image URLs working (the CDN's origin may be this server)", async () => {
    const jpeg = await sharp({
      create: { width: 30, height: 20, channels: 3, background: "#345678" },
    })
      .jpeg()
      .toBuffer();
    const stored = await app.images.save(
      "properties",
      "7-cdn-court",
      "image_1700000000000_0.jpg",
      jpeg,
    );
    expect(stored).toBe(url);
    const res = await fetch(app.base + url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(Buffer.from(await res.arrayBuffer()).equals(jpeg)).toBe(true);
    // A variant never made falls back to the original, as without a base URL.
    const variant = await fetch(app.base + url.replace(/\.jpg$/, ".w400.webp"));
    expect(variant.status).toBe(200);
    expect(Buffer.from(await variant.arrayBuffer()).equals(jpeg)).toBe(true);
    // And a photo that is not stored is the ordinary 404, not a 5xx.
    expect((await fetch(app.base + url.replace("_0.jpg", "_9.jpg"))).status).toBe(404);
  });
});

describe("photos without PHOTO_BASE_URL", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it("allows only the site itself for images", async () => {
    const res = await fetch(`${app.base}/properties`);
    await res.text();
    expect(res.headers.get("content-security-policy")).toMatch(/img-src 'self' data: blob:;/);
  });
});

// A CDN in front of S3_BUCKET serves every key in it, so removed, deleted and
// history-only photos live in S3_PRIVATE_BUCKET (docs/decisions/0052-trash-in-a-private-bucket.md).
// Here s3rver itself plays the CDN: PHOTO_BASE_URL is the public bucket's own path-style URL.
describe("removed photos on S3 behind PHOTO_BASE_URL", () => {
  let s3: TestS3;
  let app: TestApp<S3ImageStore>;
  let bucket = "";
  let privateBucket = "";
  let cdn = "";

  beforeAll(async () => {
    s3 = await startS3();
    bucket = await s3.createBucket();
    privateBucket = await s3.createBucket();
    cdn = `${s3.endpoint}/${bucket}`;
    const tempDir = await fs.mkdtemp(path.join(os.tmpdir(), "cdn-trash-"));
    const images = new S3ImageStore({ bucket, privateBucket, forcePathStyle: true, tempDir });
    app = await startTestApp({
      images,
      env: { ...s3.env(bucket), S3_PRIVATE_BUCKET: privateBucket, PHOTO_BASE_URL: cdn },
    });
  });
  afterAll(async () => {
    await app?.close();
    await s3?.close();
  });

  it("answers 404 at a removed photo's old CDN and /images URLs, and keeps it for the history", async () => {
    const admin = await app.signIn("cdn-trash@example.com", { admin: true });
    const add = new FormData();
    add.append("data", JSON.stringify({ address: "5 Bucket Row", price: "1500" }));
    for (const color of ["#224466", "#664422"]) {
      const jpeg = await sharp({
        create: { width: 60, height: 40, channels: 3, background: color },
      })
        .jpeg()
        .toBuffer();
      add.append("images", new Blob([new Uint8Array(jpeg)]), "p.jpg");
    }
    const added = await fetch(`${app.base}/api/listings/properties`, {
      method: "POST",
      body: add,
      headers: { cookie: admin },
    });
    expect(added.status).toBe(201);
    const [row] = await app.db.query<{ image_urls: string[] }>(
      "SELECT image_urls FROM listings WHERE id = '5-bucket-row'",
    );
    const removed = row?.image_urls[1] ?? "";
    const key = removed.slice("/images/".length);
    const variant = key.replace(/\.jpg$/, ".w400.webp");
    // Public while on the listing: through the "CDN" and the site.
    expect((await fetch(`${cdn}/${key}`)).status).toBe(200);
    expect((await fetch(`${cdn}/${variant}`)).status).toBe(200);
    expect((await fetch(app.base + removed)).status).toBe(200);

    const res = await fetch(`${app.base}/api/listings/properties/5-bucket-row/images`, {
      method: "DELETE",
      headers: { cookie: admin, "content-type": "application/json" },
      body: JSON.stringify({ url: removed }),
    });
    expect(res.status).toBe(200);
    for (const url of [`${cdn}/${key}`, `${cdn}/${variant}`, `${cdn}/.trash/${key}`]) {
      expect((await fetch(url)).status, url).toBe(404);
    }
    for (const url of [removed, `/images/.trash/${key}`, `/images/%2Etrash/${key}`]) {
      expect((await fetch(app.base + url)).status, url).toBe(404);
    }
    // Nothing of it is left in the public bucket; the private one keeps it for the history.
    const listed = async (name: string) =>
      ((await s3.client.send(new ListObjectsV2Command({ Bucket: name }))).Contents ?? []).map(
        (o) => o.Key ?? "",
      );
    const stem = key.replace(/\.jpg$/, "");
    expect((await listed(bucket)).filter((k) => k.includes(stem))).toEqual([]);
    expect((await listed(privateBucket)).filter((k) => k.includes(stem)).length).toBeGreaterThan(1);
    expect((await listed(privateBucket)).every((k) => k.startsWith(".trash/"))).toBe(true);
    // Backups see the same keys as before (decision 0052): the trash copy under `.trash/`.
    expect(await app.images.keys()).toContain(`.trash/${key}`);
    expect((await app.images.readKey(`.trash/${key}`)).length).toBeGreaterThan(100);
  });

  it("moves a trash left in the public bucket by an earlier version to the private bucket", async () => {
    const key = ".trash/properties/9-old-trash/image_1700000000000_0.jpg";
    await s3.client.send(
      new PutObjectCommand({ Bucket: bucket, Key: key, Body: Buffer.from("old trash") }),
    );
    expect((await fetch(`${cdn}/${key}`)).status).toBe(200);
    const report = await app.images.repair({
      referencedFiles: new Set(),
      listingFolders: new Set(),
      inFlightMs: 0,
      orphanGraceMs: 60 * 60_000,
    });
    expect(report.trashMadePrivate).toEqual([key]);
    expect((await fetch(`${cdn}/${key}`)).status).toBe(404);
    expect((await app.images.readKey(key)).toString()).toBe("old trash");
  });
});
