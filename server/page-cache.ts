// Rendered pages for signed-out visitors, kept until the listings change. Every signed-out
// visitor sees the same page for the same URL, so rendering it once per change instead of once
// per request lets one process serve thousands of visitors a second. Cleared by the live hub
// (PostgreSQL NOTIFY, so writes on any instance count) before the change reaches any browser.

import zlib from "node:zlib";

export interface CachedPage {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
  storedAt: number;
  /** Compressed copies, made on first request for each. */
  br?: Buffer;
  gzip?: Buffer;
}

export class PageCache {
  private pages = new Map<string, CachedPage>();
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

  get(key: string): CachedPage | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    if (this.now() - page.storedAt > this.ttlMs) {
      this.pages.delete(key);
      return undefined;
    }
    // Most recently used last, so the oldest is the first to go.
    this.pages.delete(key);
    this.pages.set(key, page);
    return page;
  }

  /**
   * A render started before a clear() may hold old data: pass the generation read when it
   * started, and such a page is not stored.
   */
  set(key: string, page: Omit<CachedPage, "storedAt">, startedIn: number) {
    if (startedIn !== this.generation) return;
    this.pages.delete(key);
    this.pages.set(key, { ...page, storedAt: this.now() });
    while (this.pages.size > this.maxEntries) {
      const oldest = this.pages.keys().next().value as string;
      this.pages.delete(oldest);
    }
  }

  /** The page compressed for a browser, compressed once and kept with it. */
  encoded(page: CachedPage, encoding: "br" | "gzip"): Buffer {
    if (encoding === "br") {
      page.br ??= zlib.brotliCompressSync(page.body, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 },
      });
      return page.br;
    }
    page.gzip ??= zlib.gzipSync(page.body, { level: 9 });
    return page.gzip;
  }

  get currentGeneration() {
    return this.generation;
  }

  clear() {
    this.generation++;
    this.pages.clear();
  }
}
