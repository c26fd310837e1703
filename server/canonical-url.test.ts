// One URL per page, on the site's real route table (the production build's).
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { createPageTargets, type PageTargets } from "./canonical-url";

let targets: PageTargets;
beforeAll(async () => {
  const build = (await import(
    pathToFileURL(path.resolve("build/server/index.js")).href
  )) as ServerBuild;
  targets = createPageTargets(build.routes);
});
const target = (t: string) => targets(new URL(`http://site${t}`));

describe("canonical page URLs", () => {
  it("keeps canonical URLs as they are", () => {
    for (const url of [
      "/",
      "/about",
      "/properties",
      "/properties?filter=available",
      "/properties/3233-4th-street-n",
      "/properties/3233-4th-street-n/history",
      "/new-construction/Some%20Id",
      "/sitemap.xml",
      "/admin/site",
    ]) {
      expect(target(url), url).toEqual({ key: url });
    }
  });

  it("redirects case and slash variants of the fixed segments, keeping ids as sent", () => {
    expect(target("/PROPERTIES").redirect).toBe("/properties");
    expect(target("/properties/").redirect).toBe("/properties");
    expect(target("/Properties/ABC/History/").redirect).toBe("/properties/ABC/history");
    expect(target("/New-Construction/x").redirect).toBe("/new-construction/x");
    expect(target("/Sitemap.XML").redirect).toBe("/sitemap.xml");
    expect(target("/EditProperties/a-b").redirect).toBe("/editproperties/a-b");
  });

  it("drops parameters and values a page does not take, keeping the others' spelling", () => {
    expect(target("/?utm_source=x").redirect).toBe("/");
    expect(target("/about?index").redirect).toBe("/about");
    expect(target("/properties?filter=all").redirect).toBe("/properties");
    expect(target("/properties?a=1&filter=available").redirect).toBe(
      "/properties?filter=available",
    );
    // The address stays in the browser's URL, but the page is kept without it.
    expect(target("/rental-application?address=12%20Oak%20%26%20Elm")).toEqual({
      key: "/rental-application",
    });
    expect(target("/rental-application?address=").redirect).toBe("/rental-application");
  });

  it("takes no inherited property of the declarations for a parameter (found by the fuzz suite)", () => {
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
      expect(target(`/properties?${name}=x`).redirect, name).toBe("/properties");
      expect(target(`/about?${name}`).redirect, name).toBe("/about");
      expect(target(`/properties.data?${name}=1`), name).toEqual({ key: "/properties.data" });
    }
  });

  it("answers route data for the canonical URL, never redirecting it", () => {
    expect(target("/properties.data?filter=available&x=1")).toEqual({
      key: "/properties.data?filter=available",
    });
    expect(target("/PROPERTIES.data")).toEqual({ key: "/properties.data" });
    expect(target("/_root.data?q=1")).toEqual({ key: "/_root.data" });
    // _routes: only this page's routes, in order; all of them is the same as none.
    expect(target("/properties.data?_routes=routes%2Fproperties%2Croot")).toEqual({
      key: "/properties.data",
    });
    expect(target("/properties.data?_routes=routes%2Fproperties,routes%2Fabout")).toEqual({
      key: "/properties.data?_routes=routes%2Fproperties",
    });
    expect(target("/rental-application.data?address=1")).toEqual({
      key: "/rental-application.data",
    });
  });

  it("gives every unknown path the not-found page, whatever its query", () => {
    expect(target("/no-such-page?x=1")).toEqual({ key: "/no-such-page" });
    expect(target("/properties/a/b/c?x=1")).toEqual({ key: "/properties/a/b/c" });
    expect(target("/__manifest?p=%2Fabout&version=1")).toEqual({
      key: "/__manifest?p=%2Fabout&version=1",
    });
  });
});
