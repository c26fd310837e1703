// The authorisation matrix (docs/behaviour.md §6, "Staff roles"), generated from the permission
// table: every staff route and API call, asked by every role and by a member and a visitor,
// through the whole app. What each role has is checked against the roles' description in
// app/features/auth/staff-guard.server.test.ts; here, that each route asks for its permission,
// that a refusal is the documented answer, and that refusals change nothing.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { can, type Permission, ROLES, type Role } from "~/features/auth/permissions";
import { ListingWrites } from "~/features/listings/listing-writes.server";
import { startTestApp, type TestApp } from "../tests/support/test-app";

type Who = Role | "member" | "anonymous";
const EVERYONE: Who[] = [...ROLES, "member", "anonymous"];

interface Entry {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  permission: Permission;
  /** page: 404 page when refused; api: 401/403; action: a page's form, 404 when refused. */
  kind: "page" | "api" | "action";
  body?: () => BodyInit;
  type?: string;
}

const P = "1-matrix-road";
const C = "2-matrix-road";
const form = (fields: Record<string, string>) => () => new URLSearchParams(fields);
const FORM = "application/x-www-form-urlencoded";
const JSON_TYPE = "application/json";
const json = (value: unknown) => () => JSON.stringify(value);

/** Every staff route of app/routes.ts and every API call, with the permission it needs. */
const MATRIX: Entry[] = [
  { method: "GET", path: "/addproperty", permission: "listings:write", kind: "page" },
  { method: "GET", path: "/addnewconstruction", permission: "listings:write", kind: "page" },
  { method: "GET", path: `/editproperties/${P}`, permission: "listings:write", kind: "page" },
  { method: "GET", path: `/edit-construction/${C}`, permission: "listings:write", kind: "page" },
  { method: "GET", path: "/admin/staff", permission: "staff", kind: "page" },
  { method: "GET", path: "/admin/leasing-agents", permission: "agents", kind: "page" },
  {
    method: "POST",
    path: "/admin/leasing-agents",
    permission: "agents",
    kind: "action",
    body: form({ intent: "add", email: "leasing-agent@example.com", address: "1 Matrix Road" }),
    type: FORM,
  },
  { method: "GET", path: "/admin/site", permission: "site:write", kind: "page" },
  { method: "GET", path: "/admin/deleted", permission: "listings:write", kind: "page" },
  { method: "GET", path: "/admin/listings", permission: "listings:read", kind: "page" },
  { method: "GET", path: "/admin/outbox", permission: "outbox", kind: "page" },
  { method: "GET", path: "/admin/status", permission: "status", kind: "page" },
  { method: "GET", path: "/admin/activity", permission: "activity", kind: "page" },
  { method: "GET", path: "/admin/feeds", permission: "feeds:read", kind: "page" },
  { method: "GET", path: "/admin/inbox", permission: "leads", kind: "page" },
  { method: "GET", path: "/admin/inbox/export", permission: "leads", kind: "page" },
  { method: "GET", path: "/admin/showings", permission: "leads", kind: "page" },
  { method: "GET", path: "/admin/showings/hours", permission: "listings:write", kind: "page" },
  {
    method: "POST",
    path: "/admin/showings/hours",
    permission: "listings:write",
    kind: "action",
    body: form({ slotMinutes: "20" }),
    type: FORM,
  },
  { method: "GET", path: "/admin/applications", permission: "applications", kind: "page" },
  { method: "GET", path: `/properties/${P}/history`, permission: "listings:read", kind: "page" },
  {
    method: "GET",
    path: `/new-construction/${C}/history`,
    permission: "listings:read",
    kind: "page",
  },
  { method: "GET", path: "/account", permission: "account", kind: "page" },
  // Page actions, each with a harmless form its role would have refused or answered.
  {
    method: "POST",
    path: "/admin/staff",
    permission: "staff",
    kind: "action",
    body: form({ intent: "add", email: "x@example.com", role: "nobody" }),
    type: FORM,
  },
  {
    method: "POST",
    path: "/admin/inbox",
    permission: "leads",
    kind: "action",
    body: form({ intent: "nothing" }),
    type: FORM,
  },
  {
    method: "POST",
    path: "/admin/inbox",
    permission: "people:erase",
    kind: "action",
    body: form({ intent: "erase", email: "nobody-at-all@example.com" }),
    type: FORM,
  },
  // The JSON API.
  { method: "GET", path: "/api/listings-csv", permission: "listings:read", kind: "api" },
  {
    method: "POST",
    path: `/api/listings/properties/${P}/still-available`,
    permission: "listings:availability",
    kind: "api",
  },
  {
    method: "PATCH",
    path: `/api/listings/properties/${P}/availability`,
    permission: "listings:availability",
    kind: "api",
    body: json({ currently_available: true }),
    type: JSON_TYPE,
  },
  {
    method: "PUT",
    path: `/api/listings/newConstruction/${C}/featured`,
    permission: "listings:write",
    kind: "api",
    body: json({ featured: "not a boolean" }),
    type: JSON_TYPE,
  },
  {
    method: "POST",
    path: "/api/listings/properties",
    permission: "listings:write",
    kind: "api",
    body: () => new FormData(),
  },
  {
    method: "PUT",
    path: `/api/listings/properties/${P}`,
    permission: "listings:write",
    kind: "api",
    body: json({}),
    type: JSON_TYPE,
  },
  {
    method: "DELETE",
    path: `/api/listings/properties/${P}/images`,
    permission: "listings:write",
    kind: "api",
    body: json({}),
    type: JSON_TYPE,
  },
  {
    method: "POST",
    path: `/api/listings/properties/${P}/history/999/restore`,
    permission: "listings:write",
    kind: "api",
  },
  {
    method: "DELETE",
    path: `/api/listings/properties/${P}/history/photos`,
    permission: "listings:erase",
    kind: "api",
    body: json({}),
    type: JSON_TYPE,
  },
  { method: "DELETE", path: "/api/deleted/999", permission: "listings:erase", kind: "api" },
  { method: "POST", path: "/api/deleted/999/restore", permission: "listings:write", kind: "api" },
  {
    method: "POST",
    path: "/api/listings-csv/check",
    permission: "listings:write",
    kind: "api",
    body: () => "collection,address\r\n",
    type: "text/csv",
  },
  { method: "PUT", path: "/api/site", permission: "site:write", kind: "api" },
  // 'Add a passkey' (docs/behaviour.md §6, "Staff sign-in"): any staff member, for themselves.
  {
    method: "POST",
    path: "/auth/passkey/add/options",
    permission: "account",
    kind: "api",
    body: json({}),
    type: JSON_TYPE,
  },
  {
    method: "POST",
    path: "/auth/passkey/add",
    permission: "account",
    kind: "api",
    body: json({ credential: null }),
    type: JSON_TYPE,
  },
];

describe("the authorisation matrix: every role × every staff route and method", () => {
  let t: TestApp;
  const cookies = new Map<Who, string>();
  beforeAll(async () => {
    t = await startTestApp();
    const writes = new ListingWrites(t.db, t.images);
    const fields = {
      bedrooms: 2,
      bathrooms: 1,
      description: "Quiet.",
      thumbnail_description: "Front",
      property_type: "Residential",
    };
    await writes.add("properties", { ...fields, address: "1 Matrix Road" } as never, [], [], null);
    await writes.add("newConstruction", { ...fields, address: "2 Matrix Road" } as never, [], []);
    for (const role of ROLES) cookies.set(role, await t.signIn(`${role}@example.com`, { role }));
    cookies.set("member", await t.signIn("member@example.com"));
    cookies.set("anonymous", "");
  });
  afterAll(async () => t?.close());

  const call = (who: Who, entry: Entry) => {
    const headers: Record<string, string> = {};
    const cookie = cookies.get(who);
    if (cookie) headers.cookie = cookie;
    if (entry.type) headers["content-type"] = entry.type;
    return fetch(`${t.base}${entry.path}`, {
      method: entry.method,
      headers,
      body: entry.body?.(),
      redirect: "manual",
    });
  };
  const allowed = (who: Who, permission: Permission) =>
    who !== "member" && who !== "anonymous" && can({ role: who }, permission);

  /** What refusals must leave as it was. */
  const snapshot = async () => ({
    listings: await t.db.query(
      "SELECT collection, id, version, currently_available FROM listings ORDER BY 1, 2",
    ),
    admins: await t.db.query("SELECT email, role FROM admins ORDER BY email"),
    site: await t.db.query("SELECT content FROM site_settings"),
    deleted: await t.db.query("SELECT entry FROM deleted_listings ORDER BY entry"),
    history: await t.db.query("SELECT seq FROM listing_history ORDER BY seq"),
    outbox: await t.db.query("SELECT id FROM outbox ORDER BY id"),
    featured: await t.db.query("SELECT content->'featured' AS f FROM site_settings"),
    passkeys: await t.db.query("SELECT id FROM staff_passkeys ORDER BY id"),
    agentListings: await t.db.query("SELECT * FROM staff_listings ORDER BY 1, 2, 3"),
  });

  it("lists every staff route of app/routes.ts", () => {
    const routes = fs.readFileSync(path.resolve("app/routes.ts"), "utf8");
    const admin = routes.slice(routes.indexOf("// Admin-only"));
    const paths = [...admin.matchAll(/route\("([^"]+)"/g)].map(([, p = ""]) => p);
    const covered = new Set(MATRIX.map((e) => e.path.slice(1)));
    // The application's pages need a submitted application: server/authorization.test.ts.
    const elsewhere = /^admin\/applications\/:id/;
    for (const p of paths) {
      if (p === "*" || elsewhere.test(p)) continue;
      const pattern = new RegExp(`^${p.replace(/:[a-zA-Z]+/g, "[^/]+")}$`);
      expect(
        [...covered].some((c) => pattern.test(c)),
        p,
      ).toBe(true);
    }
  });

  it("refuses everyone the table does not name, with the documented answer, changing nothing", async () => {
    const before = await snapshot();
    let refusals = 0;
    for (const entry of MATRIX) {
      for (const who of EVERYONE) {
        if (allowed(who, entry.permission)) continue;
        refusals++;
        const res = await call(who, entry);
        const where = `${who} ${entry.method} ${entry.path}`;
        if (entry.kind === "api") {
          expect.soft(res.status, where).toBe(who === "anonymous" ? 401 : 403);
        } else {
          expect.soft(res.status, where).toBe(404);
        }
      }
    }
    expect(refusals).toBeGreaterThan(100);
    expect(await snapshot()).toEqual(before);
  });

  it("lets through everyone the table names", async () => {
    for (const entry of MATRIX) {
      for (const who of EVERYONE) {
        if (!allowed(who, entry.permission)) continue;
        const res = await call(who, entry);
        const where = `${who} ${entry.method} ${entry.path}`;
        if (entry.kind === "page") expect.soft(res.status, where).toBe(200);
        else if (entry.kind === "action") expect.soft(res.status, where).not.toBe(404);
        else expect.soft([401, 403], where).not.toContain(res.status);
        expect.soft(res.status, where).toBeLessThan(500);
      }
    }
  });
});
