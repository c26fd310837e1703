// Errors that reach the end of the app: each status answers with its own short text (JSON under
// /api), internals stay in the log, and anything that is not a 4xx/5xx status is a 500.
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type express from "express";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiskImageStore } from "~/features/images/storage.server";
import { LiveHub } from "~/features/live/hub.server";
import { type Db, openDb } from "~/shared/db.server";
import { readEnv } from "~/shared/env.server";
import { captureLogs, LEVEL } from "../tests/support/logs";
import { startTestApp, type TestApp } from "../tests/support/test-app";
import { createApp } from "./app";

/** Stands in for a failing part of the app: /fail/413 fails with status 413, and so on. */
const failing: express.RequestHandler = (req, _res, next) => {
  const match = /^\/fail\/(\w+)$/.exec(req.path);
  if (!match) return next();
  const status = Number(match[1]);
  const error = Object.assign(new Error("secret internals /srv/data"), {
    status: Number.isNaN(status) ? undefined : status,
  });
  next(error);
};

describe("the final error handler, through the whole app", () => {
  const logs = captureLogs();
  let db: Db;
  let hub: LiveHub;
  let base: string;
  let close: () => void;
  beforeAll(async () => {
    db = await openDb({ dataDir: "memory://" });
    hub = await LiveHub.start(db);
    const build = (await import(
      pathToFileURL(path.resolve("build/server/index.js")).href
    )) as ServerBuild;
    const app = await createApp({
      db,
      hub,
      images: new DiskImageStore(path.resolve("build/no-images")),
      env: readEnv({ NODE_ENV: "production" }),
      build,
      // The slot where the development server mounts Vite: here, a part that fails on demand.
      viteMiddleware: failing,
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
    logs.restore();
  });

  it.each([
    [400, "Bad Request"],
    [403, "Forbidden"],
    [404, "Not Found"],
    [405, "Method Not Allowed"],
    [413, "Payload Too Large"],
    [415, "Unsupported Media Type"],
    [429, "Too Many Requests"],
    [500, "Internal Server Error"],
    [503, "Service Unavailable"],
  ])("answers %i with '%s'", async (status, text) => {
    logs.clear();
    const res = await fetch(`${base}/fail/${status}`);
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await res.text()).toBe(text);
    // Server faults are logged with their cause and the request's id (the one the answer
    // carries); refusals of bad requests are not.
    const requestId = res.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const faults = logs.at(LEVEL.error, `GET /fail/${status} failed`);
    expect(faults.length).toBe(status >= 500 ? 1 : 0);
    if (status >= 500) {
      expect(faults[0]?.reqId).toBe(requestId);
      expect(faults[0]?.err?.message).toBe("secret internals /srv/data");
    }
    // And one access line, whatever the status.
    await expect
      .poll(() => logs.lines.filter((l) => l.req?.url === `/fail/${status}` && l.res))
      .toMatchObject([{ reqId: requestId, res: { statusCode: status } }]);
  });

  it.each(["none", "302", "200", "99", "600"])(
    "treats an error without a 4xx/5xx status (%s) as a 500",
    async (status) => {
      const res = await fetch(`${base}/fail/${status}`, { redirect: "manual" });
      expect(res.status).toBe(500);
      const body = await res.text();
      expect(body).toBe("Internal Server Error");
      expect(body).not.toContain("secret");
    },
  );
});

describe("API errors carry their own status and a JSON message", () => {
  let t: TestApp;
  let admin = "";
  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.signIn("boss@example.com", { admin: true });
  });
  afterAll(async () => t?.close());

  it.each([
    ["application/json; charset=latin9", undefined, 415],
    ["application/json", "x-unknown", 415],
  ])(
    "a body the parser refuses (%s, encoding %s) is a %i, not a 500",
    async (type, encoding, status) => {
      const headers: Record<string, string> = { cookie: admin, "content-type": type };
      if (encoding) headers["content-encoding"] = encoding;
      const res = await fetch(`${t.base}/api/listings/properties/x/availability`, {
        method: "PATCH",
        headers,
        body: JSON.stringify({ currently_available: true }),
      });
      expect(res.status).toBe(status);
      expect((await res.json()).error).toMatch(/\w/);
    },
  );
});

describe("finalErrorHandler under /api", () => {
  it("answers JSON with the status text", async () => {
    const { default: express } = await import("express");
    const { finalErrorHandler } = await import("./error-handler");
    const app = express();
    app.use(failing);
    app.use("/api", failing);
    app.use(finalErrorHandler);
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const res = await fetch(`${base}/api/fail/413`);
      expect(res.status).toBe(413);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      // A page action's refusal (docs/architecture.md, "One answer shape") with the API's `error`.
      expect(await res.json()).toEqual({
        ok: false,
        error: "Payload Too Large",
        errors: { form: "Payload Too Large" },
        reference: null,
      });
      const page = await fetch(`${base}/fail/413`);
      expect(await page.text()).toBe("Payload Too Large");
    } finally {
      server.close();
    }
  });
});

describe("the one error handler, for the API and the pages alike", () => {
  // Captured from this block's start (the first block's capture ends with it).
  let logs: ReturnType<typeof captureLogs>;
  let base = "";
  let close = () => {};
  beforeAll(async () => {
    logs = captureLogs();
    const { default: express } = await import("express");
    const { HttpError } = await import("~/shared/http-error.server");
    const { finalErrorHandler } = await import("./error-handler");
    const app = express();
    app.use((_req, res, next) => {
      res.setHeader("X-Request-Id", "req-1");
      next();
    });
    const fail = (error: () => unknown) => (_q: unknown, _s: unknown, next: (e: unknown) => void) =>
      next(error());
    for (const prefix of ["/api", ""]) {
      app.post(`${prefix}/json`, express.json(), (_req, res) => res.json({}));
      app.get(
        `${prefix}/refuse`,
        fail(() => new HttpError(409, "Changed meanwhile.", "stale", "price")),
      );
      app.get(
        `${prefix}/fault`,
        fail(() => new Error("secret internals /srv/data")),
      );
      app.get(
        `${prefix}/down`,
        fail(() => new Error("Connection terminated unexpectedly")),
      );
      app.get(
        `${prefix}/uri`,
        fail(() => new URIError("URI malformed")),
      );
    }
    app.use(finalErrorHandler);
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => {
    close();
    logs.restore();
  });

  it("answers a refusal with its status, message, code and field; nothing is logged", async () => {
    logs.clear();
    const api = await fetch(`${base}/api/refuse`);
    expect(api.status).toBe(409);
    expect(await api.json()).toEqual({
      ok: false,
      error: "Changed meanwhile.",
      errors: { price: "Changed meanwhile." },
      reference: "req-1",
      code: "stale",
      field: "price",
    });
    const page = await fetch(`${base}/refuse`);
    expect([page.status, await page.text()]).toEqual([409, "Changed meanwhile."]);
    expect(logs.at(LEVEL.error)).toEqual([]);
  });

  it("answers the libraries' refusals with their own messages", async () => {
    const json = await fetch(`${base}/api/json`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect([json.status, await json.json()]).toMatchObject([
      400,
      { ok: false, error: "The request body is not valid JSON." },
    ]);
    const uri = await fetch(`${base}/api/uri`);
    expect([uri.status, (await uri.json()).error]).toEqual([
      400,
      "The URL is not valid: a part of it is not correctly percent-encoded.",
    ]);
  });

  it("answers a fault with a generic 500 and the request's id, and logs the cause", async () => {
    logs.clear();
    const api = await fetch(`${base}/api/fault`);
    expect(api.status).toBe(500);
    expect(await api.json()).toEqual({
      ok: false,
      error: "Something went wrong on the server.",
      errors: { form: "Something went wrong on the server." },
      reference: "req-1",
      requestId: "req-1",
    });
    const page = await fetch(`${base}/fault`);
    expect([page.status, await page.text()]).toEqual([500, "Internal Server Error"]);
    expect(page.headers.get("x-request-id")).toBe("req-1");
    const faults = logs.at(LEVEL.error, "failed");
    expect(faults.map((l) => [l.msg, l.err?.message])).toEqual([
      ["GET /api/fault failed", "secret internals /srv/data"],
      ["GET /fault failed", "secret internals /srv/data"],
    ]);
  });

  it("answers a database outage with 503, its message and Retry-After", async () => {
    for (const [path, read] of [
      ["/api/down", async (r: Response) => (await r.json()).error],
      ["/down", (r: Response) => r.text()],
    ] as const) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(await read(res)).toBe(
        "The site cannot reach its database right now. Please try again in a moment.",
      );
    }
  });
});
