// JavaScript and CSS each public route makes a browser download (entry + root + route module
// and their imports, from the build's manifest), as the server sends them: brotli and gzip.
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";

export const PUBLIC_ROUTES: Record<string, string> = {
  "/": "routes/home",
  "/about": "routes/about",
  "/contact": "routes/contact",
  "/properties": "routes/properties",
  "/properties/{id}": "routes/property-detail",
  "/new-construction": "routes/new-construction",
  "/new-construction/{id}": "routes/construction-detail",
  "/rental-application": "routes/rental-application",
};

/** Strings only on-demand code contains (see server/public-bundle.test.ts). */
const ON_DEMAND_MARKERS = ["yarl__", "DndLiveRegion", "draft:", "/api/listings", "showModal"];

export interface RouteBytes {
  route: string;
  files: number;
  jsBrotli: number;
  jsGzip: number;
  cssBrotli: number;
  cssGzip: number;
  onDemandCodeFound: string[];
}

function transferred(url: string, encoding: string): Promise<{ bytes: number; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": encoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          resolve({
            bytes: body.length,
            text: res.headers["content-encoding"] ? "" : body.toString(),
          });
        });
      })
      .on("error", reject);
  });
}

export async function bundles(base: string): Promise<RouteBytes[]> {
  const build = (await import(
    pathToFileURL(path.resolve("build/server/index.js")).href
  )) as ServerBuild;
  const { assets } = build;
  const results: RouteBytes[] = [];
  for (const [route, id] of Object.entries(PUBLIC_ROUTES)) {
    const routes = [assets.routes.root, assets.routes[id]];
    const js = new Set<string>([assets.entry.module, ...assets.entry.imports]);
    const css = new Set<string>();
    for (const r of routes) {
      if (!r) throw new Error(`route ${id} missing from the build`);
      js.add(r.module);
      for (const f of r.imports ?? []) js.add(f);
      for (const f of r.css ?? []) css.add(f);
    }
    const row: RouteBytes = {
      route,
      files: js.size + css.size,
      jsBrotli: 0,
      jsGzip: 0,
      cssBrotli: 0,
      cssGzip: 0,
      onDemandCodeFound: [],
    };
    for (const file of js) {
      row.jsBrotli += (await transferred(base + file, "br")).bytes;
      row.jsGzip += (await transferred(base + file, "gzip")).bytes;
      const plain = (await transferred(base + file, "identity")).text;
      for (const marker of ON_DEMAND_MARKERS) {
        if (plain.includes(marker)) row.onDemandCodeFound.push(`${marker} in ${file}`);
      }
    }
    for (const file of css) {
      row.cssBrotli += (await transferred(base + file, "br")).bytes;
      row.cssGzip += (await transferred(base + file, "gzip")).bytes;
    }
    results.push(row);
  }
  return results;
}
