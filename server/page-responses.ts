// What happens to a rendered page (HTML or route data) on its way out:
// - it is buffered whole (pages are small), optionally rewritten (deferHydration),
// - it gets an ETag, so a browser revalidating a page it has gets "304 Not Modified",
// - for signed-out visitors it is kept in the PageCache and served from there until the
//   listings change.
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request, RequestHandler, Response } from "express";
import type { PageCache } from "./page-cache";

type Chunk = string | Buffer | Uint8Array;

export interface PageResponseOptions {
  transformHtml?: (html: string) => string;
  cache?: PageCache;
  /** Whether a request with this Cookie header may be answered from, and stored in, the cache. */
  cacheable?: (cookieHeader: string | undefined) => boolean;
}

const NOT_CACHED_HEADERS = new Set(["set-cookie", "content-length", "transfer-encoding"]);
const CACHEABLE_TYPES = /^(text\/html|text\/x-script)/;

function toBuffer(chunk: Chunk, encoding?: unknown): Buffer {
  if (typeof chunk !== "string") return Buffer.from(chunk);
  return Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
}

export function pageResponses(options: PageResponseOptions = {}): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const cache =
      options.cache && options.cacheable?.(req.headers.cookie) ? options.cache : undefined;
    const key = req.originalUrl;
    const generation = cache?.currentGeneration ?? 0;

    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as EndFn;
    const chunks: Buffer[] = [];
    const passThrough = () => {
      res.write = write as typeof res.write;
      res.end = end as typeof res.end;
    };

    res.write = ((chunk: Chunk, encoding?: unknown, callback?: unknown) => {
      // A stream (event-stream) must not wait for its end.
      if (res.headersSent || /event-stream/.test(String(res.getHeader("content-type")))) {
        passThrough();
        if (chunks.length) write(Buffer.concat(chunks.splice(0)));
        return write(chunk, encoding, callback);
      }
      chunks.push(toBuffer(chunk, encoding));
      if (typeof encoding === "function") encoding();
      else if (typeof callback === "function") callback();
      return true;
    }) as typeof res.write;

    res.end = ((chunk?: unknown, encoding?: unknown, callback?: unknown) => {
      passThrough();
      if (typeof chunk === "function") return end(Buffer.concat(chunks), chunk);
      if (chunk) chunks.push(toBuffer(chunk as Chunk, encoding));
      const done = typeof encoding === "function" ? encoding : callback;
      let body = Buffer.concat(chunks);
      const type = String(res.getHeader("content-type") ?? "");
      if (options.transformHtml && type.startsWith("text/html")) {
        body = Buffer.from(options.transformHtml(body.toString("utf8")));
        res.removeHeader("content-length");
      }
      if (res.statusCode !== 200 || res.headersSent) return end(body, done);
      if (!res.getHeader("etag")) {
        const hash = createHash("sha1").update(body).digest("base64url").slice(0, 27);
        res.setHeader("ETag", `W/"${hash}"`);
      }
      // Pages depend on who is signed in: only this browser may keep them, and must ask again.
      if (!res.getHeader("cache-control")) res.setHeader("Cache-Control", "private, no-cache");
      if (
        cache &&
        req.method === "GET" &&
        CACHEABLE_TYPES.test(type) &&
        !res.getHeader("set-cookie")
      ) {
        cache.set(key, { status: 200, headers: storedHeaders(res), body }, generation);
      }
      return finish(req, res, body, end, done);
    }) as typeof res.end;

    next();
  };
}

type EndFn = (...args: unknown[]) => unknown;

/**
 * Answers a request from the cache with plain Node.js (no framework work per request), or
 * returns false. Only pages the router rendered are ever stored, so a stored URL is always the
 * router's. Sends the stored brotli or gzip copy (made once per page) to browsers that take it.
 */
export function serveCachedPage(
  cache: PageCache,
  cacheable: (cookieHeader: string | undefined) => boolean,
  req: IncomingMessage,
  res: ServerResponse,
): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  if (!req.url || !cacheable(req.headers.cookie)) return false;
  const hit = cache.get(req.url);
  if (!hit) return false;
  for (const [name, value] of Object.entries(hit.headers)) res.setHeader(name, value);
  res.setHeader("Vary", "Accept-Encoding");
  const etag = hit.headers.etag;
  const ifNoneMatch = req.headers["if-none-match"];
  if (etag && ifNoneMatch?.split(",").some((t) => t.trim() === etag)) {
    res.removeHeader("content-type");
    res.writeHead(304).end();
    return true;
  }
  const accepted = String(req.headers["accept-encoding"] ?? "");
  const encoding = /\bbr\b/.test(accepted) ? "br" : /\bgzip\b/.test(accepted) ? "gzip" : null;
  const body = encoding ? cache.encoded(hit, encoding) : hit.body;
  if (encoding) res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  res.writeHead(hit.status);
  res.end(req.method === "HEAD" ? undefined : body);
  return true;
}

function storedHeaders(res: Response): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value === undefined || NOT_CACHED_HEADERS.has(name)) continue;
    headers[name] = Array.isArray(value) ? value : String(value);
  }
  return headers;
}

/** Sends the body, or 304 when the browser's copy (If-None-Match) is still current. */
function finish(req: Request, res: Response, body: Buffer, end: EndFn, done?: unknown) {
  if (res.statusCode === 200 && req.fresh) {
    res.statusCode = 304;
    for (const header of ["content-type", "content-length", "transfer-encoding"]) {
      res.removeHeader(header);
    }
    return end(done);
  }
  return end(body, done);
}
