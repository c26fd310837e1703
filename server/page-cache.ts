// Rendered pages for signed-out visitors, kept until the listings change. Every signed-out
// visitor sees the same page for the same URL, so rendering it once per change instead of once
// per request lets one process serve thousands of visitors a second. Cleared by the live hub
// (PostgreSQL NOTIFY, so writes on any instance count) before the change reaches any browser.
import { promisify } from "node:util";
import zlib from "node:zlib";

export type Encoding = "br" | "gzip";

const COMPRESSIBLE = /^(text\/|application\/(json|xml|javascript))/;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** One rendered page (or route data) as sent: status, headers and body, with compressed copies. */
export class Page {
  private readonly copies = new Map<Encoding, Promise<Buffer>>();
  /** The copies already made, for answers that need not wait (most answers of a kept page). */
  private readonly ready = new Map<Encoding, Buffer>();
  /** Whether the body is text worth compressing. */
  readonly compressible: boolean;
  /** The headers every answer of this page carries (a 304 without its content type). */
  readonly answerHeaders: {
    full: readonly (readonly [string, string])[];
    notModified: readonly (readonly [string, string])[];
  };

  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    readonly body: Buffer,
    readonly cookies: readonly string[] = [],
    /** Kept pages are compressed once, so harder; fresh ones once per request, so faster. */
    private readonly effort: "kept" | "fresh" = "fresh",
  ) {
    this.compressible = COMPRESSIBLE.test(headers["content-type"] ?? "");
    const full: [string, string][] = Object.entries(headers);
    for (const cookie of cookies) full.push(["set-cookie", cookie]);
    if (this.compressible) full.push(["vary", "Accept-Encoding"]);
    this.answerHeaders = { full, notModified: full.filter(([name]) => name !== "content-type") };
  }

  /** The body compressed for a browser, if that copy is made already. */
  encodedNow(encoding: Encoding): Buffer | undefined {
    return this.ready.get(encoding);
  }

  /** The body compressed for a browser; made off the main thread, once per encoding. */
  encoded(encoding: Encoding): Promise<Buffer> {
    let copy = this.copies.get(encoding);
    if (!copy) {
      const kept = this.effort === "kept";
      copy =
        encoding === "br"
          ? brotli(this.body, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: kept ? 9 : 5,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: this.body.length,
              },
            })
          : gzip(this.body, { level: kept ? 9 : 6 });
      this.copies.set(encoding, copy);
      copy.then(
        (bytes) => this.ready.set(encoding, bytes),
        () => undefined,
      );
    }
    return copy;
  }

  /** The same page, to be kept (its copies made with more effort). */
  toKept(): Page {
    return new Page(this.status, this.headers, this.body, this.cookies, "kept");
  }
}

interface Entry {
  page: Page;
  storedAt: number;
}

export class PageCache {
  private pages = new Map<string, Entry>();
  private generation = 0;

  constructor(
    private readonly maxEntries = 1000,
    /** Safety net for anything that changes without a NOTIFY (none known). */
    private readonly ttlMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  get size() {
    return this.pages.size;
  }

  /** Whether a page is kept under `key` (without touching its place in the order). */
  has(key: string): boolean {
    const entry = this.pages.get(key);
    return entry !== undefined && this.now() - entry.storedAt <= this.ttlMs;
  }

  get(key: string): Page | undefined {
    const entry = this.pages.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.storedAt > this.ttlMs) {
      this.pages.delete(key);
      return undefined;
    }
    // Most recently used last, so the oldest is the first to go.
    this.pages.delete(key);
    this.pages.set(key, entry);
    return entry.page;
  }

  /**
   * A render started before a clear() may hold old data: pass the generation read when it
   * started, and such a page is not stored. Returns the page as kept.
   */
  set(key: string, page: Page, startedIn: number): Page {
    if (startedIn !== this.generation) return page;
    const kept = page.toKept();
    this.pages.delete(key);
    this.pages.set(key, { page: kept, storedAt: this.now() });
    while (this.pages.size > this.maxEntries) {
      const oldest = this.pages.keys().next().value as string;
      this.pages.delete(oldest);
    }
    return kept;
  }

  get currentGeneration() {
    return this.generation;
  }

  clear() {
    this.generation++;
    this.pages.clear();
  }
}
