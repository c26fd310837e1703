// Limits per client address: sign-in starts, writes (API and page actions) and live streams,
// each refused with 429, Retry-After and a clear message; other clients are unaffected.
import http from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb } from "~/shared/db.server";
import { dbTargets } from "../tests/support/db-targets";
import { networkAddress } from "../tests/support/network-address";
import { missing } from "../tests/support/prerequisite";
import { startTestApp, type TestApp } from "../tests/support/test-app";

const lanAddress = networkAddress();

// One database for the whole file: each app below is a fresh server (fresh counters) on it.
let db: Db;
beforeAll(async () => {
  db = await openDb({ dataDir: "memory://" });
});
afterAll(async () => db?.close());

function expectRetryAfter(res: Response, atMostSeconds: number) {
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(atMostSeconds);
}

describe("sign-in starts and writes, with the default limits", () => {
  let t: TestApp;
  let lanBase = "";
  beforeAll(async () => {
    t = await startTestApp({ db, host: "0.0.0.0" });
    lanBase = t.base.replace("127.0.0.1", lanAddress ?? "127.0.0.1");
  });
  afterAll(async () => t?.close());

  const loginFlows = async () =>
    (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM login_flows"))[0]?.n;

  it("refuses the 61st sign-in start in 10 minutes from one address, writing nothing", async () => {
    const limit = t.env.limits.signInsPer10Minutes;
    expect(limit).toBe(60);
    for (let i = 0; i < limit; i++) {
      const res = await fetch(`${t.base}/auth/login`, { redirect: "manual" });
      expect(res.status).toBe(303);
    }
    expect(await loginFlows()).toBe(limit);
    const refused = await fetch(`${t.base}/auth/login`, { redirect: "manual" });
    expect(refused.status).toBe(429);
    expectRetryAfter(refused, 600);
    expect(await refused.text()).toMatch(
      /^Too many sign-in attempts from your network\. Try again in \d+ minutes?\.$/,
    );
    expect(await loginFlows()).toBe(limit);
    // The provider's returns are counted apart: a bogus one is refused (and stored as a
    // refusal) at most as often as sign-ins start.
    for (let i = 0; i < limit; i++) {
      const res = await fetch(`${t.base}/auth/callback?code=x&state=y`, { redirect: "manual" });
      expect(res.status).not.toBe(429);
    }
    const callback = await fetch(`${t.base}/auth/callback?code=x&state=y`, { redirect: "manual" });
    expect(callback.status).toBe(429);
  });

  it.skipIf(missing(!lanAddress && "this machine has no network address"))(
    "still lets another address start signing in",
    async () => {
      const res = await fetch(`${lanBase}/auth/login`, { redirect: "manual" });
      expect(res.status).toBe(303);
    },
  );

  it("refuses writes beyond the per-minute limit: API as JSON, pages as text; reads go on", async () => {
    const limit = t.env.limits.writesPerMinute;
    const patch = () =>
      fetch(`${t.base}/api/listings/properties/x/availability`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ currently_available: true }),
      });
    for (let i = 0; i < limit; i++) expect((await patch()).status).toBe(401);
    const api = await patch();
    expect(api.status).toBe(429);
    expectRetryAfter(api, 60);
    expect(await api.json()).toMatchObject({
      ok: false,
      error: expect.stringMatching(
        /^Too many changes from your network in a short time\. Try again in \d+ seconds?\.$/,
      ),
      reference: api.headers.get("x-request-id"),
    });
    // Page actions and sign-out share the same budget.
    const action = await fetch(`${t.base}/admin/staff`, { method: "POST", body: new FormData() });
    expect(action.status).toBe(429);
    expect(await action.text()).toMatch(/^Too many changes from your network/);
    expect((await fetch(`${t.base}/auth/logout`, { method: "POST" })).status).toBe(429);
    // Reading is not a write.
    expect((await fetch(`${t.base}/about`)).status).toBe(200);
  });
});

describe("TRUST_PROXY decides whose address a request counts against", () => {
  let t: TestApp;
  afterEach(async () => t?.close());

  const startFrom = (forwardedFor: string) =>
    fetch(`${t.base}/auth/login`, {
      redirect: "manual",
      headers: { "x-forwarded-for": forwardedFor },
    }).then((r) => r.status);

  it("by default the connection's address: a forwarded header changes nothing", async () => {
    t = await startTestApp({ db, env: { SIGN_IN_RATE_LIMIT: "2" } });
    expect([await startFrom("203.0.113.1"), await startFrom("203.0.113.2")]).toEqual([303, 303]);
    expect(await startFrom("203.0.113.3")).toBe(429);
  });

  it("behind a trusted proxy, the client it names", async () => {
    t = await startTestApp({ db, env: { SIGN_IN_RATE_LIMIT: "2", TRUST_PROXY: "loopback" } });
    expect([await startFrom("203.0.113.1"), await startFrom("203.0.113.1")]).toEqual([303, 303]);
    expect(await startFrom("203.0.113.1")).toBe(429);
    expect(await startFrom("203.0.113.2")).toBe(303);
  });
});

describe("page renders that miss the page cache", () => {
  let t: TestApp;
  afterEach(async () => t?.close());

  it("are limited per client with 429 and Retry-After; kept pages and admins are not", async () => {
    t = await startTestApp({ db, env: { RENDER_RATE_LIMIT: "3" } });
    const get = (path: string, cookie?: string) =>
      fetch(t.base + path, { headers: cookie ? { cookie } : {}, redirect: "manual" });
    // Three renders: two pages kept, one not-found page.
    for (const path of ["/about", "/contact", "/no-such-page"]) await (await get(path)).text();
    const refused = await get("/properties");
    expect(refused.status).toBe(429);
    expectRetryAfter(refused, 60);
    expect(await refused.text()).toMatch(
      /^Too many pages asked for from your network in a short time\. Try again in \d+ seconds?\.$/,
    );
    // Kept pages cost no render and are never limited; redirects count like renders
    // (endless URL variants would crowd others out), refused after the limit too.
    for (let i = 0; i < 20; i++) expect((await get("/about")).status).toBe(200);
    const variant = await get("/ABOUT/");
    expect([variant.status, variant.headers.get("location")]).toEqual([429, null]);
    // A busy admin (every page rendered fresh) is not counted.
    const admin = await t.signIn("staff@example.com", { admin: true });
    for (const path of ["/properties", "/new-construction", "/contact", "/"]) {
      expect((await get(path, admin)).status).toBe(200);
    }
    // A signed-in visitor who is no admin is counted like anyone.
    const user = await t.signIn("visitor@example.com");
    expect((await get("/new-construction", user)).status).toBe(429);
  });
});

describe("live streams", () => {
  let t: TestApp;
  const open: http.ClientRequest[] = [];
  afterEach(async () => {
    for (const req of open.splice(0)) req.destroy();
    await t?.close();
  });

  /** Opens /live from `host`; resolves with the status (the stream stays open when 200). */
  function stream(
    host = "127.0.0.1",
  ): Promise<{ status: number; retryAfter: number; body: Promise<string> }> {
    const url = new URL(t.base);
    return new Promise((resolve, reject) => {
      const req = http.get(
        { host, port: url.port, path: "/live?collections=properties", agent: false },
        (res) => {
          const body = new Promise<string>((done) => {
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (c: string) => {
              text += c;
            });
            res.on("end", () => done(text));
          });
          const retryAfter = Number(res.headers["retry-after"] ?? Number.NaN);
          resolve({ status: res.statusCode ?? 0, retryAfter, body });
        },
      );
      req.on("error", reject);
      open.push(req);
    });
  }

  it("caps the streams of one address (default 20), and frees a place when one closes", async () => {
    t = await startTestApp({ db });
    const limit = t.env.limits.liveStreamsPerClient;
    expect(limit).toBe(20);
    for (let i = 0; i < limit; i++) expect((await stream()).status).toBe(200);
    const refused = await stream();
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBeGreaterThan(0);
    expect(await refused.body).toBe(
      "Too many live-update connections from your network. The page works without live updates.",
    );
    open.shift()?.destroy();
    await expect.poll(async () => (await stream()).status).toBe(200);
  });

  it.skipIf(missing(!lanAddress && "this machine has no network address"))(
    "caps the streams of the whole server",
    async () => {
      t = await startTestApp({ db, host: "0.0.0.0", env: { LIVE_STREAMS_TOTAL: "3" } });
      for (let i = 0; i < 3; i++) expect((await stream()).status).toBe(200);
      expect((await stream(lanAddress)).status).toBe(429);
      open.shift()?.destroy();
      await expect.poll(async () => (await stream(lanAddress)).status).toBe(200);
    },
  );
});

describe("with DATABASE_URL, every instance counts against one limit", () => {
  const postgres = dbTargets.find((t) => t.name === "postgres");
  const apps: TestApp[] = [];
  let cleanup: (() => Promise<void>) | undefined;
  afterAll(async () => {
    for (const app of apps) await app.close();
    await cleanup?.();
  });

  const patch = (t: TestApp) =>
    fetch(`${t.base}/api/listings/properties/x/availability`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ currently_available: true }),
    }).then((r) => r.status);
  const signIn = (t: TestApp) =>
    fetch(`${t.base}/auth/login`, { redirect: "manual" }).then((r) => r.status);

  it.runIf(postgres)(
    "two instances on one database: writes and sign-in starts counted once",
    async () => {
      const opened = await (postgres as NonNullable<typeof postgres>).open();
      cleanup = opened.cleanup;
      const url = process.env.TEST_DATABASE_URL as string;
      const limits = { WRITE_RATE_LIMIT: "4", SIGN_IN_RATE_LIMIT: "3" };
      // Without DATABASE_URL each instance counts in its own memory: 3 + 3 writes pass.
      const [c, d] = [
        await startTestApp({ db: opened.db, env: limits }),
        await startTestApp({ db: await (opened.another as () => Promise<Db>)(), env: limits }),
      ];
      apps.push(c, d);
      for (const t of [c, d, c, d, c, d]) expect(await patch(t)).toBe(401);
      // With it, both count in the database: the fifth write from the same client is refused,
      // whichever instance it reaches.
      const env = { ...limits, DATABASE_URL: url };
      const [a, b] = [
        await startTestApp({ db: opened.db, env }),
        await startTestApp({ db: await (opened.another as () => Promise<Db>)(), env }),
      ];
      apps.push(a, b);
      for (const t of [a, b, a, b]) expect(await patch(t)).toBe(401);
      expect(await patch(a)).toBe(429);
      expect(await patch(b)).toBe(429);
      for (const t of [a, b, a]) expect(await signIn(t)).not.toBe(429);
      expect(await signIn(b)).toBe(429);
      const [row] = await opened.db.query<{ n: number }>(
        "SELECT sum(hits)::int AS n FROM rate_counters WHERE key LIKE 'write:%'",
      );
      expect(row?.n).toBe(6);
    },
  );
});
