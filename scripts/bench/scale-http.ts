// The scale benchmark's HTTP measurements: where a URL ends up (redirects followed), its HTML
// bytes, uncached render times for a signed-in admin, /admin/listings and the sitemap.
import http from "node:http";
import { percentile } from "./stats";

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

interface Answer {
  status: number;
  location: string | undefined;
  contentType: string;
  /** Bytes as sent (compressed when `accept-encoding` allowed it). */
  bytes: number;
  body: Buffer;
  ms: number;
}

/** One GET, timed from sending to the last byte, body not decompressed. */
export function timedGet(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(url, { agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            location: res.headers.location,
            contentType: String(res.headers["content-type"] ?? ""),
            bytes: body.length,
            body,
            ms: performance.now() - started,
          });
        });
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

export interface Landing {
  asked: string;
  /** Path and query finally answered. */
  final: string;
  /** Statuses of the redirects followed, e.g. [308]. */
  redirects: number[];
  status: number;
  /** Uncompressed HTML of the final page, as a signed-out visitor gets it. */
  htmlBytes: number;
  html: string;
}

/** Follows redirects (at most 5) like a browser, as a signed-out visitor. */
export async function land(base: string, asked: string): Promise<Landing> {
  const redirects: number[] = [];
  let at = asked;
  for (let hop = 0; hop <= 5; hop++) {
    const answer = await timedGet(base + at, { "accept-encoding": "identity" });
    if (answer.status >= 300 && answer.status < 400 && answer.location) {
      redirects.push(answer.status);
      const next = new URL(answer.location, base + at);
      at = next.pathname + next.search;
      continue;
    }
    return {
      asked,
      final: at,
      redirects,
      status: answer.status,
      htmlBytes: answer.bytes,
      html: answer.body.toString("utf8"),
    };
  }
  throw new Error(`${asked}: more than 5 redirects`);
}

export interface Timing {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  statuses: number[];
}

function timing(times: number[], statuses: number[]): Timing {
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    requests: times.length,
    p50Ms: round(percentile(times, 50)),
    p99Ms: round(percentile(times, 99)),
    maxMs: round(Math.max(...times)),
    statuses: [...new Set(statuses)],
  };
}

/**
 * `n` sequential GETs of `path` with `cookie` (a signed-in admin: the page pipeline renders every
 * such request afresh, server/page-pipeline.ts), after 3 unmeasured ones; fewer (at least 10)
 * when they pass `maxSeconds` in all, so that a page taking seconds to render does not hold the
 * run for minutes. Asked with `accept-encoding: br, gzip` like a browser, so the time includes
 * compressing the fresh page.
 */
export async function renderTimes(
  base: string,
  path: string,
  cookie: string,
  n = 50,
  maxSeconds = 30,
): Promise<Timing> {
  const headers = { cookie, "accept-encoding": "br, gzip" };
  for (let i = 0; i < 3; i++) await timedGet(base + path, headers);
  const times: number[] = [];
  const statuses: number[] = [];
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    if (i >= 10 && performance.now() - started > maxSeconds * 1000) break;
    const answer = await timedGet(base + path, headers);
    times.push(answer.ms);
    statuses.push(answer.status);
  }
  return timing(times, statuses);
}

export type AdminList = { status: number; timing?: Timing; htmlBytes?: number };

/** /admin/listings for a signed-in admin: 10 renders, or just the status when it is no page (404). */
export async function adminListings(base: string, cookie: string): Promise<AdminList> {
  const first = await timedGet(`${base}/admin/listings`, { cookie, "accept-encoding": "identity" });
  if (first.status !== 200) return { status: first.status };
  return {
    status: 200,
    htmlBytes: first.bytes,
    timing: await renderTimes(base, "/admin/listings", cookie, 10),
  };
}

export interface SitemapFile {
  path: string;
  status: number;
  bytes: number;
  urls: number;
  timing: Timing;
}

export interface Sitemap {
  index: SitemapFile;
  /** The first file the index links, when it is a sitemap index. */
  child?: SitemapFile;
}

async function sitemapFile(base: string, path: string): Promise<SitemapFile & { locs: string[] }> {
  const first = await timedGet(base + path, { "accept-encoding": "identity" });
  const text = first.body.toString("utf8");
  const locs = [...text.matchAll(/<sitemap>\s*<loc>([^<]+)<\/loc>/g)].map((m) => m[1] as string);
  const times: number[] = [];
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) {
    const answer = await timedGet(base + path, { "accept-encoding": "identity" });
    times.push(answer.ms);
    statuses.push(answer.status);
  }
  return {
    path,
    status: first.status,
    bytes: first.bytes,
    urls: (text.match(/<url>/g) ?? []).length,
    timing: timing(times, statuses),
    locs,
  };
}

/** /sitemap.xml (5 requests after one), and its first child file when it is an index. */
export async function sitemap(base: string): Promise<Sitemap> {
  const { locs, ...index } = await sitemapFile(base, "/sitemap.xml");
  const first = locs[0];
  if (!first) return { index };
  // The index names the site's PUBLIC_URL; the path is asked of this server.
  const url = new URL(first.replaceAll("&amp;", "&"));
  const { locs: _, ...child } = await sitemapFile(base, url.pathname + url.search);
  return { index, child };
}
