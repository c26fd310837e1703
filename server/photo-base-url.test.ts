// PHOTO_BASE_URL: pages point their photos at a CDN in front of the bucket, the page's policy
// allows that origin for images, and records keep their /images URLs
// (docs/decisions/0038-object-storage.md).
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import { editableOf } from "~/features/content";
import { insertListing } from "~/features/listings/queries.server";
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
