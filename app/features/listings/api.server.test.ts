import type { AddressInfo } from "node:net";
import express from "express";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "~/domain/messages";
import type { ImageStore } from "~/features/images/storage.server";
import { VARIANT_WIDTHS, variantUrl } from "~/features/images/variants";
import type { Db } from "~/shared/db.server";
import { finalErrorHandler } from "../../../server/error-handler";
import { dbTargets } from "../../../tests/support/db-targets";
import { imageStoreTargets, stopSharedS3 } from "../../../tests/support/image-store-targets";
import { jpegWithGps, pixelFlood } from "../../../tests/support/images";
import { createListingApi } from "./api.server";
import { getListing, getListingForEdit } from "./queries.server";

// The write sequences behind an always-open gate; who may call them is tested with real sign-in.
afterAll(stopSharedS3);

const combinations = dbTargets.flatMap((db) =>
  imageStoreTargets.map((storage) => ({ name: `${db.name} + ${storage.name}`, db, storage })),
);

describe.each(combinations)("listing write API on $name", ({ db: target, storage }) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let everything: () => Promise<string[]>;
  let cleanupStore: () => Promise<void>;
  let base: string;
  let stop: () => void;
  let store: ImageStore;

  beforeAll(async () => {
    ({ db, cleanup } = await target.open());
    ({ images: store, everything, cleanup: cleanupStore } = await storage.open());
    const app = express();
    app.use(
      "/api",
      createListingApi({ db, images: store, guard: () => (_req, _res, next) => next() }),
    );
    // The API\'s errors are answered by the app\'s one error handler, as in server/app.ts.
    app.use(finalErrorHandler);
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    stop = () => server.close();
  });
  afterAll(async () => {
    stop?.();
    await cleanup?.();
    await cleanupStore?.();
  });

  /** A stored photo's bytes (the test fails if it is missing). */
  const bytes = async (url: string) => {
    const data = await store.read(url);
    if (!data) throw new Error(`not stored: ${url}`);
    return data;
  };
  /** The URLs of a photo and all its variants. */
  const allUrlsOf = (url: string) => [
    url,
    ...VARIANT_WIDTHS.flatMap((w) => [variantUrl(url, w, "webp"), variantUrl(url, w, "jpg")]),
  ];

  function form(data: object, files: { name: string; bytes: Buffer; type?: string }[] = []) {
    const body = new FormData();
    body.append("data", JSON.stringify(data));
    for (const f of files)
      body.append(
        "images",
        new Blob([new Uint8Array(f.bytes)], { type: f.type ?? "image/jpeg" }),
        f.name,
      );
    return body;
  }

  const property = {
    address: "12 Upload Way",
    bedrooms: 3,
    bathrooms: 2,
    description: "Nice",
    price: "2100",
    thumbnail_description: "Thumb",
    currently_available: true,
    property_type: "Residential",
  };

  it("adds a property with three images, first image as thumbnail, GPS removed", async () => {
    const images = [
      await jpegWithGps(640, 480, "#ff0000"),
      await jpegWithGps(800, 600, "#00ff00"),
      await jpegWithGps(320, 240, "#0000ff"),
    ];
    const res = await fetch(`${base}/listings/properties`, {
      method: "POST",
      body: form(
        property,
        images.map((bytes, i) => ({ name: `p${i}.jpg`, bytes })),
      ),
    });
    expect(res.status).toBe(201);
    // With the 'Listing check' of what was added (docs/behaviour.md §29).
    expect(await res.json()).toEqual({
      id: "12-upload-way",
      warnings: [
        "Feeds: add a city",
        "Feeds: add a state",
        "Feeds: add a ZIP code",
        "Feeds: photos 1, 2 and 3 have no caption",
      ],
    });
    const row = await getListing(db, "properties", "12-upload-way");
    expect(row?.image_urls).toHaveLength(3);
    expect(row?.thumbnail_image_url).toBe(row?.image_urls[0]);
    for (const [i, url] of (row?.image_urls ?? []).entries()) {
      expect(url).toMatch(new RegExp(`^/images/properties/12-upload-way/image_\\d+_${i}\\.jpg$`));
      const meta = await sharp(await bytes(url)).metadata();
      expect(meta.format).toBe("jpeg");
      expect(meta.exif).toBeUndefined();
    }
    const widths = await Promise.all(
      (row?.image_urls ?? []).map(async (u) => (await sharp(await bytes(u)).metadata()).width),
    );
    expect(widths).toEqual([640, 800, 320]);
    // Responsive variants beside each original, metadata-free too, never enlarged.
    const first = row?.image_urls[0] as string;
    const variantMeta = await sharp(await bytes(variantUrl(first, 400, "webp"))).metadata();
    expect([variantMeta.format, variantMeta.width, variantMeta.exif]).toEqual([
      "webp",
      400,
      undefined,
    ]);
    expect(store.filesOf(first)).toHaveLength(9);
    for (const u of allUrlsOf(first)) expect(await store.exists(u)).toBe(true);
    expect((await sharp(await bytes(variantUrl(first, 1600, "jpg"))).metadata()).width).toBe(640);
  });

  it("saves a listing whatever its 'Listing check' says, and answers the warnings", async () => {
    const worded = {
      ...property,
      address: "14 Check Lane",
      city: "Arlington",
      state: "VA",
      zip: "22201",
      description: "Adults only, no Section 8. Call 703-555-0100.",
    };
    const added = await fetch(`${base}/listings/properties`, {
      method: "POST",
      body: form(worded),
    });
    expect(added.status).toBe(201);
    expect(await added.json()).toEqual({
      id: "14-check-lane",
      warnings: [
        'Fair housing: "Adults only" may discourage families. Describe the property, not the people.',
        'Fair housing: "no Section 8" may refuse a source of funds that Virginia law protects. State the rent and the screening criteria; every lawful source of funds counts.',
        "Feeds: add at least 3 photos",
        "Put phone numbers and e-mail addresses in the contact panel, not the description.",
      ],
    });
    expect((await getListing(db, "properties", "14-check-lane"))?.description).toBe(
      worded.description,
    );
    const { version } = (await getListingForEdit(db, "properties", "14-check-lane")) ?? {};
    const saved = await fetch(`${base}/listings/properties/14-check-lane`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        ...worded,
        description: "Quiet, bright flat near the park.",
        image_urls: [],
        image_captions: {},
        version,
      }),
    });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ warnings: ["Feeds: add at least 3 photos"] });
  });

  it("refuses a duplicate address with the spec's message and stores nothing", async () => {
    const before = await everything();
    const res = await fetch(`${base}/listings/properties`, {
      method: "POST",
      body: form({ ...property, price: "1" }, [{ name: "x.jpg", bytes: await jpegWithGps() }]),
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      ok: false,
      error: messages.duplicateAddress("Property"),
    });
    expect(await everything()).toEqual(before);
    expect((await getListing(db, "properties", "12-upload-way"))?.price).toBe("2100");
  });

  it.each([
    [
      "a text file named like a photo",
      async () => Buffer.from("definitely not a jpeg"),
      400,
      /not an image/,
    ],
    ["an oversized file", async () => Buffer.alloc(26 * 1024 * 1024, 1), 413, /larger than 25 MB/],
    ["a pixel flood", () => pixelFlood(), 400, /more than 50 million pixels/],
  ])("rejects %s and writes neither record nor files", async (_label, make, status, pattern) => {
    const before = await everything();
    const res = await fetch(`${base}/listings/properties`, {
      method: "POST",
      body: form({ ...property, address: "99 Rejected Road" }, [
        { name: "good.jpg", bytes: await jpegWithGps() },
        { name: "photo.jpg", bytes: await make() },
      ]),
    });
    expect(res.status).toBe(status);
    expect((await res.json()).error).toMatch(pattern);
    expect(await getListing(db, "properties", "99-rejected-road")).toBeNull();
    expect(await everything()).toEqual(before);
  });

  it("validates fields with a clear 400", async () => {
    const bad = async (data: object) => {
      const res = await fetch(`${base}/listings/properties`, { method: "POST", body: form(data) });
      return [res.status, (await res.json()).error];
    };
    expect(await bad({ ...property, address: "   " })).toEqual([400, "The address is required."]);
    expect(await bad({ ...property, bedrooms: "many" })).toEqual([
      400,
      "The bedrooms must be a number from 0 to 1000.",
    ]);
    expect(await bad({ ...property, property_type: "Castle" })).toEqual([
      400,
      "The property type must be Residential, Commercial or Vacation.",
    ]);
    expect(await bad({ ...property, address: "x".repeat(201) })).toEqual([
      400,
      "The address must be at most 200 characters.",
    ]);
    expect(
      await bad({ ...property, property_type: "Vacation", reserve_url: "javascript:alert(1)" }),
    ).toEqual([400, "The reserve url must be an http(s) address."]);
    // The refusal names the field, so the form can mark it (docs/decisions/0008).
    const refusal = async (data: object) => {
      const res = await fetch(`${base}/listings/properties`, { method: "POST", body: form(data) });
      return res.json();
    };
    expect(await refusal({ ...property, bedrooms: "many" })).toMatchObject({
      ok: false,
      error: "The bedrooms must be a number from 0 to 1000.",
      errors: { bedrooms: "The bedrooms must be a number from 0 to 1000." },
      field: "bedrooms",
    });
    expect((await refusal({ ...property, address: "###" })).field).toBe("address");
    expect(
      (await refusal({ ...property, reserve_url: "ftp://x", property_type: "Vacation" })).field,
    ).toBe("reserve_url");
    const notJson = await fetch(`${base}/listings/properties`, {
      method: "POST",
      body: (() => {
        const f = new FormData();
        f.append("data", "{");
        return f;
      })(),
    });
    expect(notJson.status).toBe(400);
  });

  it("adds a construction without offer fields", async () => {
    const res = await fetch(`${base}/listings/newConstruction`, {
      method: "POST",
      body: form({ ...property, address: "7 Site Street", reserve_url: "https://x.example" }),
    });
    expect(res.status).toBe(201);
    const row = await getListing(db, "newConstruction", "7-site-street");
    expect(row).toMatchObject({
      price: null,
      currently_available: null,
      reserve_url: null,
      thumbnail_image_url: null,
      image_urls: [],
    });
  });

  it("toggles availability, appends and removes images, reorders on save", async () => {
    const url = `${base}/listings/properties/12-upload-way`;
    const patch = await fetch(`${url}/availability`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ currently_available: false }),
    });
    expect(patch.status).toBe(204);
    expect((await getListing(db, "properties", "12-upload-way"))?.currently_available).toBe(false);

    const upload = new FormData();
    upload.append("images", new Blob([new Uint8Array(await jpegWithGps(200, 100))]), "new.jpg");
    const added = await fetch(`${url}/images`, { method: "POST", body: upload });
    const { image_urls } = (await added.json()) as { image_urls: string[] };
    expect(image_urls).toHaveLength(4);

    const first = image_urls[0] as string;
    const removed = await fetch(`${url}/images`, {
      method: "DELETE",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: first }),
    });
    expect(removed.status).toBe(200);
    const afterRemove = await getListing(db, "properties", "12-upload-way");
    expect(afterRemove?.image_urls).toEqual(image_urls.slice(1));
    expect(afterRemove?.thumbnail_image_url).toBe(image_urls[1]);
    for (const u of allUrlsOf(first)) expect(await store.exists(u)).toBe(false);

    const reversed = [...(afterRemove?.image_urls ?? [])].reverse();
    const { version } = (await getListingForEdit(db, "properties", "12-upload-way")) ?? {};
    const edit = {
      ...property,
      property_type: "Vacation",
      reserve_url: "https://book.example/x",
      image_urls: reversed,
    };
    const put = (body: object) =>
      fetch(url, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    // A save must say which version it was based on.
    for (const bad of [undefined, "1", 0, 1.5]) {
      const res = await put({ ...edit, version: bad });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe(
        "The version the edit is based on is missing. Reload the page and try again.",
      );
    }
    const save = await put({ ...edit, version });
    expect(save.status).toBe(200);
    expect(await save.json()).toEqual({
      warnings: [
        "Feeds: vacation rentals are not sent",
        "Feeds: add a city",
        "Feeds: add a state",
        "Feeds: add a ZIP code",
      ],
    });
    expect(await getListing(db, "properties", "12-upload-way")).toMatchObject({
      image_urls: reversed,
      thumbnail_image_url: reversed[0],
      property_type: "Vacation",
      reserve_url: "https://book.example/x",
    });

    const foreign = await fetch(url, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        ...property,
        image_urls: ["/images/elsewhere.jpg"],
        version: (await getListingForEdit(db, "properties", "12-upload-way"))?.version,
      }),
    });
    expect(foreign.status).toBe(409);
  });

  it("deletes every image, then the record; a second delete is 'Property not found.'", async () => {
    const url = `${base}/listings/properties/12-upload-way`;
    expect((await fetch(url, { method: "DELETE" })).status).toBe(204);
    expect(await getListing(db, "properties", "12-upload-way")).toBeNull();
    const left = (await everything()).filter((f) => f.includes("12-upload-way"));
    // Kept in the trash for 'Recently deleted' (docs/behaviour.md §22), out of public reach.
    expect(left.filter((f) => !f.startsWith(".trash"))).toEqual([]);
    expect(left.length).toBeGreaterThan(0);
    const again = await fetch(url, { method: "DELETE" });
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ ok: false, error: "Property not found." });
  });
});
