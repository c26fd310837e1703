import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { PageCache } from "./page-cache";
import { createPagePipeline, pageKey, pageUrl } from "./page-pipeline";

type Who = { user: string | null };

/** A pipeline around a render function that records what it was asked to render. */
function setup(options: { cache?: boolean; setCookie?: boolean; status?: number } = {}) {
  const rendered: string[] = [];
  const cache = options.cache === false ? undefined : new PageCache();
  const sessions = new Map([["valid", "someone@example.com"]]);
  const pipeline = createPagePipeline<Who>({
    cache,
    defaultHeaders: { "X-Content-Type-Options": "nosniff" },
    hasSessionCookie: (request) => (request.headers.get("cookie") ?? "").includes("session="),
    identify: async (request) => {
      const token = /session=(\w+)/.exec(request.headers.get("cookie") ?? "")?.[1] ?? "";
      const user = sessions.get(token) ?? null;
      return { shared: user === null, context: { user } };
    },
    render: async (request, who) => {
      rendered.push(`${request.method} ${request.url}`);
      const headers = new Headers({ "content-type": "text/html; charset=utf-8" });
      if (options.setCookie) headers.append("set-cookie", "a=b");
      const body = `<h1>${new URL(request.url).pathname} for ${who.user ?? "everyone"}</h1>`;
      return new Response(body.repeat(50), { status: options.status ?? 200, headers });
    },
  });
  const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
    pipeline(new Request(`http://site.test${path}`, { method, headers }));
  return { pipeline, cache, rendered, get };
}

describe("page pipeline", () => {
  it("renders a signed-out page once and answers later requests from the kept copy", async () => {
    const { get, rendered } = setup();
    const first = await get("/about");
    const second = await get("/about");
    expect(await second.text()).toBe(await first.text());
    expect(rendered).toEqual(["GET http://site.test/about"]);
    expect(second.headers.get("etag")).toMatch(/^W\/"[\w-]{27}"$/);
    expect(second.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("renders a page once for a crowd of signed-out visitors arriving together (after a change)", async () => {
    const { get, rendered, cache } = setup();
    await get("/properties");
    cache?.clear();
    const answers = await Promise.all(Array.from({ length: 20 }, () => get("/properties")));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(await Promise.all(answers.map((a) => a.text()))).size).toBe(1);
    expect(rendered).toEqual([
      "GET http://site.test/properties",
      "GET http://site.test/properties",
    ]);
    // Signed-in visitors still get their own render.
    await Promise.all([
      get("/properties", { cookie: "session=valid" }),
      get("/properties", { cookie: "session=valid" }),
    ]);
    expect(rendered).toHaveLength(4);
  });

  it("drops query parameters no page reads, before rendering and from the key", async () => {
    const { get, rendered } = setup();
    await get("/properties?filter=available&utm_source=x");
    await get("/properties?filter=available&nonce=123");
    await get("/about?whatever=1");
    expect(rendered).toEqual([
      "GET http://site.test/properties?filter=available",
      "GET http://site.test/about",
    ]);
    expect(pageKey("/rental-application?address=1%20Main&x=2")).toBe(
      "/rental-application?address=1+Main",
    );
    const manifest = new URL("http://site.test/__manifest?p=%2Fabout&version=1");
    expect(pageUrl(manifest)).toBe(manifest);
  });

  it("keys a plain path as a URL parser would, without parsing it", () => {
    const targets = ["/", "/about", "/properties/3233-4th-street-n", "/x/", "/A~b_c.d-e/"];
    const parsed = ["/a/./b", "/a/../b", "/.", "//x", "/a//b", "/a%20b", "/é", "/a?", "/a#b"];
    for (const target of [...targets, ...parsed]) {
      const url = pageUrl(new URL(`http://x${target}`));
      expect(pageKey(target), target).toBe(url.pathname + url.search);
    }
    // The plain ones are their own key; the others are normalised.
    for (const target of targets) expect(pageKey(target)).toBe(target);
    expect(pageKey("/a/../b")).toBe("/b");
  });

  it("treats an unknown session cookie as a signed-out visitor: the kept page, no render", async () => {
    const { get, rendered } = setup();
    await get("/about");
    const forged = await get("/about", { cookie: "session=forged" });
    expect(await forged.text()).toContain("for everyone");
    expect(rendered).toHaveLength(1);
  });

  it("renders afresh for a signed-in visitor and keeps nothing of it", async () => {
    const { get, rendered, cache } = setup();
    const mine = await get("/about", { cookie: "session=valid" });
    expect(await mine.text()).toContain("for someone@example.com");
    expect(cache?.size).toBe(0);
    await get("/about", { cookie: "session=valid" });
    expect(rendered).toHaveLength(2);
  });

  it("answers 304 through the same path for kept and fresh pages", async () => {
    const { get } = setup();
    const etag = (await get("/about")).headers.get("etag") ?? "";
    const kept = await get("/about", { "if-none-match": `"other", ${etag}` });
    expect(kept.status).toBe(304);
    expect(await kept.text()).toBe("");
    const freshEtag = (await get("/about", { cookie: "session=valid" })).headers.get("etag") ?? "";
    const fresh = await get("/about", { cookie: "session=valid", "if-none-match": freshEtag });
    expect(fresh.status).toBe(304);
    expect((await get("/about", { "if-none-match": '"stale"' })).status).toBe(200);
  });

  it("sends the brotli or gzip copy the browser accepts, with its length", async () => {
    const { get } = setup();
    const plain = await (await get("/about")).text();
    const br = await get("/about", { "accept-encoding": "gzip, deflate, br" });
    expect(br.headers.get("content-encoding")).toBe("br");
    const brBody = Buffer.from(await br.arrayBuffer());
    expect(Number(br.headers.get("content-length"))).toBe(brBody.length);
    expect(zlib.brotliDecompressSync(brBody).toString()).toBe(plain);
    const gz = await get("/about", { "accept-encoding": "gzip" });
    expect(zlib.gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(plain);
    expect(br.headers.get("vary")).toBe("Accept-Encoding");
  });

  it("renders HEAD as GET: same ETag and length, no body, and the page is kept", async () => {
    const { get, rendered } = setup();
    const head = await get("/about", {}, "HEAD");
    expect(await head.text()).toBe("");
    const full = await get("/about");
    expect(head.headers.get("etag")).toBe(full.headers.get("etag"));
    expect(head.headers.get("content-length")).toBe(String((await full.text()).length));
    expect(rendered).toEqual(["GET http://site.test/about"]);
  });

  it("keeps neither pages that set cookies nor error pages", async () => {
    for (const options of [{ setCookie: true }, { status: 404 }]) {
      const { get, rendered, cache } = setup(options);
      const first = await get("/about");
      await get("/about");
      expect(rendered).toHaveLength(2);
      expect(cache?.size).toBe(0);
      if (options.setCookie) expect(first.headers.getSetCookie()).toEqual(["a=b"]);
    }
  });

  it("does not keep a page whose render began before the listings changed", async () => {
    const { pipeline, cache } = setup();
    const pending = pipeline(new Request("http://site.test/properties"));
    cache?.clear();
    await pending;
    expect(cache?.has("/properties")).toBe(false);
  });
});
