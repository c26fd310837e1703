import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { createPageTargets, type RouteTable } from "./canonical-url";
import { PageCache } from "./page-cache";
import { createPagePipeline, pageKey } from "./page-pipeline";

/** A few of the site's routes, as React Router's build lists them. */
const ROUTES: RouteTable = {
  root: { path: "" },
  "routes/home": { parentId: "root", index: true },
  "routes/about": { parentId: "root", path: "about" },
  "routes/properties": { parentId: "root", path: "properties" },
  "routes/property-detail": { parentId: "root", path: "properties/:id" },
  "routes/rental-application": { parentId: "root", path: "rental-application" },
  "routes/not-found": { parentId: "root", path: "*" },
};
const pageTargets = createPageTargets(ROUTES);

type Who = { user: string | null };

/** A pipeline around a render function that records what it was asked to render. */
function setup(
  options: {
    cache?: boolean;
    setCookie?: boolean;
    status?: number;
    rendersAllowed?: number;
    refusalDelayMs?: number;
  } = {},
) {
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
    pageTargets,
    limitRender: () => (rendered.length >= (options.rendersAllowed ?? Infinity) ? 42 : 0),
    refusalDelayMs: options.refusalDelayMs ?? 0,
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

  it("drops query parameters a page does not take, before rendering and from the key", async () => {
    const { get, rendered } = setup();
    // Route data is answered for the canonical URL (a client navigation is never redirected).
    await get("/properties.data?filter=available&utm_source=x");
    await get("/properties.data?nonce=123&filter=available");
    await get("/about.data?whatever=1");
    expect(rendered).toEqual([
      "GET http://site.test/properties.data?filter=available",
      "GET http://site.test/about.data",
    ]);
    const manifest = new URL("http://site.test/__manifest?p=%2Fabout&version=1");
    expect(pageTargets(manifest)).toEqual({ key: "/__manifest?p=%2Fabout&version=1" });
  });

  it("redirects other forms of a page URL (case, trailing slash, unused query) with 308, rendering nothing", async () => {
    const { get, rendered } = setup();
    for (const [asked, canonical] of [
      ["/PROPERTIES", "/properties"],
      ["/properties/", "/properties"],
      ["/About//", "/about"],
      ["/properties?filter=AVAILABLE", "/properties"],
      ["/properties?x=1&filter=available&filter=x", "/properties?filter=available"],
      ["/Properties/Some-ID/", "/properties/Some-ID"],
    ]) {
      const res = await get(asked as string);
      expect([asked, res.status, res.headers.get("location")]).toEqual([asked, 308, canonical]);
    }
    expect(rendered).toEqual([]);
  });

  it("renders the rental application once for any address (the browser shows it)", async () => {
    const { get, rendered } = setup();
    for (const address of ["1%20Main", "2+Oak", "%E6%9D%B1%E4%BA%AC"]) {
      const res = await get(`/rental-application?address=${address}`);
      expect(res.status).toBe(200);
    }
    expect(rendered).toEqual(["GET http://site.test/rental-application"]);
    expect((await get("/rental-application?address=1&utm=2")).headers.get("location")).toBe(
      "/rental-application?address=1",
    );
  });

  it("refuses a render beyond the client's limit with 429 and Retry-After; kept pages still answer", async () => {
    const { get, rendered } = setup({ rendersAllowed: 1 });
    expect((await get("/about")).status).toBe(200);
    const refused = await get("/properties");
    expect([refused.status, refused.headers.get("retry-after")]).toEqual([429, "42"]);
    expect(await refused.text()).toBe(
      "Too many pages asked for from your network in a short time. Try again in 42 seconds.",
    );
    expect((await get("/about")).status).toBe(200);
    expect(rendered).toHaveLength(1);
  });

  it("beyond the limit refuses redirects too, and holds every refusal back", async () => {
    const { get, rendered } = setup({ rendersAllowed: 1, refusalDelayMs: 300 });
    expect((await get("/about")).status).toBe(200);
    // Under the limit a variant is redirected; here it is refused like a render.
    const started = performance.now();
    const [variant, render] = await Promise.all([get("/ABOUT/"), get("/properties")]);
    expect([variant.status, variant.headers.get("retry-after")]).toEqual([429, "42"]);
    expect([render.status, render.headers.get("retry-after")]).toEqual([429, "42"]);
    // A script's connection waits for each refusal, so it can ask only about once a second.
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    // Kept pages are answered at once, whoever asks.
    expect((await get("/about")).status).toBe(200);
    expect(rendered).toHaveLength(1);
  });

  it("keys a plain path as the canonical form would, without parsing it", () => {
    const plain = ["/", "/about", "/properties/3233-4th-street-n", "/x/", "/A~b_c.d-e/"];
    for (const target of plain) expect(pageKey(target, pageTargets)).toBe(target);
    // Parsed: dot segments resolved; a form that is redirected is never a key.
    expect(pageKey("/a/../about", pageTargets)).toBe("/about");
    expect(pageKey("/properties?filter=available", pageTargets)).toBe(
      "/properties?filter=available",
    );
    expect(pageKey("/properties?filter=x", pageTargets)).toBeUndefined();
    // The address is the browser's: the page is kept without it.
    expect(pageKey("/rental-application?address=9%20Elm", pageTargets)).toBe("/rental-application");
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
