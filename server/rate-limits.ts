// Per-client limits on what costs the server: sign-in starts (each writes a login-flow row),
// writes (API and page actions) and live streams. Answered with 429, Retry-After and a message.
// With DATABASE_URL the sign-in and write counters are kept in the database, so several
// instances apply one limit (server/rate-limit-store.ts, docs/decisions/0063-limits-shared-by-
// instances.md); on the embedded database (one process) they live in this process's memory.
import express, { type Request, type Response } from "express";
import { MemoryStore, type Options, rateLimit } from "express-rate-limit";
import { sendApiRefusal } from "~/shared/api-refusal.server";
import type { Queryable } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import { clientKey } from "./client-address";
import { liveStreamCap } from "./live-stream-cap";
import { DatabaseRateStore } from "./rate-limit-store";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** `shared`: the database the counters are kept in (with DATABASE_URL), else none (memory). */
export function rateLimits(limits: Env["limits"], shared?: Queryable | null): express.Router {
  const router = express.Router();
  const store = (prefix: string) =>
    shared ? { store: new DatabaseRateStore(shared, prefix) } : {};
  const signInLimit = (prefix: string) =>
    rateLimit({
      ...store(prefix),
      windowMs: 10 * 60_000,
      limit: limits.signInsPer10Minutes,
      keyGenerator: clientKey,
      standardHeaders: "draft-7",
      legacyHeaders: false,
      handler: refuse(
        (wait) => `Too many sign-in attempts from your network. Try again in ${wait}.`,
        "minutes",
      ),
    });
  const signIns = signInLimit("sign-in:");
  // Each refused callback is a stored 'Activity' event (docs/behaviour.md §6): counted apart,
  // so that the provider's return from a started sign-in never competes with the starts.
  const callbacks = signInLimit("sign-in-callback:");
  // A passkey sign-in is two posts (its challenge, then the signed answer), counted together.
  const passkeys = signInLimit("passkey:");
  const writes = rateLimit({
    ...store("write:"),
    windowMs: 60_000,
    limit: limits.writesPerMinute,
    keyGenerator: clientKey,
    skip: (req) => SAFE_METHODS.has(req.method),
    standardHeaders: "draft-7",
    legacyHeaders: false,
    handler: refuse(
      (wait) => `Too many changes from your network in a short time. Try again in ${wait}.`,
      "seconds",
    ),
  });
  router.get("/auth/login", signIns);
  router.get("/auth/callback", callbacks);
  router.post(["/auth/passkey/sign-in/options", "/auth/passkey/sign-in"], passkeys);
  router.get(
    "/live",
    liveStreamCap({ perClient: limits.liveStreamsPerClient, total: limits.liveStreamsTotal }),
  );
  router.use(writes);
  return router;
}

/** The 429 answer: the message in the form the client reads (JSON for /api, else text). */
function refuse(message: (wait: string) => string, unit: "minutes" | "seconds") {
  return (req: Request, res: Response) => {
    const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
    const seconds = Math.max(
      1,
      Math.ceil(((resetTime?.getTime() ?? Date.now()) - Date.now()) / 1000),
    );
    const text = message(
      unit === "minutes" ? plural(Math.ceil(seconds / 60), "minute") : plural(seconds, "second"),
    );
    res.set("Cache-Control", "no-store");
    if (req.originalUrl.startsWith("/api/")) sendApiRefusal(res, 429, text);
    else res.status(429).type("text/plain").send(text);
  };
}

function plural(n: number, unit: string) {
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}

/**
 * Page renders that miss the page cache, per client per minute: kept pages cost microseconds,
 * a render milliseconds, so a script asking for URLs nobody asked before is slowed down to the
 * limit while kept pages stay free for everyone (docs/decisions/0050-canonical-urls-and-render-
 * limit.md). Answers the seconds to wait before asking again, or 0 to render now. Route
 * discovery (`/__manifest`) renders nothing and is not counted.
 */
export function renderLimiter(perMinute: number) {
  const windowMs = 60_000;
  const store = new MemoryStore();
  store.init({ windowMs } as Options);
  return async (client: string, request: globalThis.Request): Promise<number> => {
    if (new URL(request.url, "http://x").pathname === "/__manifest") return 0;
    const { totalHits, resetTime } = await store.increment(client);
    if (totalHits <= perMinute) return 0;
    return Math.max(
      1,
      Math.ceil(((resetTime?.getTime() ?? Date.now() + windowMs) - Date.now()) / 1000),
    );
  };
}

/**
 * Inquiries ('Ask about this listing', 'Send us a message') per client per hour
 * (INQUIRY_RATE_LIMIT; docs/behaviour.md §27): counted in the database with DATABASE_URL, so
 * several instances apply one limit. Answers the seconds to wait, or 0 to go ahead. Called by
 * the page's action once a submission passed its checks, so refusals never count.
 */
export function inquiryLimiter(perHour: number, shared?: Queryable | null, prefix = "inquiry:") {
  const windowMs = 3600_000;
  const store = shared ? new DatabaseRateStore(shared, prefix) : new MemoryStore();
  store.init({ windowMs } as Options);
  return async (client: string): Promise<number> => {
    const { totalHits, resetTime } = await store.increment(client);
    if (totalHits <= perHour) return 0;
    return Math.max(
      1,
      Math.ceil(((resetTime?.getTime() ?? Date.now() + windowMs) - Date.now()) / 1000),
    );
  };
}
