// Request targets that are no valid URL for WHATWG URL (found by the fuzz suite,
// tests/resilience/fuzz.test.ts): "//%F1%80" threw inside the kept-page lookup, outside any
// handler, and ended the process. Such targets get a 4xx with a message; the server lives on.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawSocket } from "../tests/support/raw-http";
import { startTestApp, type TestApp } from "../tests/support/test-app";
import { createPageTargets } from "./canonical-url";
import { pageKey } from "./page-pipeline";
import { targetUrl } from "./request-target";

describe("targetUrl", () => {
  it("reads a target that starts with // as a path, never as another host", () => {
    expect(targetUrl("//evil.example/x", "http://site")?.href).toBe("http://site//evil.example/x");
    expect(targetUrl("//%F1%80", "http://site")?.pathname).toBe("//%F1%80");
    const pageTargets = createPageTargets({});
    expect(pageKey("//%F1%80/", pageTargets)).toBe("//%F1%80/");
    // No page there: the not-found page, the same for any query.
    expect(pageKey("//%F1%80/?q=1&address=x", pageTargets)).toBe("//%F1%80/");
  });
  it("accepts an absolute target and refuses what is no URL", () => {
    expect(targetUrl("http://other/about?a=1", "http://site")?.pathname).toBe("/about");
    expect(targetUrl("http://[::1", "http://site")).toBeNull();
  });
});

describe("hostile request targets, through the whole app", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  const get = (target: string, extra = "") =>
    rawSocket(t.base, `GET ${target} HTTP/1.1\r\nHost: x\r\n${extra}Connection: close\r\n\r\n`);

  it.each(["//%F1%80", "//%F1...", "//evil.example/about", "//%F1%80%80?q=a"])(
    "%s answers 404 (a path no page has) and the server keeps serving",
    async (target) => {
      for (const cookie of ["", "Cookie: session=x\r\n"]) {
        const res = await get(target, cookie);
        expect(res.status, target).toBe(404);
        expect(res.body.toString()).toContain("Page not found");
      }
      expect((await get("/about")).status).toBe(200);
    },
  );

  it("answers a target no URL parser reads with a 4xx and a message", async () => {
    const res = await get("http://[::1");
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.toString().length).toBeGreaterThan(0);
    expect((await get("/about")).status).toBe(200);
  });
});
