// Access lines, request ids and the health checks
// (docs/decisions/0034-structured-logs-request-ids-and-health.md).
import fs from "node:fs/promises";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb } from "~/shared/db.server";
import { captureLogs, LEVEL } from "../tests/support/logs";
import { startTestApp, type TestApp } from "../tests/support/test-app";
import { requestLog } from "./request-log";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("request ids and access lines", () => {
  const logs = captureLogs();
  let direct: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    direct = await startTestApp();
    proxied = await startTestApp({ env: { TRUST_PROXY: "loopback" } });
  });
  afterAll(async () => {
    await direct?.close();
    await proxied?.close();
    logs.restore();
  });

  const accessLines = (id: string) => logs.lines.filter((l) => l.res && l.reqId === id);

  it("gives every answer a new id and logs one access line with it", async () => {
    for (const url of ["/about", "/about", "/api/listings/properties", "/no-such-page"]) {
      // Twice /about: the second is a kept page, answered before Express; it is logged too.
      const res = await fetch(direct.base + url);
      await res.arrayBuffer();
      const id = res.headers.get("x-request-id") as string;
      expect(id).toMatch(UUID);
      await expect.poll(() => accessLines(id)).toHaveLength(1);
      expect(accessLines(id)[0]).toMatchObject({
        level: LEVEL.info,
        req: { method: "GET", url },
        res: { statusCode: res.status },
      });
      expect(accessLines(id)[0]?.responseTime).toBeTypeOf("number");
    }
  });

  it("never takes a client's X-Request-Id without a trusted proxy", async () => {
    const res = await fetch(`${direct.base}/about`, { headers: { "X-Request-Id": "planted" } });
    expect(res.headers.get("x-request-id")).toMatch(UUID);
    expect(logs.lines.some((l) => l.reqId === "planted")).toBe(false);
  });

  it("takes the id a trusted proxy sets (TRUST_PROXY), unless it is malformed", async () => {
    const fromProxy = "0f8c2d9e4b7a4c1d9e2f3a4b5c6d7e8f";
    const res = await fetch(`${proxied.base}/about`, { headers: { "X-Request-Id": fromProxy } });
    expect(res.headers.get("x-request-id")).toBe(fromProxy);
    await expect.poll(() => accessLines(fromProxy)).toHaveLength(1);

    const bad = await fetch(`${proxied.base}/about`, {
      headers: { "X-Request-Id": "x".repeat(500) },
    });
    expect(bad.headers.get("x-request-id")).toMatch(UUID);
  });

  it("logs the client's address a trusted proxy names, not the proxy's (TRUST_PROXY)", async () => {
    const headers = { "X-Forwarded-For": "198.51.100.23" };
    // (Not followed: /about redirects a parameter it does not use to its canonical URL.)
    const res = await fetch(`${proxied.base}/about?code=c0de`, { headers, redirect: "manual" });
    const id = res.headers.get("x-request-id") as string;
    await expect.poll(() => accessLines(id)).toHaveLength(1);
    expect(accessLines(id)[0]?.req).toMatchObject({
      url: "/about?code=[redacted]",
      remoteAddress: "198.51.100.23",
    });
  });

  it("logs health probes at debug level only", async () => {
    const res = await fetch(`${direct.base}/healthz`);
    const id = res.headers.get("x-request-id") as string;
    await expect.poll(() => accessLines(id)).toMatchObject([{ level: LEVEL.debug }]);
  });
});

describe("the access line of an answer that failed with an error", () => {
  it("has the same fields as every access line, at error level, with the error", async () => {
    const logs = captureLogs();
    const logRequest = requestLog(() => false);
    let id = "";
    const server = http.createServer((req, res) => {
      id = logRequest(req, res);
      res.emit("error", new Error("the socket broke"));
      res.end("x");
    });
    try {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as { port: number };
      await (await fetch(`http://127.0.0.1:${port}/a?b=%22c%22`)).arrayBuffer();
      await expect.poll(() => logs.lines.filter((l) => l.reqId === id)).toHaveLength(1);
      expect(logs.lines.find((l) => l.reqId === id)).toMatchObject({
        level: LEVEL.error,
        req: { id, method: "GET", url: "/a?b=%22c%22", remoteAddress: "127.0.0.1" },
        res: { statusCode: 200 },
        err: { message: "the socket broke" },
        msg: "GET /a?b=%22c%22 200 failed",
      });
    } finally {
      server.close();
      logs.restore();
    }
  });
});

describe("a refusal by design (docs/operations.md, Logs)", () => {
  it("is explained once at start, and its access lines are not errors", async () => {
    const logs = captureLogs();
    // Production without OIDC settings: sign-in is not configured, /auth/login answers 503.
    const t = await startTestApp({ env: { NODE_ENV: "production" } });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${t.base}/auth/login`);
        expect(res.status).toBe(503);
        expect(await res.text()).toContain("Sign-in is not available.");
        ids.push(res.headers.get("x-request-id") as string);
      }
      for (const id of ids) {
        await expect.poll(() => logs.lines.filter((l) => l.reqId === id)).toHaveLength(1);
        expect(logs.lines.find((l) => l.reqId === id)).toMatchObject({
          level: LEVEL.info,
          req: { method: "GET", url: "/auth/login" },
          res: { statusCode: 503 },
        });
      }
      expect(logs.at(LEVEL.warn, "Sign-in is unavailable")).toHaveLength(1);
      expect(logs.lines.filter((l) => l.level >= LEVEL.error)).toEqual([]);
    } finally {
      await t.close();
      logs.restore();
    }
  });

  it("leaves every other 5xx an error", async () => {
    const logs = captureLogs();
    const logRequest = requestLog(() => false);
    let id = "";
    const server = http.createServer((req, res) => {
      id = logRequest(req, res);
      res.statusCode = 503;
      res.end("busy");
    });
    try {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as { port: number };
      await (await fetch(`http://127.0.0.1:${port}/x`)).arrayBuffer();
      await expect.poll(() => logs.lines.filter((l) => l.reqId === id)).toHaveLength(1);
      expect(logs.lines.find((l) => l.reqId === id)).toMatchObject({
        level: LEVEL.error,
        msg: "GET /x 503 failed",
      });
    } finally {
      server.close();
      logs.restore();
    }
  });
});

describe("/healthz and /readyz", () => {
  let db: Db;
  let t: TestApp;
  let databaseDown = false;
  beforeAll(async () => {
    db = await openDb({ dataDir: "memory://" });
    // The database as the app sees it, made to fail on demand (a PostgreSQL outage).
    const flaky: Db = {
      ...db,
      query: (sql, params) =>
        databaseDown ? Promise.reject(new Error("connection terminated")) : db.query(sql, params),
    };
    t = await startTestApp({ db: flaky });
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  it("are both fine when database and storage answer", async () => {
    const health = await fetch(`${t.base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", database: "pglite" });
    const ready = await fetch(`${t.base}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get("cache-control")).toBe("no-store");
    expect(await ready.json()).toEqual({ status: "ready", database: "ok", storage: "ok" });
  });

  it("without the database: the process is healthy but not ready", async () => {
    databaseDown = true;
    try {
      expect((await fetch(`${t.base}/healthz`)).status).toBe(200);
      const ready = await fetch(`${t.base}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({
        status: "unavailable",
        database: "unreachable",
        storage: "ok",
      });
    } finally {
      databaseDown = false;
    }
  });

  it("without photo storage: not ready", async () => {
    // The store's folder replaced by a file: nothing can be written there.
    await fs.rm(t.images.root, { recursive: true, force: true });
    await fs.writeFile(t.images.root, "");
    try {
      const ready = await fetch(`${t.base}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ database: "ok", storage: "unreachable" });
    } finally {
      await fs.rm(t.images.root, { force: true });
      await fs.mkdir(t.images.root);
    }
  });
});
