// Every page (HTML and React Router's route data) on its way out, on Fetch Request/Response
// around React Router's handler (docs/decisions/0009-page-cache.md):
// - query parameters no page reads are dropped before rendering, so they can neither change a
//   page nor multiply the kept copies;
// - the page is buffered whole (pages are small) and gets an ETag;
// - for signed-out visitors (no valid session, whatever cookie is sent) it is kept in the
//   PageCache until the listings change, with compressed copies made once;
// - one answer for kept and fresh pages alike: 304 when the browser's copy is current, else
//   the brotli, gzip or plain body.
import { createHash } from "node:crypto";
import { type Encoding, Page, type PageCache } from "./page-cache";

/**
 * The query parameters pages read (`filter`: app/domain/listing-filters.ts, `address`:
 * app/routes/rental-application.tsx) and React Router's own on route data requests.
 */
export const PAGE_QUERY_PARAMS: readonly string[] = ["filter", "address", "_routes", "index"];
/** React Router's route discovery has parameters of its own and is never rewritten. */
const ROUTER_PATHS = new Set(["/__manifest"]);

const KEPT_TYPES = /^(text\/html|text\/x-script)/;
const COMPRESSIBLE = /^(text\/|application\/(json|xml|javascript))/;
const NOT_KEPT_HEADERS = new Set(["set-cookie", "content-length", "transfer-encoding"]);

export interface PagePipelineOptions<Context> {
  /** Who is asking. `shared`: a signed-out visitor, who sees what every signed-out visitor sees. */
  identify(request: Request): Promise<{ shared: boolean; context: Context }>;
  /** React Router's handler. */
  render(request: Request, context: Context): Promise<Response>;
  /** Whether a session cookie came along (only then can the visitor be signed in). */
  hasSessionCookie(request: Request): boolean;
  /** Headers every page carries unless it sets its own (security headers). */
  defaultHeaders?: Readonly<Record<string, string>>;
  cache?: PageCache;
}

export type PagePipeline = (request: Request) => Promise<Response>;

/** The URL a page is rendered for and kept under. */
export function pageUrl(url: URL): URL {
  if (url.search === "" || ROUTER_PATHS.has(url.pathname)) return url;
  const kept = new URL(url.pathname, url.origin);
  for (const [name, value] of url.searchParams) {
    if (PAGE_QUERY_PARAMS.includes(name)) kept.searchParams.append(name, value);
  }
  return kept;
}

/** The key a page is kept under: its path and the query parameters pages read. */
export function pageKey(pathAndQuery: string): string {
  const url = pageUrl(new URL(pathAndQuery, "http://x"));
  return url.pathname + url.search;
}

export function createPagePipeline<Context>(options: PagePipelineOptions<Context>): PagePipeline {
  const { cache } = options;
  return async (request) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      const { context } = await options.identify(request);
      return options.render(request, context);
    }
    const url = pageUrl(new URL(request.url));
    const key = url.pathname + url.search;
    const kept = cache?.get(key);
    if (kept && !options.hasSessionCookie(request)) return answer(request, kept);
    // Read before anything awaits: a change announced after this point may be missing from
    // the render, so its page is not kept.
    const generation = cache?.currentGeneration ?? 0;

    const { shared, context } = await options.identify(request);
    if (kept && shared) return answer(request, kept);
    // HEAD is rendered as GET, so that it carries the same ETag and length and can be kept.
    const response = await options.render(
      new Request(url, { method: "GET", headers: request.headers, signal: request.signal }),
      context,
    );
    const type = response.headers.get("content-type") ?? "";
    if (!response.body || type.startsWith("text/event-stream")) return response;

    let page = await toPage(response, options.defaultHeaders ?? {});
    if (cache && shared && page.status === 200 && KEPT_TYPES.test(type) && !page.cookies.length) {
      page = cache.set(key, page, generation);
    }
    return answer(request, page);
  };
}

async function toPage(
  response: Response,
  defaults: Readonly<Record<string, string>>,
): Promise<Page> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(defaults)) headers[name.toLowerCase()] = value;
  for (const [name, value] of response.headers) {
    if (!NOT_KEPT_HEADERS.has(name)) headers[name] = value;
  }
  if (response.status === 200 && !headers.etag) {
    headers.etag = `W/"${createHash("sha1").update(body).digest("base64url").slice(0, 27)}"`;
  }
  // Pages depend on who is signed in: only this browser may keep them, and must ask again.
  headers["cache-control"] ??= "private, no-cache";
  return new Page(response.status, headers, body, response.headers.getSetCookie());
}

/** The one answer for a page, kept or fresh: 304, or the body in the best encoding accepted. */
async function answer(request: Request, page: Page): Promise<Response> {
  const headers = new Headers(page.headers);
  for (const cookie of page.cookies) headers.append("set-cookie", cookie);
  const compressible = COMPRESSIBLE.test(page.headers["content-type"] ?? "");
  if (compressible) headers.set("vary", "Accept-Encoding");
  const etag = page.headers.etag;
  const ifNoneMatch = request.headers.get("if-none-match");
  if (page.status === 200 && etag && ifNoneMatch?.split(",").some((t) => t.trim() === etag)) {
    headers.delete("content-type");
    return new Response(null, { status: 304, headers });
  }
  const encoding = compressible ? negotiate(request) : null;
  const body = encoding ? await page.encoded(encoding) : page.body;
  if (encoding) headers.set("content-encoding", encoding);
  headers.set("content-length", String(body.length));
  const sent = request.method === "HEAD" ? null : (body as Uint8Array<ArrayBuffer>);
  return new Response(sent, { status: page.status, headers });
}

function negotiate(request: Request): Encoding | null {
  const accepted = request.headers.get("accept-encoding") ?? "";
  return /\bbr\b/.test(accepted) ? "br" : /\bgzip\b/.test(accepted) ? "gzip" : null;
}
