// The document as the real production build renders it (npm test builds first): every inline
// script allowed by its hash, the security headers, and hydration deferred until after load.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAttributes } from "~/features/document/defer-hydration.server";
import { insertListing } from "~/features/listings/queries.server";
import { startTestApp, type TestApp } from "../tests/support/test-app";

const PAGES = [
  "/",
  "/properties",
  "/properties/doc-test",
  "/about",
  "/no-such-page",
  "/properties/none",
];

function scriptsOf(html: string) {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].map((m) => ({
    attributes: parseAttributes(m[1] as string),
    code: m[2] as string,
  }));
}

/** The script-src sources of a policy. */
function scriptSources(policy: string | null): string[] {
  return (/script-src ([^;]*)/.exec(policy ?? "")?.[1] ?? "").trim().split(/\s+/);
}

const sha256 = (code: string) =>
  `'sha256-${createHash("sha256").update(code, "utf8").digest("base64")}'`;

describe("the rendered document", () => {
  let site: TestApp;
  beforeAll(async () => {
    site = await startTestApp();
    await insertListing(site.db, "properties", "doc-test", {
      address: "1 Document Way",
      bedrooms: 2,
      bathrooms: 1,
      description: "Quiet street",
      image_urls: [],
      thumbnail_description: "",
      property_type: "Residential",
      currently_available: true,
      price: "1800",
      reserve_url: null,
    });
  });
  afterAll(() => site?.close());

  it.each(PAGES)("%s: a strict policy that allows each inline script by its hash", async (page) => {
    const response = await fetch(site.base + page);
    const policy = response.headers.get("content-security-policy") ?? "";
    for (const directive of [
      "default-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "frame-ancestors 'none'",
      "form-action 'self'",
    ]) {
      expect(policy).toContain(directive);
    }
    expect(policy).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    const sources = scriptSources(policy);
    expect(sources).toContain("'strict-dynamic'");
    expect(policy).not.toContain("nonce-");
    const scripts = scriptsOf(await response.text());
    expect(scripts.length).toBeGreaterThan(2);
    // Data blocks (JSON-LD) never run; every script that runs is allowed by its hash.
    const runnable = scripts.filter((s) => s.attributes.get("type") !== "application/ld+json");
    for (const script of runnable) {
      expect(script.attributes.has("nonce")).toBe(false);
      expect(sources).toContain(sha256(script.code));
    }
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  it("allows the module the deferred hydration adds, and no script of another page", async () => {
    const html = await (await fetch(`${site.base}/about`)).text();
    const loader = scriptsOf(html).find((s) => s.code.includes('addEventListener("load"'));
    const added = JSON.parse(
      /,c=("(?:[^"\\]|\\.)*")/.exec(loader?.code ?? "")?.[1] ?? '""',
    ) as string;
    expect(added).toContain("entry.client");
    const about = scriptSources(
      (await fetch(`${site.base}/about`)).headers.get("content-security-policy"),
    );
    expect(about).toContain(sha256(added));
    // Another page's data scripts differ: its hashes are not this page's.
    const home = scriptSources(
      (await fetch(`${site.base}/`)).headers.get("content-security-policy"),
    );
    expect(home.filter((h) => !about.includes(h)).length).toBeGreaterThan(0);
  });

  it("defers hydration: no module script or preload hint, a loader that adds them after load", async () => {
    const html = await (await fetch(`${site.base}/properties/doc-test`)).text();
    expect(html).toContain("1 Document Way");
    expect(html).not.toMatch(/<script[^>]*type="module"/);
    expect(html).not.toMatch(/<link[^>]*rel="modulepreload"/);
    const loader = scriptsOf(html).find((s) => s.code.includes('addEventListener("load"'));
    expect(loader).toBeDefined();
    const hrefs = JSON.parse(/h=(\[[^\]]*\])/.exec(loader?.code ?? "")?.[1] ?? "[]") as string[];
    expect(hrefs.length).toBeGreaterThan(2);
    for (const href of hrefs) {
      expect(fs.existsSync(path.join("build/client", href))).toBe(true);
    }
    // The module code imports the entry and the route modules, unchanged.
    expect(loader?.code).toContain("entry.client");
    expect(loader?.code).toContain("window.__reactRouterRouteModules");
  });

  it("gives every other response a policy that runs no script", async () => {
    for (const url of [
      "/healthz",
      "/api/listings/properties",
      "/images/properties/x/image_1_1.jpg",
    ]) {
      const response = await fetch(site.base + url);
      expect(response.headers.get("content-security-policy")).toContain("script-src 'none'");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
    }
  });
});

describe("Strict-Transport-Security", () => {
  it("is sent by a production site whose public address is https", async () => {
    const site = await startTestApp({
      env: {
        NODE_ENV: "production",
        PUBLIC_URL: "https://leasing.example.com",
      },
    });
    try {
      const page = await fetch(`${site.base}/about`);
      expect(page.headers.get("strict-transport-security")).toBe(
        "max-age=31536000; includeSubDomains",
      );
      const health = await fetch(`${site.base}/healthz`);
      expect(health.headers.get("strict-transport-security")).toBe(
        "max-age=31536000; includeSubDomains",
      );
    } finally {
      await site.close();
    }
  });
});
