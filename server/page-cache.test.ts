import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { Page, PageCache } from "./page-cache";

const page = (text: string) => new Page(200, { "content-type": "text/html" }, Buffer.from(text));

describe("PageCache", () => {
  it("returns what was stored for the same key only", () => {
    const cache = new PageCache();
    cache.set("/about", page("about"), cache.currentGeneration);
    expect(cache.get("/about")?.body.toString()).toBe("about");
    expect(cache.get("/about?x=1")).toBeUndefined();
  });

  it("forgets everything on clear, and refuses renders that began before it", () => {
    const cache = new PageCache();
    const startedIn = cache.currentGeneration;
    cache.set("/", page("old"), startedIn);
    cache.clear();
    expect(cache.get("/")).toBeUndefined();
    cache.set("/properties", page("rendered from old data"), startedIn);
    expect(cache.get("/properties")).toBeUndefined();
    cache.set("/properties", page("fresh"), cache.currentGeneration);
    expect(cache.get("/properties")?.body.toString()).toBe("fresh");
  });

  it("drops the least recently used page beyond its size", () => {
    const cache = new PageCache(2);
    const g = cache.currentGeneration;
    cache.set("a", page("a"), g);
    cache.set("b", page("b"), g);
    cache.get("a");
    cache.set("c", page("c"), g);
    expect([cache.get("a"), cache.get("b"), cache.get("c")].map((p) => p?.body.toString())).toEqual(
      ["a", undefined, "c"],
    );
  });

  it("expires pages after its time to live", () => {
    let now = 1_000;
    const cache = new PageCache(10, 100, () => now);
    cache.set("a", page("a"), cache.currentGeneration);
    now += 100;
    expect(cache.get("a")).toBeDefined();
    now += 1;
    expect(cache.get("a")).toBeUndefined();
  });

  it("knows whether a page is kept without changing which one goes first", () => {
    const cache = new PageCache(2);
    const g = cache.currentGeneration;
    cache.set("a", page("a"), g);
    cache.set("b", page("b"), g);
    expect(cache.has("a")).toBe(true);
    cache.set("c", page("c"), g);
    expect([cache.has("a"), cache.has("b"), cache.has("c")]).toEqual([false, true, true]);
  });
});

describe("Page", () => {
  it("compresses its body once per encoding, to bytes that decompress to the body", async () => {
    const body = "<p>3233 4th Street N</p>".repeat(200);
    const kept = new PageCache().set("/", page(body), 0);
    const br = await kept.encoded("br");
    expect(kept.encoded("br")).toBe(kept.encoded("br"));
    expect(zlib.brotliDecompressSync(br).toString()).toBe(body);
    expect(zlib.gunzipSync(await kept.encoded("gzip")).toString()).toBe(body);
    expect(br.length).toBeLessThan(body.length / 10);
  });
});
