// What pages carry in their headers (docs/behaviour.md §13, §32): a header a route sets is kept
// over the pipeline's defaults, on its error page too.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb } from "~/shared/db.server";
import { startTestApp, type TestApp } from "../tests/support/test-app";

const MOVE_IN = `${new Date().getUTCFullYear() + 1}-06-01`;

describe("page headers", () => {
  let t: TestApp;
  let real: Db;
  /** While set, the private link's lookup fails as a database fault would. */
  let failLookups = false;

  beforeAll(async () => {
    real = await openDb({ dataDir: "memory://" });
    const db: Db = {
      ...real,
      query: ((sql: string, params?: unknown[]) =>
        failLookups && sql.includes("p.token_hash = $1")
          ? Promise.reject(new Error("lookup failed"))
          : real.query(sql, params)) as Db["query"],
    };
    t = await startTestApp({ db });
  });
  afterAll(async () => {
    await t?.close();
    await real?.close();
  });

  async function privateLink(): Promise<string> {
    const res = await fetch(`${t.base}/rental-application/apply`, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({
        fullName: "Hedda Header",
        email: "hedda.header@example.com",
        phone: "703-555-0142",
        dateOfBirth: "1988-04-02",
        moveIn: MOVE_IN,
        occupants: "1",
        intent: "next",
        step: "applicant",
      }),
    });
    expect(res.status).toBe(303);
    return res.headers.get("location") ?? "";
  }

  it("sends the private link's page with its own no-store and no-referrer", async () => {
    const link = await privateLink();
    expect(link).toMatch(/^\/rental-application\/continue\?token=/);
    for (const method of ["GET", "HEAD"]) {
      const res = await fetch(`${t.base}${link}`, { method });
      expect(res.status).toBe(200);
      expect({ method, cacheControl: res.headers.get("cache-control") }).toEqual({
        method,
        cacheControl: "no-store",
      });
      expect({ method, referrer: res.headers.get("referrer-policy") }).toEqual({
        method,
        referrer: "no-referrer",
      });
    }
    // A refused step (400) and the data of a client-side navigation: the same.
    const refused = await fetch(`${t.base}${link}`, {
      method: "POST",
      body: new URLSearchParams({ step: "residence", intent: "next", address: "" }),
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(refused.headers.get("referrer-policy")).toBe("no-referrer");
    const data = await fetch(`${t.base}${link.replace("continue?", "continue.data?")}`);
    expect(data.headers.get("cache-control")).toBe("no-store");
    expect(data.headers.get("referrer-policy")).toBe("no-referrer");
    // Other pages keep the defaults.
    const about = await fetch(`${t.base}/about`);
    expect(about.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(about.headers.get("cache-control")).toBe("private, no-cache");
  });

  it("keeps them on the private link's error page", async () => {
    const link = await privateLink();
    failLookups = true;
    try {
      const res = await fetch(`${t.base}${link}`);
      expect(res.status).toBe(500);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    } finally {
      failLookups = false;
    }
  });

  it("never lets staff's pages with personal data be stored", async () => {
    const cookie = await t.signIn("staff.headers@example.com", { admin: true });
    for (const path of [
      "/admin/inbox",
      "/admin/inbox.data",
      "/admin/applications",
      "/admin/applications.data",
      "/admin/outbox",
      "/admin/staff",
      "/admin/listings",
      "/properties",
    ]) {
      const res = await fetch(`${t.base}${path}`, { headers: { cookie } });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect({ path, cacheControl: res.headers.get("cache-control") }).toEqual({
        path,
        cacheControl: "no-store",
      });
    }
    // An action's answer too (here a refused one).
    const posted = await fetch(`${t.base}/admin/outbox`, {
      method: "POST",
      headers: { cookie },
      body: new URLSearchParams({ intent: "no-such-intent" }),
      redirect: "manual",
    });
    expect(posted.headers.get("cache-control")).toBe("no-store");
    // A signed-in visitor who is not staff, and everyone signed out: the usual revalidation.
    const member = await t.signIn("member.headers@example.com");
    const own = await fetch(`${t.base}/properties`, { headers: { cookie: member } });
    expect(own.headers.get("cache-control")).toBe("private, no-cache");
  });

  it("hands the visitors of a kept page no shared nonce: its scripts are allowed by hash", async () => {
    const first = await fetch(`${t.base}/contact`);
    const second = await fetch(`${t.base}/contact`);
    // The second answer is the kept copy of the first (same bytes, same headers).
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    for (const res of [first, second]) {
      const policy = res.headers.get("content-security-policy") ?? "";
      const html = await res.text();
      expect(policy).not.toContain("'nonce-");
      expect(html).not.toMatch(/<script[^>]*\snonce=/);
      const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].filter(
        (m) => !/\ssrc=/.test(m[1] as string) && !/ld\+json/.test(m[1] as string),
      );
      expect(inline.length).toBeGreaterThan(1);
      for (const m of inline) {
        const hash = createHash("sha256")
          .update(m[2] as string, "utf8")
          .digest("base64");
        expect(policy).toContain(`'sha256-${hash}'`);
      }
    }
  });
});
