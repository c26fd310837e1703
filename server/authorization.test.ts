// Who may change what: every write endpoint and every admin page, asked by an anonymous visitor,
// a signed-in non-admin and an admin, through the whole app (real sessions, real router). The
// online application's pages are open to everyone alike; its staff pages are the admin's.
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import { DATA_KEY_FILE, parseDataKey } from "~/features/applications/data-key.server";
import { openOutboxLinks } from "~/features/applications/outbox-links.server";
import { readApplication } from "~/features/applications/staff.server";
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

/** A whole application's answers, step by step (docs/behaviour.md §32). */
const APPLICATION_STEPS: [string, Record<string, string>][] = [
  [
    "applicant",
    {
      fullName: "Ana Applicant",
      email: "ana.applicant@example.com",
      phone: "703-555-0142",
      dateOfBirth: "1990-02-03",
      moveIn: `${new Date().getUTCFullYear() + 1}-05-01`,
      occupants: "2",
      listing: "properties/1-target-road",
    },
  ],
  ["residence", { address: "4 Old Road", since: "2020-01-01" }],
  ["employment", { employer: "Acme", monthlyIncome: "5200" }],
  [
    "references",
    {
      "reference.0.name": "Rita Ref",
      "reference.0.phone": "703-555-0101",
      "reference.1.name": "Rob Ref",
      "reference.1.phone": "703-555-0102",
    },
  ],
  ["adults", { "adult.0.name": "Ben Adult", "adult.0.email": "ben.adult@example.com" }],
];

describe("authorisation of writes and admin pages", () => {
  let db: Db;
  let hub: LiveHub;
  let env: Env;
  let root: string;
  let dataDir: string;
  let base: string;
  let server: http.Server;
  const cookies: Record<Who, string> = { anonymous: "", member: "", admin: "" };
  let imageUrl = "";
  /** The submitted application (its main applicant's and the other adult's links, a document). */
  const application = { id: 0, documentId: 0, token: "", adultToken: "" };
  /** Set when a request was never answered (the server may be stuck). */
  let stuck = false;

  beforeAll(async () => {
    db = await openDb({ dataDir: "memory://" });
    hub = await LiveHub.start(db);
    root = await fs.mkdtemp(path.join(os.tmpdir(), "authz-test-"));
    // The applications' data key and private documents (apart from the photos' folder).
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "authz-data-"));
    const images = new DiskImageStore(root);
    server = http.createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    env = readEnv({ NODE_ENV: "development", PUBLIC_URL: base, DATA_DIR: dataDir });
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

    // A submitted application for the property, with a document and another adult.
    let next = "/rental-application/apply";
    for (const [step, fields] of APPLICATION_STEPS) {
      const res = await call("anonymous", "POST", next, form({ ...fields, step, intent: "next" }));
      expect(res.status, `${step}: ${(await res.text()).slice(0, 500)}`).toBe(303);
      if (step === "applicant") {
        application.token = /token=([\w-]{43})/.exec(res.headers.get("location") ?? "")?.[1] ?? "";
        next = `/rental-application/continue?token=${application.token}`;
      }
    }
    const upload = form({ step: "documents", intent: "upload", kind: "id" });
    upload.append("file", new Blob([new Uint8Array(await jpegWithGps(64, 48))]), "id.jpg");
    expect((await call("anonymous", "POST", next, upload)).status).toBe(303);
    const finish: Record<string, string>[] = [
      { step: "documents", intent: "next" },
      { step: "review", intent: "submit", confirm: "on" },
    ];
    for (const fields of finish) {
      const res = await call("anonymous", "POST", next, form(fields));
      expect(res.status, fields.intent).toBe(303);
    }
    const [document] = await db.query<{ id: number; applicationId: number }>(
      `SELECT d.id::int AS id, p.application_id::int AS "applicationId"
       FROM application_documents d JOIN applicants p ON p.id = d.applicant_id`,
    );
    application.id = document?.applicationId ?? 0;
    application.documentId = document?.id ?? 0;
    // The other adult's link is sealed in the outbox (docs/decisions/0074): opened with the key.
    const [adultMail] = await db.query<{ ref: string; sealed: Uint8Array }>(
      "SELECT ref, sealed_links AS sealed FROM outbox WHERE kind = 'application-adult'",
    );
    const dataKey = parseDataKey(await fs.readFile(path.join(dataDir, DATA_KEY_FILE), "utf8"));
    const [adultLink] = openOutboxLinks(
      dataKey,
      Buffer.from(adultMail?.sealed ?? []),
      adultMail?.ref ?? "",
    );
    application.adultToken = /token=([\w-]{43})/.exec(adultLink ?? "")?.[1] ?? "";
    expect(application.adultToken).not.toBe("");
  });

  afterAll(async () => {
    server?.closeAllConnections();
    server?.close();
    // (A database left waiting forever by a request would not close.)
    if (!stuck) {
      await hub?.close();
      await db?.close();
    }
    await fs.rm(root, { recursive: true, force: true });
    await fs.rm(dataDir, { recursive: true, force: true });
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

  function form(fields: Record<string, string>) {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.append(k, v);
    return body;
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
    // 'Import CSV' on /admin/listings: its dry run, then the import (docs/behaviour.md §25).
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

  const adminPages = () => [
    "/addproperty",
    "/addnewconstruction",
    "/editproperties/1-target-road",
    "/edit-construction/2-target-road",
    "/admin/staff",
    "/admin/site",
    "/admin/deleted",
    "/admin/listings",
    "/admin/outbox",
    "/admin/status",
    "/admin/feeds",
    "/admin/inbox",
    "/properties/1-target-road/history",
    "/new-construction/2-target-road/history",
    "/admin/applications",
    `/admin/applications/${application.id}`,
  ];

  /** An application's file: its PDF and its document (personal data, as attachments). */
  const applicationFiles = () => [
    `/admin/applications/${application.id}/pdf`,
    `/admin/applications/${application.id}/documents/${application.documentId}`,
  ];

  /** What an application is, as stored: its row, its people, documents, history and e-mails. */
  async function applicationState() {
    return {
      applications: await db.query("SELECT * FROM applications ORDER BY id"),
      applicants: await db.query("SELECT * FROM applicants ORDER BY id"),
      documents: await db.query("SELECT * FROM application_documents ORDER BY id"),
      events: await db.query("SELECT * FROM application_events ORDER BY id"),
      outbox: await db.query("SELECT id FROM outbox ORDER BY id"),
      files: (await fs.readdir(path.join(dataDir, "private"), { recursive: true })).sort(),
    };
  }

  /** The staff's actions on the application (docs/behaviour.md §32): status and notes. */
  const staffActions = () => [
    form({ intent: "status", status: "approved" }),
    form({ intent: "status", status: "under-review" }),
    form({ intent: "note", notes: "Written by someone" }),
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
    // The staff page's own action (add) is refused too.
    const grant = new FormData();
    grant.append("intent", "add");
    grant.append("role", "owner");
    grant.append("email", "intruder@example.com");
    expect((await call(who, "POST", "/admin/staff", grant)).status).toBe(404);
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
    // And an application's (status, with its e-mail to the applicant; notes), and its files'
    // routes: nothing changes, nothing is e-mailed, nobody is recorded as having looked.
    const applicationBefore = await applicationState();
    for (const body of staffActions()) {
      const res = await call(who, "POST", `/admin/applications/${application.id}`, body);
      expect.soft(res.status, String(body.get("intent"))).toBe(404);
    }
    // The files' routes have no action: 404 for every method, as the inbox's CSV. (The list
    // has none either: 405, as every admin list page answers a POST, the admin's too.)
    for (const url of applicationFiles()) {
      expect.soft((await call(who, "POST", url, form({ intent: "status" }))).status, url).toBe(404);
    }
    const list = await call(who, "POST", "/admin/applications", form({ intent: "status" }));
    expect.soft(list.status, "/admin/applications").toBe(405);
    expect.soft(await list.text()).not.toContain("Ana Applicant");
    expect(await applicationState()).toEqual(applicationBefore);
    expect(await snapshot()).toEqual(before);
  });

  it.each(["anonymous", "member"] as const)(
    "answers every admin page with the site's 404 page for %s",
    async (who) => {
      for (const page of adminPages()) {
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

  it("gives an application's PDF and documents (personal data) to the admin only", async () => {
    const before = await applicationState();
    for (const who of ["anonymous", "member"] as const) {
      for (const url of applicationFiles()) {
        const res = await call(who, "GET", url);
        expect.soft(res.status, `${who} ${url}`).toBe(404);
        expect.soft(res.headers.get("content-disposition"), `${who} ${url}`).toBeNull();
        const body = Buffer.from(await res.arrayBuffer());
        expect.soft(body.includes(Buffer.from("%PDF-")), `${who} ${url}`).toBe(false);
        expect.soft(body.includes(Buffer.from([0xff, 0xd8, 0xff])), `${who} ${url}`).toBe(false);
        expect.soft(body.toString(), `${who} ${url}`).not.toContain("Ana Applicant");
      }
    }
    expect(await applicationState()).toEqual(before);
    const pdf = await call("admin", "GET", applicationFiles()[0] as string);
    expect.soft(pdf.status).toBe(200);
    expect.soft(pdf.headers.get("content-type")).toBe("application/pdf");
    expect.soft(pdf.headers.get("content-disposition")).toMatch(/^attachment; /);
    const document = await call("admin", "GET", applicationFiles()[1] as string);
    expect(document.status).toBe(200);
    expect(document.headers.get("content-type")).toBe("image/jpeg");
    // Named from its kind and checked type, never the uploaded name.
    expect(document.headers.get("content-disposition")).toMatch(
      /^attachment; filename="id-\d+\.jpg"$/,
    );
    const bytes = Buffer.from(await document.arrayBuffer());
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it("answers the online application's pages alike for everyone, without a 5xx", async () => {
    const { token, adultToken } = application;
    const link = (t: string, query = "") => `/rental-application/continue?token=${t}${query}`;
    const bad = "A".repeat(43);
    const reads: [string, number][] = [
      ["/rental-application/apply", 200],
      ["/rental-application/apply?address=1%20Target%20Road", 200],
      [link(token), 200],
      [link(token, "&done=1"), 200],
      [link(token, "&withdraw=1"), 200],
      [link(adultToken), 200],
      [link(adultToken, "&step=employment"), 200],
      [link(bad), 404],
      ["/rental-application/continue", 404],
    ];
    const writes: [string, FormData, number][] = [
      // A first step that is not filled in, and the submitted application's closed steps.
      ["/rental-application/apply", form({ step: "applicant", intent: "next" }), 400],
      [link(token), form({ step: "residence", intent: "next", address: "x" }), 409],
      [link(token), form({ step: "review", intent: "submit", confirm: "on" }), 409],
      [link(token), form({ step: "documents", intent: "remove", document: "1" }), 303],
      [link(adultToken), form({ step: "review", intent: "submit" }), 400],
      [link(bad), form({ step: "applicant", intent: "next" }), 404],
      [link(bad), form({ intent: "withdraw" }), 404],
    ];
    const before = await applicationState();
    for (const who of ["anonymous", "member", "admin"] as const) {
      for (const [url, status] of reads) {
        const res = await call(who, "GET", url);
        expect.soft(res.status, `${who} GET ${url}`).toBe(status);
        await res.arrayBuffer();
      }
      for (const [url, body, status] of writes) {
        const res = await call(who, "POST", url, body);
        expect.soft(res.status, `${who} POST ${url} ${body.get("intent")}`).toBe(status);
        await res.arrayBuffer();
      }
    }
    // None of it changed the submitted application, nor its document.
    expect(await applicationState()).toEqual(before);
    // And each can start an application of their own: the same answer for everyone.
    for (const who of ["anonymous", "member", "admin"] as const) {
      const [, fields] = APPLICATION_STEPS[0] ?? [];
      const res = await call(
        who,
        "POST",
        "/rental-application/apply",
        form({ ...fields, step: "applicant", intent: "next" }),
      );
      expect.soft(res.status, who).toBe(303);
      expect
        .soft(res.headers.get("location"), who)
        .toMatch(/^\/rental-application\/continue\?token=[\w-]{43}&step=residence$/);
    }
  });

  it("lets the admin open every admin page", async () => {
    for (const page of adminPages()) {
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

  it("lets the admin set an application's status and notes", async () => {
    const answers: [number, string][] = [];
    for (const body of staffActions()) {
      const res = await call("admin", "POST", `/admin/applications/${application.id}`, body);
      const html = await res.text();
      answers.push([
        res.status,
        /Status saved\.|Note saved\./.exec(html)?.[0] ?? html.slice(0, 300),
      ]);
    }
    expect(answers).toEqual([
      [200, "Status saved."],
      [200, "Status saved."],
      [200, "Note saved."],
    ]);
    const [row] = await db.query<{ status: string; notes: string }>(
      "SELECT status, notes FROM applications WHERE id = $1",
      [application.id],
    );
    // The note is sealed (docs/decisions/0074): nothing of it in clear.
    expect(row).toEqual({ status: "under-review", notes: "" });
    const dataKey = parseDataKey(await fs.readFile(path.join(dataDir, DATA_KEY_FILE), "utf8"));
    const record = await readApplication(db, dataKey, application.id, null);
    expect(record?.notes).toBe("Written by someone");
    // The decision e-mailed the applicant.
    const decided = await db.query<{ to: string[] }>(
      "SELECT to_addresses AS to FROM outbox WHERE ref = $1 AND kind NOT IN ('application-received', 'application-adult', 'application-staff')",
      [`application:${application.id}`],
    );
    expect(decided.map((m) => m.to)).toEqual([["ana.applicant@example.com"]]);
  });

  it("answers 'Save and finish later' alike for everyone, and e-mails each their link", async () => {
    // Last: a request that never answers leaves the server unable to answer anything else.
    const answers: Record<string, [number, string]> = {};
    for (const who of ["anonymous", "member", "admin"] as const) {
      if (stuck) break;
      const headers: Record<string, string> = cookies[who] ? { cookie: cookies[who] } : {};
      const res = await fetch(`${base}/rental-application/apply`, {
        method: "POST",
        headers,
        body: form({
          fullName: `Later ${who}`,
          email: `later.${who}@example.com`,
          intent: "later",
        }),
        redirect: "manual",
        signal: AbortSignal.timeout(5_000),
      }).catch((error: Error) => error);
      stuck = res instanceof Error;
      answers[who] =
        res instanceof Error
          ? [0, `no answer: ${res.message}`]
          : [res.status, res.headers.get("location")?.replace(/token=[\w-]{43}/, "token=…") ?? ""];
    }
    const saved = [303, "/rental-application/continue?token=…&step=applicant&saved=1"];
    expect(answers).toEqual({ anonymous: saved, member: saved, admin: saved });
    const mail = await db.query<{ to: string[] }>(
      "SELECT to_addresses AS to FROM outbox WHERE kind = 'application-link' ORDER BY id",
    );
    expect(mail.map((m) => m.to)).toEqual([
      ["later.anonymous@example.com"],
      ["later.member@example.com"],
      ["later.admin@example.com"],
    ]);
  });
});
