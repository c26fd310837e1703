// Public pages must not download admin, sign-in-form, drag-and-drop, lightbox or dialog code
// until it is used. Checked on the production build (npm test builds first).
import fs from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import type { ServerBuild } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";

const PUBLIC_ROUTES = [
  "root",
  "routes/home",
  "routes/about",
  "routes/contact",
  "routes/properties",
  "routes/property-detail",
  "routes/new-construction",
  "routes/construction-detail",
  "routes/rental-application",
  "routes/not-found",
];

/** Strings only the on-demand code contains (checked below to exist in the build at all). */
const ON_DEMAND_MARKERS = {
  lightbox: "yarl__",
  "drag-and-drop": "DndLiveRegion",
  "admin forms (drafts)": "draft:",
  "admin API client": "/api/listings",
  "admin detail block": "Toggle Availability",
  dialog: "showModal",
};

const assetsDir = path.resolve("build/client");
let build: ServerBuild;
let allJs: string[];

beforeAll(async () => {
  build = (await import(pathToFileURL(path.resolve("build/server/index.js")).href)) as ServerBuild;
  allJs = (await fs.readdir(path.join(assetsDir, "assets"))).filter((f) => f.endsWith(".js"));
});

function publicFiles(): string[] {
  const files = new Set<string>([build.assets.entry.module, ...build.assets.entry.imports]);
  for (const id of PUBLIC_ROUTES) {
    const route = build.assets.routes[id];
    expect(route, id).toBeDefined();
    files.add(route?.module as string);
    for (const file of route?.imports ?? []) files.add(file);
  }
  return [...files];
}

describe("the public pages' JavaScript", () => {
  it("does not include code that only admins or an opened photo need", async () => {
    const files = publicFiles();
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const code = await fs.readFile(path.join(assetsDir, file), "utf8");
      for (const [what, marker] of Object.entries(ON_DEMAND_MARKERS)) {
        expect.soft(code.includes(marker), `${what} code in ${file}`).toBe(false);
      }
    }
  });

  it("has that code in the build, loaded on demand", async () => {
    const publicNames = new Set(publicFiles().map((f) => path.basename(f)));
    for (const [what, marker] of Object.entries(ON_DEMAND_MARKERS)) {
      const holders: string[] = [];
      for (const file of allJs) {
        const code = await fs.readFile(path.join(assetsDir, "assets", file), "utf8");
        if (code.includes(marker)) holders.push(file);
      }
      expect(holders.length, `${what} is somewhere in the build`).toBeGreaterThan(0);
      expect(
        holders.filter((h) => publicNames.has(h)),
        what,
      ).toEqual([]);
    }
  });

  it("keeps admin routes' modules out of public routes' imports", () => {
    const adminModules = ["routes/add-property", "routes/edit-property", "routes/manage-admins"]
      .map((id) => build.assets.routes[id]?.module)
      .filter(Boolean);
    expect(adminModules).toHaveLength(3);
    for (const file of publicFiles()) expect(adminModules).not.toContain(file);
  });
});

/**
 * Every page a visitor can open (routes with a page; resource routes and admin-only pages left
 * out), and what each may ship on top of the home page's JavaScript.
 */
const VISITOR_PAGES = [
  "routes/about",
  "routes/contact",
  "routes/properties",
  "routes/property-detail",
  "routes/new-construction",
  "routes/construction-detail",
  "routes/rental-application",
  "routes/apply-online",
  "routes/application-link",
  "routes/inquiries",
  "routes/privacy",
  "routes/alerts",
  "routes/alerts-confirm",
  "routes/alerts-unsubscribe",
  "routes/showings-book",
  "routes/showings-manage",
  "routes/not-found",
];
const BUDGET = 2 * 1024;
/** A page's JavaScript as the browser fetches it: entry, root and route chunks with their imports, gzip. */
async function pageBytes(id: string): Promise<number> {
  const files = new Set<string>([build.assets.entry.module, ...build.assets.entry.imports]);
  for (const routeId of ["root", id]) {
    const route = build.assets.routes[routeId];
    expect(route, routeId).toBeDefined();
    files.add(route?.module as string);
    for (const file of route?.imports ?? []) files.add(file);
  }
  let total = 0;
  for (const file of files) {
    total += gzipSync(await fs.readFile(path.join(assetsDir, file)), { level: 9 }).length;
  }
  return total;
}

describe("each public page's JavaScript", () => {
  it("is within 2 KB of the home page's (gzip), forms' code loaded when used", async () => {
    const home = await pageBytes("routes/home");
    const over: Record<string, number> = {};
    for (const id of VISITOR_PAGES) over[id] = (await pageBytes(id)) - home;
    for (const [id, extra] of Object.entries(over)) {
      expect.soft(extra, `${id}: ${extra} bytes over /`).toBeLessThanOrEqual(BUDGET);
    }
  });
});
