// Every page (HTML and React Router's route data) on its way out, on Fetch Request/Response
// around React Router's handler (docs/decisions/0030-page-pipeline-on-fetch.md):
// - one URL per page (server/canonical-url.ts): another form of a page URL is redirected, and
//   query parameters a page does not take are dropped before rendering, so they can neither
//   change a page nor multiply the kept copies;
// - a render that misses the kept pages, or a redirect, may be refused (429) for a client asking
//   too many, and the refusal is held back a second, so a script's connections cannot ask at
//   the rate the server answers;
// - the page is buffered whole (pages are small) and gets an ETag;
// - for signed-out visitors (no valid session, whatever cookie is sent) it is kept in the
//   PageCache until the listings change, with compressed copies made once;
// - one answer for kept and fresh pages alike: 304 when the browser's copy is current, else
//   the brotli, gzip or plain body.
import { createHash } from "node:crypto";
import { statusText } from "~/shared/http-error.server";
import type { PageTargets } from "./canonical-url";
import { type Encoding, Page, type PageCache } from "./page-cache";
import { targetUrl } from "./request-target";

/** A path `new URL()` keeps as it is (no "//", no "." segment, no query, nothing encoded). */
const PLAIN_PATH = /^\/(?:[A-Za-z0-9_~-][A-Za-z0-9_.~-]*(?:\/|$))*$/;
const KEPT_TYPES = /^(text\/html|text\/x-script)/;
const NOT_KEPT_HEADERS = new Set(["set-cookie", "content-length", "transfer-encoding"]);

export interface PagePipelineOptions<Context> {
  /**
   * Who is asking. `shared`: a signed-out visitor, who sees what every signed-out visitor sees.
   * `limited`: whether renders for this visitor count against limitRender (default true).
   * `noStore`: what this visitor sees holds personal data (staff's pages): answers carry
   * `Cache-Control: no-store` unless the route set its own.
   */
  identify(
    request: Request,
  ): Promise<{ shared: boolean; context: Context; limited?: boolean; noStore?: boolean }>;
  /** The canonical form of a page URL (server/canonical-url.ts). */
  pageTargets: PageTargets;
  /**
   * What a request renders beyond its URL (server/stored-search.ts: a list's stored search,
   * from a cookie), as a URL; applied after a redirect to the canonical URL is ruled out.
   */
  rendersFor?: (url: URL, cookieHeader: string | null) => URL;
  /**
   * Before a render that misses the kept pages or a redirect, for a limited visitor: seconds to
   * wait before asking again (429), or 0 to go ahead.
   */
  limitRender?: (request: Request) => Promise<number> | number;
  /** How long a 429 of limitRender is held back (default REFUSAL_DELAY_MS). */
  refusalDelayMs?: number;
  /** React Router's handler. */
  render(request: Request, context: Context): Promise<Response>;
  /** Whether a session cookie came along (only then can the visitor be signed in). */
  hasSessionCookie(request: Request): boolean;
  /** Headers every page carries unless it sets its own (security headers). */
  defaultHeaders?: Readonly<Record<string, string>>;
  cache?: PageCache;
}

export type PagePipeline = (request: Request) => Promise<Response>;

/** What is sent for a page: decided by answerPage() alone, for kept and fresh pages alike. */
export interface PageAnswer {
  status: number;
  headers: readonly (readonly [string, string])[];
  body: Buffer | null;
}

/** What answerPage() needs to know of a request. */
export interface PageQuestion {
  method: string;
  ifNoneMatch: string | null | undefined;
  acceptEncoding: string | null | undefined;
}

/**
 * The one answer for a page: 304 when the browser's copy is current, else the body in the best
 * encoding accepted (brotli, gzip or none), with its length. Synchronous unless a compressed
 * copy is still being made: a kept page's answer costs no promise (server/app.ts).
 */
export function answerPage(page: Page, question: PageQuestion): PageAnswer | Promise<PageAnswer> {
  const etag = page.headers.etag;
  const { ifNoneMatch } = question;
  if (page.status === 200 && etag && ifNoneMatch?.split(",").some((t) => t.trim() === etag)) {
    return { status: 304, headers: page.answerHeaders.notModified, body: null };
  }
  const encoding = page.compressible ? negotiate(question.acceptEncoding) : null;
  if (!encoding) return withBody(page, question, null, page.body);
  const ready = page.encodedNow(encoding);
  if (ready) return withBody(page, question, encoding, ready);
  return page.encoded(encoding).then((body) => withBody(page, question, encoding, body));
}

function withBody(
  page: Page,
  question: PageQuestion,
  encoding: Encoding | null,
  body: Buffer,
): PageAnswer {
  const headers: (readonly [string, string])[] = [...page.answerHeaders.full];
  if (encoding) headers.push(["content-encoding", encoding]);
  headers.push(["content-length", String(body.length)]);
  return { status: page.status, headers, body: question.method === "HEAD" ? null : body };
}

function negotiate(acceptEncoding: string | null | undefined): Encoding | null {
  const accepted = acceptEncoding ?? "";
  return /\bbr\b/.test(accepted) ? "br" : /\bgzip\b/.test(accepted) ? "gzip" : null;
}

/**
 * A page answer as a Fetch Response, made without a body stream or a Headers object, which it
 * builds only if someone reads them: on Node 20 a Response made with a body costs 80–140 µs
 * (measured), more than answering a kept page. server/fetch-bridge.ts writes `answer` as is.
 */
export class PageResponse extends Response {
  #headers: Headers | undefined;

  constructor(readonly answer: PageAnswer) {
    super(null, { status: answer.status });
  }

  override get headers(): Headers {
    this.#headers ??= new Headers(this.answer.headers as [string, string][]);
    return this.#headers;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    const bytes = this.answer.body;
    return bytes ? new Response(bytes as Uint8Array<ArrayBuffer>).body : null;
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.answer.body ?? Buffer.alloc(0);
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer;
  }

  override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return new Uint8Array(await this.arrayBuffer());
  }

  override async text(): Promise<string> {
    return this.answer.body?.toString("utf8") ?? "";
  }
}

/**
 * The key a page is kept under: its canonical path and the query parameters it renders with.
 * None for a target that is no valid URL (e.g. "//%F1%80"), or that must be redirected: such a
 * request is never answered from a kept page.
 */
export function pageKey(
  target: string,
  pageTargets: PageTargets,
  rendersFor?: (url: URL) => URL,
): string | undefined {
  // Most targets are plain paths that a URL parser would return unchanged: no query, no dot
  // segments, nothing to percent-encode. Parsing them costs more than answering a kept page.
  // (A plain path not in canonical form is simply never a key: its request is redirected.)
  if (!rendersFor && PLAIN_PATH.test(target)) return target;
  const parsed = targetUrl(target, "http://x");
  if (!parsed) return undefined;
  const page = pageTargets(parsed);
  if (page.redirect !== undefined) return undefined;
  const renders = rendersFor?.(parsed) ?? parsed;
  return renders === parsed ? page.key : pageTargets(renders).key;
}

export function createPagePipeline<Context>(options: PagePipelineOptions<Context>): PagePipeline {
  const { cache, refusalDelayMs = REFUSAL_DELAY_MS } = options;
  /** Renders of kept pages under way, by page key, with the data generation they show. */
  const renders = new Map<string, { generation: number; page: Promise<Page | null> }>();
  return async (request) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      const { context, noStore } = await options.identify(request);
      const response = await options.render(request, context);
      return withRefusalText(noStore ? withNoStore(response) : response);
    }
    const sent = new URL(request.url);
    const first = options.pageTargets(sent);
    if (first.redirect !== undefined) {
      // Cheap, but endless variants of a URL asked at full speed would still take the server's
      // time from other visitors: a redirect counts like a render (decision 0050). Admins are
      // never counted; who is asking is looked up only when a session cookie came along.
      const limited =
        !options.hasSessionCookie(request) || (await options.identify(request)).limited !== false;
      const wait = limited && options.limitRender ? await options.limitRender(request) : 0;
      if (wait > 0) return tooManyRenders(wait, refusalDelayMs);
      return redirect(first.redirect);
    }
    const asked = options.rendersFor?.(sent, request.headers.get("cookie")) ?? sent;
    const target = asked === sent ? first : options.pageTargets(asked);
    const key = target.key;
    const url = targetUrl(key, asked.origin) ?? asked;
    const kept = cache?.get(key);
    if (kept && !options.hasSessionCookie(request)) return respond(request, kept);
    // Read before anything awaits: a change announced after this point may be missing from
    // the render, so its page is not kept.
    const generation = cache?.currentGeneration ?? 0;

    const { shared, context, limited = true, noStore = false } = await options.identify(request);
    if (kept && shared) return respond(request, kept);
    // Signed-out visitors asking for a page that is being rendered for the current data wait
    // for that render instead of starting their own: after a change clears the kept pages, a
    // crowd costs one render per page, not one per visitor (measured by the load suite,
    // docs/decisions/0036-resilience-suites.md).
    const running = shared && cache ? renders.get(key) : undefined;
    if (running && running.generation === generation) {
      const page = await running.page;
      if (page) return respond(request, page);
    }
    let share: ((page: Page | null) => void) | undefined;
    const mine =
      shared && cache && !running
        ? new Promise<Page | null>((resolve) => {
            share = resolve;
          })
        : undefined;
    if (mine) renders.set(key, { generation, page: mine });
    try {
      // From here on this request renders: it counts against its client's limit (after the
      // crowd's render is registered, so that the crowd still waits for it).
      const wait = limited && options.limitRender ? await options.limitRender(request) : 0;
      // Not awaited here: `finally` must release the crowd at once, not after the delay.
      if (wait > 0) return tooManyRenders(wait, refusalDelayMs);
      // HEAD is rendered as GET, so that it carries the same ETag and length and can be kept.
      const response = await options.render(
        new Request(url, { method: "GET", headers: request.headers }),
        context,
      );
      const type = response.headers.get("content-type") ?? "";
      if (!response.body) return withRefusalText(response);
      if (type.startsWith("text/event-stream")) return response;

      let page = await toPage(response, options.defaultHeaders ?? {}, noStore);
      const keep = cache && shared && target.kept !== false;
      if (keep && page.status === 200 && KEPT_TYPES.test(type) && !page.cookies.length) {
        page = cache.set(key, page, generation);
        share?.(page);
      }
      return respond(request, page);
    } finally {
      share?.(null);
      if (mine && renders.get(key)?.page === mine) renders.delete(key);
    }
  };
}

/** To the canonical URL of a page: permanent, and kept by browsers only briefly. */
function redirect(location: string): Response {
  return new Response(null, {
    status: 308,
    headers: { location, "cache-control": "public, max-age=3600" },
  });
}

/**
 * How long a refusal of a client over its limit is held back before it is sent. A script's
 * connections each wait for their answer, so they then ask about once a second instead of as
 * fast as the server can refuse them: refusals cost the server next to nothing, and kept pages
 * stay fast for everyone else (tests/resilience/cache-busting.test.ts; decision 0050).
 */
export const REFUSAL_DELAY_MS = 1000;

async function tooManyRenders(seconds: number, delayMs: number): Promise<Response> {
  if (delayMs > 0) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(delayMs, seconds * 1000)));
  }
  return new Response(
    `Too many pages asked for from your network in a short time. Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`,
    {
      status: 429,
      headers: {
        "content-type": "text/plain; charset=utf-8",
        "cache-control": "no-store",
        "retry-after": String(seconds),
      },
    },
  );
}

/**
 * A refusal without a body, or with React Router's misleading one for a method a resource route
 * does not take, gets its status text: every refusal says what it is (docs/behaviour.md).
 */
function withRefusalText(response: Response): Response {
  if (response.status < 400 || response.status > 499) return response;
  // React Router's 405 from a resource route says "Unexpected Server Error"; a page's is HTML.
  const methodRefused =
    response.status === 405 && !response.headers.get("content-type")?.startsWith("text/html");
  if (response.body && !methodRefused) return response;
  const headers = new Headers(response.headers);
  headers.set("content-type", "text/plain; charset=utf-8");
  return new Response(statusText(response.status), { status: response.status, headers });
}

/** An action's answer to a visitor whose pages are never stored (see `identify`). */
function withNoStore(response: Response): Response {
  if (response.headers.has("cache-control")) return response;
  const headers = new Headers(response.headers);
  headers.set("cache-control", "no-store");
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

async function toPage(
  response: Response,
  defaults: Readonly<Record<string, string>>,
  noStore: boolean,
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
  // Staff's pages (leads, applications, the outbox) are not kept even there (docs/behaviour.md §13).
  headers["cache-control"] ??= noStore ? "no-store" : "private, no-cache";
  return new Page(response.status, headers, body, response.headers.getSetCookie());
}

async function respond(request: Request, page: Page): Promise<PageResponse> {
  return new PageResponse(
    await answerPage(page, {
      method: request.method,
      ifNoneMatch: request.headers.get("if-none-match"),
      acceptEncoding: request.headers.get("accept-encoding"),
    }),
  );
}
