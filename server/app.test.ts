import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "~/features/auth/sessions.server";
import { upsertUser } from "~/features/auth/users.server";
import { DiskImageStore } from "~/features/images/storage.server";
import { insertListing } from "~/features/listings/queries.server";
import { LiveHub } from "~/features/live/hub.server";
import { type Db, openDb } from "~/shared/db.server";
import { readEnv } from "~/shared/env.server";
import { rawClient } from "../tests/support/raw-http";
import { createApp } from "./app";

// Needs the production build (npm test builds first).
const SECRET = "not-a-photo-secret-4f1c";
const buildFile = path.resolve("build/server/index.js");
const env = readEnv({ NODE_ENV: "production" });

describe("HTTP surface", () => {
  let db: Db;
  let hub: LiveHub;
  let root: string;
  let base: string;
  let close: () => void;

  beforeAll(async () => {
    db = await openDb({ dataDir: "memory://" });
    hub = await LiveHub.start(db);
    root = await fs.mkdtemp(path.join(os.tmpdir(), "app-test-"));
    // The photos in a folder of their own; beside it, a file no request may reach.
    const images = new DiskImageStore(path.join(root, "store"));
    await fs.writeFile(path.join(root, "secret.txt"), SECRET);
    await images.save("properties", "a-b", "image_1_0.jpg", Buffer.from("jpeg-bytes"));
    const build = (await import(pathToFileURL(buildFile).href)) as ServerBuild;
    const app = await createApp({
      db,
      hub,
      images,
      env,
      build,
      clientDir: path.resolve("build/client"),
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => {
      server.closeAllConnections();
      server.close();
    };
  });
  afterAll(async () => {
    close?.();
    await hub?.close();
    await db?.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  it("reports health with the database kind", async () => {
    const res = await fetch(`${base}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok", database: "pglite" });
  });

  it("serves stored images with long-lived immutable caching", async () => {
    const res = await fetch(`${base}/images/properties/a-b/image_1_0.jpg`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await res.text()).toBe("jpeg-bytes");
    expect((await fetch(`${base}/images/properties/a-b/missing.jpg`)).status).toBe(404);
  });

  // Sent as written (fetch would resolve the dots before sending, reaching only the ordinary
  // 404): the photo route itself must refuse to leave its folder, whatever the encoding.
  it.each([
    "/images/../secret.txt",
    "/images/properties/../../secret.txt",
    "/images/properties/a-b/../../../secret.txt",
    "/images/%2e%2e/secret.txt",
    "/images/..%2fsecret.txt",
    "/images/properties/a-b/..%2f..%2f..%2fsecret.txt",
    "/images/..%5csecret.txt",
    "/images/../../../../../../etc/passwd",
  ])("serves no file outside the photo folder for %s", async (target) => {
    const res = await rawClient(base).send({ method: "GET", target });
    expect(res.status).toBe(404);
    expect(res.body.toString()).not.toContain(SECRET);
    expect(res.body.toString()).not.toMatch(/root:.*:0:0:/);
  });

  it("falls back to the original for a variant that was never made", async () => {
    const res = await fetch(`${base}/images/properties/a-b/image_1_0.w800.webp`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("jpeg-bytes");
    expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
    expect((await fetch(`${base}/images/properties/a-b/image_9_0.w800.webp`)).status).toBe(404);
    expect((await fetch(`${base}/images/properties/a-b/image_1_0.w801.webp`)).status).toBe(404);
  });

  it("sends the brotli file written at build time to browsers that accept it", async () => {
    const assets = await fs.readdir(path.resolve("build/client/assets"));
    const js = assets.find((f) => f.endsWith(".js") && assets.includes(`${f}.br`));
    expect(js).toBeDefined();
    const br = await fetch(`${base}/assets/${js}`, { headers: { "accept-encoding": "br, gzip" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(br.headers.get("content-type")).toMatch(/javascript/);
    const plain = await fs.readFile(path.resolve("build/client/assets", js as string), "utf8");
    expect(await br.text()).toBe(plain); // fetch decodes it: same bytes as the original
    const gz = await fetch(`${base}/assets/${js}`, { headers: { "accept-encoding": "gzip" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
  });

  it("gives pages an ETag and answers a matching revalidation with 304", async () => {
    const first = await fetch(`${base}/about`);
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    // (fetch adds "Cache-Control: no-cache" to conditional requests unless told otherwise.)
    const again = await fetch(`${base}/about`, {
      headers: { "if-none-match": etag as string, "cache-control": "max-age=0" },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const other = await fetch(`${base}/about`, {
      headers: { "if-none-match": 'W/"other"', "cache-control": "max-age=0" },
    });
    expect(other.status).toBe(200);
    expect(await other.text()).toContain("About");
  });

  it("serves signed-out visitors a kept page until the listings change", async () => {
    await insertListing(db, "properties", "cache-test", {
      address: "1 Cache Lane",
      bedrooms: 1,
      bathrooms: 1,
      description: "First words",
      image_urls: [],
      thumbnail_description: "",
      property_type: "Residential",
      currently_available: true,
      price: null,
      reserve_url: null,
    });
    const page = () => fetch(`${base}/properties/cache-test`).then((r) => r.text());
    await expect.poll(page).toContain("First words");
    // A change that announces nothing (triggers off) is not seen: the kept page is served...
    await db.exec(`SET session_replication_role = replica;
      UPDATE listings SET description = 'Second words' WHERE id = 'cache-test';
      SET session_replication_role = origin;`);
    expect(await page()).toContain("First words");
    // ...also to a request with a session cookie no session stands behind, and to one with
    // query parameters no page reads (neither makes a new render nor a new kept copy)...
    const forged = await fetch(`${base}/properties/cache-test`, {
      headers: { cookie: `${env.session.cookieName}=not-a-real-session` },
    });
    expect(await forged.text()).toContain("First words");
    const unused = await fetch(`${base}/properties/cache-test?utm_source=${Date.now()}&x=%00`);
    expect(await unused.text()).toContain("First words");
    // ...but not to someone signed in, whose pages are never kept.
    const cacheUser = { issuer: "https://id.example", sub: "cache-user" };
    await upsertUser(db, { ...cacheUser, email: null, emailVerified: false, name: null });
    const { token } = await createSession(db, cacheUser, env.session);
    const signedIn = await fetch(`${base}/properties/cache-test`, {
      headers: { cookie: `${env.session.cookieName}=${token}` },
    });
    expect(await signedIn.text()).toContain("Second words");
    // An announced change clears every kept page.
    await db.query("SELECT pg_notify('listings_changed', $1)", [
      JSON.stringify({ collection: "properties", id: "cache-test", op: "update" }),
    ]);
    await expect.poll(page).toContain("Second words");
    // Kept pages go out compressed (made once) to browsers that take it, same text.
    const plain = await page();
    const br = await fetch(`${base}/properties/cache-test`, {
      headers: { "accept-encoding": "br" },
    });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("etag")).toMatch(/^W\//);
    expect(await br.text()).toBe(plain);
  });

  it("serves hashed assets immutable and unknown assets as 404", async () => {
    const assets = await fs.readdir(path.resolve("build/client/assets"));
    const js = assets.find((f) => f.endsWith(".js"));
    const res = await fetch(`${base}/assets/${js}`);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    // Scripts carry nosniff but not the document-only headers nor validators (decision 0056).
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    for (const name of ["content-security-policy", "x-frame-options", "etag", "last-modified"]) {
      expect(res.headers.get(name)).toBeNull();
    }
    expect((await fetch(`${base}/assets/nope.js`)).status).toBe(404);
  });

  it("answers unknown pages and unknown listings with 404 HTML", async () => {
    const page = await fetch(`${base}/definitely/not/here`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("Page not found");
    const listing = await fetch(`${base}/properties/nope`);
    expect(listing.status).toBe(404);
    expect(await listing.text()).toContain("No property data available");
  });

  it("streams a change to a subscriber of that collection only", async () => {
    const controller = new AbortController();
    const res = await fetch(`${base}/live?collections=properties`, { signal: controller.signal });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await expect.poll(() => hub.size).toBe(1);
    await insertListing(db, "newConstruction", "c1", {
      address: "c1",
      bedrooms: null,
      bathrooms: null,
      description: "",
      image_urls: [],
      thumbnail_description: "",
      property_type: "Residential",
      currently_available: null,
      price: null,
      reserve_url: null,
    });
    await insertListing(db, "properties", "p1", {
      address: "p1",
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
    let text = "";
    while (!text.includes("data:")) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('"collection":"properties","id":"p1","op":"insert"');
    expect(text).not.toContain("c1");
    controller.abort();
    await expect.poll(() => hub.size).toBe(0);
  });
});
