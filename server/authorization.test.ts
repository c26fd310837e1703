// Who may change what: every write endpoint and every admin page, asked by an anonymous visitor,
// a signed-in non-admin and an admin, through the whole app (real sessions, real router).
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import { grantAdmin } from "~/features/auth/admins.server";
import { createSession } from "~/features/auth/sessions.server";
import { upsertUser } from "~/features/auth/users.server";
import { DiskImageStore } from "~/features/images/storage.server";
import { LiveHub } from "~/features/live/hub.server";
import { editableOf } from "~/features/site-settings";
import { type Db, openDb } from "~/shared/db.server";
import { type Env, readEnv } from "~/shared/env.server";
import { jpegWithGps } from "../tests/support/images";
import { createApp } from "./app";

const buildFile = path.resolve("build/server/index.js");

type Who = "anonymous" | "member" | "admin";

describe("authorisation of writes and admin pages", () => {
  let db: Db;
  let hub: LiveHub;
  let env: Env;
  let root: string;
  let base: string;
  let server: http.Server;
  const cookies: Record<Who, string> = { anonymous: "", member: "", admin: "" };
  let imageUrl = "";

  beforeAll(async () => {
    db = await openDb({ dataDir: "memory://" });
    hub = await LiveHub.start(db);
    root = await fs.mkdtemp(path.join(os.tmpdir(), "authz-test-"));
    const images = new DiskImageStore(root);
    server = http.createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    env = readEnv({ NODE_ENV: "development", PUBLIC_URL: base });
    const build = (await import(pathToFileURL(buildFile).href)) as ServerBuild;
    const app = await createApp({
      db,
      hub,
      images,
      env,
      build,
      clientDir: path.resolve("build/client"),
    });
    server.on("request", app);

    for (const [who, email] of [
      ["member", "member@example.com"],
      ["admin", "boss@example.com"],
    ] as const) {
      const key = { issuer: "https://id.example", sub: `${who}-sub` };
      await upsertUser(db, { ...key, email, emailVerified: true, name: who });
      const session = await createSession(db, key, env.session);
      cookies[who] = `${env.session.cookieName}=${session.token}`;
    }
    await grantAdmin(db, "boss@example.com", "test");

    // One property and one construction to aim at, each with an image.
    const withImage = addForm("1 Target Road");
    withImage.append("images", new Blob([new Uint8Array(await jpegWithGps(64, 48))]), "a.jpg");
    const created = await call("admin", "POST", "/api/listings/properties", withImage);
    expect(created.status).toBe(201);
    const construction = await call(
      "admin",
      "POST",
      "/api/listings/newConstruction",
      addForm("2 Target Road", false),
    );
    expect(construction.status).toBe(201);
    const [row] = await db.query<{ image_urls: string[] }>(
      "SELECT image_urls FROM listings WHERE collection = 'properties' AND id = '1-target-road'",
    );
    imageUrl = row?.image_urls[0] ?? "";
    expect(imageUrl).toMatch(/^\/images\/properties\/1-target-road\/image_\d+_0\.jpg$/);
  });

  afterAll(async () => {
    server?.closeAllConnections();
    server?.close();
    await hub?.close();
    await db?.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  function call(who: Who, method: string, url: string, body?: FormData | Blob | object) {
    const headers: Record<string, string> = {};
    if (cookies[who]) headers.cookie = cookies[who];
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body instanceof Blob) {
      headers["content-type"] = body.type;
      payload = body;
    } else if (body) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body);
    }
    return fetch(`${base}${url}`, { method, headers, body: payload, redirect: "manual" });
  }

  function addForm(address: string, offer = true) {
    const form = new FormData();
    const data = {
      address,
      bedrooms: 2,
      bathrooms: 1,
      description: "Quiet street.",
      thumbnail_description: "Front",
      property_type: "Residential",
      ...(offer ? { price: "1900", currently_available: true } : {}),
    };
    form.append("data", JSON.stringify(data));
    return form;
  }

  async function imageForm() {
    const form = new FormData();
    form.append("images", new Blob([new Uint8Array(await jpegWithGps(64, 48))]), "x.jpg");
    return form;
  }

  const saveBody = () => ({
    address: "1 Target Road",
    bedrooms: 5,
    bathrooms: 3,
    description: "Changed by someone",
    price: "1",
    thumbnail_description: "Front",
    property_type: "Vacation",
    reserve_url: "https://example.com/reserve",
    currently_available: false,
    image_urls: [imageUrl],
    version: 1, // both records are as created: nobody changed them before these saves
  });

  /** Every write the API offers, aimed at the seeded records. */
  const writes = async (): Promise<[string, string, FormData | Blob | object | undefined][]> => [
    // 'Still available' in the staff table (docs/behaviour.md §30), while the property is.
    ["POST", "/api/listings/properties/1-target-road/still-available", undefined],
    ["POST", "/api/listings/properties", addForm("9 Intruder Lane")],
    ["POST", "/api/listings/newConstruction", addForm("9 Intruder Lane", false)],
    ["PUT", "/api/listings/properties/1-target-road", saveBody()],
    [
      "PUT",
      "/api/listings/newConstruction/2-target-road",
      { ...saveBody(), address: "2 Target Road", property_type: "Commercial", image_urls: [] },
    ],
    [
      "PATCH",
      "/api/listings/properties/1-target-road/availability",
      { currently_available: false },
    ],
    ["POST", "/api/listings/properties/1-target-road/images", await imageForm()],
    ["DELETE", "/api/listings/properties/1-target-road/images", { url: "IMAGE" }],
    // 'Erase for good' of the photo just removed, which only the history names (§21).
    ["DELETE", "/api/listings/properties/1-target-road/history/photos", { url: "IMAGE" }],
    ["PUT", "/api/listings/newConstruction/2-target-road/featured", { featured: true }],
    // The property's first history entry is its add (docs/behaviour.md §21).
    ["POST", "/api/listings/properties/1-target-road/history/1/restore", {}],
    ["DELETE", "/api/listings/newConstruction/2-target-road", undefined],
    ["DELETE", "/api/listings/properties/1-target-road", undefined],
    ["PUT", "/api/site", settingsForm()],
    // The first deleted listing: the construction (docs/behaviour.md §22).
    ["POST", "/api/deleted/1/restore", {}],
    // 'Erase for good' of the property, deleted second (docs/behaviour.md §22).
    ["DELETE", "/api/deleted/2", undefined],
    // 'Import CSV' on /admin/listings: its dry run, then the import (issue 20 item 7).
    ["POST", "/api/listings-csv/check", csvFile()],
    ["POST", "/api/listings-csv/import", csvFile()],
  ];
  const csvFile = () =>
    new Blob(["collection,address\r\nproperties,5 Csv Lane\r\n"], { type: "text/csv" });

  /** The site settings page's save (docs/behaviour.md §18), with a new company name. */
  function settingsForm() {
    const form = new FormData();
    form.append(
      "data",
      JSON.stringify({ ...editableOf(company), name: "Intruder Leasing", logo: "default" }),
    );
    return form;
  }

  const adminPages = [
    "/addproperty",
    "/addnewconstruction",
    "/editproperties/1-target-road",
    "/edit-construction/2-target-road",
    "/admin/admins",
    "/admin/site",
    "/admin/deleted",
    "/admin/listings",
    "/admin/outbox",
    "/admin/feeds",
    "/admin/inbox",
    "/properties/1-target-road/history",
    "/new-construction/2-target-road/history",
  ];

  async function snapshot() {
    const listings = await db.query(
      `SELECT collection, id, address, description, price, currently_available, image_urls,
         availability_checked_at FROM listings ORDER BY collection, id`,
    );
    const admins = await db.query("SELECT uid, email FROM admins ORDER BY id");
    const settings = await db.query("SELECT content FROM site_settings");
    const history = await db.query("SELECT seq FROM listing_history ORDER BY seq");
    const deleted = await db.query("SELECT entry FROM deleted_listings ORDER BY entry");
    const files = (await fs.readdir(root, { recursive: true })).sort();
    return { listings, admins, settings, history, deleted, files };
  }

  it.each([
    ["anonymous", 401],
    ["member", 403],
  ] as const)("refuses every write by %s with %i and changes nothing", async (who, status) => {
    const before = await snapshot();
    for (const [method, url, body] of await writes()) {
      const res = await call(who, method, url, body && "url" in body ? { url: imageUrl } : body);
      expect.soft(res.status, `${method} ${url}`).toBe(status);
      expect.soft((await res.json()).error).toMatch(/Sign in required|Admins only/);
    }
    // The admin page's own action (grant) is refused too.
    const grant = new FormData();
    grant.append("intent", "grant");
    grant.append("email", "intruder@example.com");
    expect((await call(who, "POST", "/admin/admins", grant)).status).toBe(404);
    // So are the inbox's actions (docs/behaviour.md §27): no answer is sent, nothing recorded.
    // A real showing request to aim at: without the guard, each of these would act on it.
    const [lead] = await db.query<{ id: number }>(
      `INSERT INTO leads (kind, name, email, message, preferred_times)
       VALUES ('showing', 'Ana', 'a@example.com', 'Hi', '{2027-03-01T10:00}') RETURNING id::int AS id`,
    );
    const leadBefore = await db.query("SELECT * FROM leads WHERE id = $1", [lead?.id]);
    const mailBefore = await db.query("SELECT id FROM outbox ORDER BY id");
    for (const intent of ["status", "note", "reply", "confirm", "decline", "erase"]) {
      const form = new FormData();
      for (const [k, v] of Object.entries({
        intent,
        id: String(lead?.id),
        status: "closed",
        notes: "x",
        text: "Hello",
        time: "2027-03-01T10:00",
        email: "a@example.com",
      })) {
        form.append(k, v);
      }
      expect.soft((await call(who, "POST", "/admin/inbox", form)).status, intent).toBe(404);
    }
    expect(await db.query("SELECT id FROM outbox ORDER BY id")).toEqual(mailBefore);
    expect(await db.query("SELECT * FROM leads WHERE id = $1", [lead?.id])).toEqual(leadBefore);
    expect(await snapshot()).toEqual(before);
  });

  it.each(["anonymous", "member"] as const)(
    "answers every admin page with the site's 404 page for %s",
    async (who) => {
      for (const page of adminPages) {
        const res = await call(who, "GET", page);
        expect.soft(res.status, page).toBe(404);
        expect.soft(await res.text(), page).toContain("Page not found");
      }
    },
  );

  it("gives the inbox's CSV (personal data) to the admin only", async () => {
    for (const who of ["anonymous", "member"] as const) {
      const res = await call(who, "GET", "/admin/inbox/export");
      expect.soft(res.status, who).toBe(404);
      expect.soft(await res.text(), who).not.toContain("email");
    }
    const res = await call("admin", "GET", "/admin/inbox/export");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  });

  it("lets the admin open every admin page", async () => {
    for (const page of adminPages) {
      const res = await call("admin", "GET", page);
      expect.soft(res.status, page).toBe(200);
    }
    const html = await (await call("admin", "GET", "/editproperties/1-target-road")).text();
    expect(html).toContain("1 Target Road");
  });

  it("refuses a write sent from another site's page, even by the admin", async () => {
    const before = await snapshot();
    const res = await fetch(`${base}/api/listings/properties/1-target-road/availability`, {
      method: "PATCH",
      headers: {
        cookie: cookies.admin,
        origin: "https://evil.example",
        "content-type": "application/json",
      },
      body: JSON.stringify({ currently_available: false }),
    });
    expect(res.status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it("lets the admin make every write", async () => {
    const expected = [
      204, 201, 201, 200, 200, 204, 200, 200, 204, 200, 204, 204, 204, 200, 200, 204, 200, 200,
    ];
    const results: number[] = [];
    for (const [method, url, body] of await writes()) {
      const res = await call(
        "admin",
        method,
        url,
        body && "url" in body ? { url: imageUrl } : body,
      );
      results.push(res.status);
    }
    expect(results).toEqual(expected);
    const left = await db.query<{ id: string }>("SELECT id FROM listings ORDER BY id");
    expect(left.map((r) => r.id)).toEqual([
      "2-target-road",
      "5-csv-lane",
      "9-intruder-lane",
      "9-intruder-lane",
    ]);
    const [settings] = await db.query<{ content: { name?: string } }>(
      "SELECT content FROM site_settings",
    );
    expect(settings?.content.name).toBe("Intruder Leasing");
  });
});
