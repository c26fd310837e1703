import { describe, expect, it } from "vitest";
import { deferHydration } from "./defer-hydration";

const page = `<!DOCTYPE html><html><head><link rel="modulepreload" href="/assets/entry.client-A.js"/><link rel="modulepreload" href="/assets/root-B.js"/><link rel="stylesheet" href="/assets/root.css"/></head><body><h1>3233 4th Street N</h1><script>window.__reactRouterContext = {};</script><script type="module" async="">import * as route0 from "/assets/root-B.js";
window.__reactRouterManifest = {"x":"</script-ish"};
import("/assets/entry.client-A.js");</script><script>window.__reactRouterContext.streamController.close();</script></body></html>`;

describe("deferHydration", () => {
  const out = deferHydration(page);

  it("removes the preload hints and the module script from the markup", () => {
    expect(out).not.toContain('<link rel="modulepreload"');
    expect(out).not.toContain('<script type="module"');
  });

  it("keeps the content, the stylesheet and the router's data scripts in place", () => {
    expect(out).toContain("<h1>3233 4th Street N</h1>");
    expect(out).toContain('<link rel="stylesheet" href="/assets/root.css"/>');
    expect(out).toContain("<script>window.__reactRouterContext = {};</script>");
    expect(out).toContain("streamController.close()");
  });

  it("adds both again after load, with the module code intact and unable to end the tag", () => {
    const loader = /<script>(\(function\(\)\{[\s\S]*?\}\)\(\))<\/script>/.exec(out)?.[1] ?? "";
    expect(loader).toContain('addEventListener("load"');
    expect(loader).toContain('["/assets/entry.client-A.js","/assets/root-B.js"]');
    expect(loader).toContain('import(\\"/assets/entry.client-A.js\\");');
    expect(loader).not.toContain("</script");
    expect(loader).toContain("\\u003c/script-ish");
  });

  it("leaves other HTML alone", () => {
    const plain = "<html><body><p>Sign-in unavailable</p></body></html>";
    expect(deferHydration(plain)).toBe(plain);
  });
});
