// The import rules of docs/decisions/0032-layers-and-feature-surfaces.md, checked on every source file:
// shared → domain → ui (the form kit) → features → routes (and the server), never backwards; a
// feature uses another feature only through its public surface (index.ts, index.server.ts,
// lazy.ts); features never depend on each other in a circle (the admin feature is composed by
// the routes, never imported by the public pages it extends); no server module imports a UI
// module; images know nothing of listings. No exceptions.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => path.posix.join(dir, f.split(path.sep).join("/")));
}

/** Every app module a file imports, as a path from the repository root without extension. */
function importsOf(file: string): string[] {
  const source = fs.readFileSync(path.join(root, file), "utf8");
  const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map(
    (m) => m[1] as string,
  );
  return specifiers
    .flatMap((spec) => {
      if (spec.startsWith("~/")) return [`app/${spec.slice(2)}`];
      if (spec.startsWith(".")) return [path.posix.join(path.posix.dirname(file), spec)];
      return [];
    })
    .map((p) => p.replace(/\.(ts|tsx)$/, ""));
}

function layerOf(file: string): string {
  if (file.startsWith("app/shared/")) return "shared";
  if (file.startsWith("app/domain/")) return "domain";
  if (file === "app/ui" || file.startsWith("app/ui/")) return "ui";
  if (file.startsWith("app/features/")) return `feature:${file.split("/")[2]}`;
  return "top"; // routes, root, entries, app context, server/
}

const files = [...sourceFiles("app"), ...sourceFiles("server")];
const edges = files.flatMap((from) => importsOf(from).map((to) => ({ from, to })));
const violations = (rule: (e: { from: string; to: string }) => string | null) =>
  edges.map(rule).filter((v): v is string => v !== null);

describe("layers", () => {
  it("finds the app's import graph", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(edges.length).toBeGreaterThan(100);
  });

  it("flow one way: shared → domain → ui → features → routes and server", () => {
    const rank = (layer: string) =>
      ({ shared: 0, domain: 1, ui: 2 })[layer] ?? (layer.startsWith("feature:") ? 3 : 4);
    expect(
      violations(({ from, to }) =>
        rank(layerOf(to)) > rank(layerOf(from)) ? `${from} imports ${to}` : null,
      ),
    ).toEqual([]);
  });

  it("let features use each other only through their public surface", () => {
    expect(
      violations(({ from, to }) => {
        const [a, b] = [layerOf(from), layerOf(to)];
        if (!a.startsWith("feature:") || !b.startsWith("feature:") || a === b) return null;
        const publicSurface = /^app\/features\/[^/]+(\/(index|index\.server|lazy))?$/.test(to);
        return publicSurface ? null : `${from} imports ${to}`;
      }),
    ).toEqual([]);
  });

  it("let routes and the app's root use features only through their public surface", () => {
    expect(
      violations(({ from, to }) => {
        if (layerOf(from) !== "top" || !from.startsWith("app/")) return null;
        if (!to.startsWith("app/features/")) return null;
        const publicSurface = /^app\/features\/[^/]+(\/(index|index\.server|lazy))?$/.test(to);
        return publicSurface ? null : `${from} imports ${to}`;
      }),
    ).toEqual([]);
  });

  it("let everything outside the form kit use it only through its index", () => {
    expect(
      violations(({ from, to }) =>
        layerOf(to) === "ui" && layerOf(from) !== "ui" && to !== "app/ui/index" && to !== "app/ui"
          ? `${from} imports ${to}`
          : null,
      ),
    ).toEqual([]);
  });

  it("let features depend on each other without cycles", () => {
    const uses = new Map<string, Set<string>>();
    for (const { from, to } of edges) {
      const [a, b] = [layerOf(from), layerOf(to)];
      if (!a.startsWith("feature:") || !b.startsWith("feature:") || a === b) continue;
      uses.set(a, (uses.get(a) ?? new Set()).add(b));
    }
    const cycles: string[] = [];
    const walk = (path: string[]) => {
      const last = path[path.length - 1] as string;
      for (const next of uses.get(last) ?? []) {
        if (next === path[0]) cycles.push([...path, next].join(" → "));
        else if (!path.includes(next) && next > (path[0] as string)) walk([...path, next]);
      }
    };
    for (const start of uses.keys()) walk([start]);
    expect(cycles).toEqual([]);
  });

  it("keep UI modules out of server modules", () => {
    const isUi = (p: string) => fs.existsSync(path.join(root, `${p}.tsx`));
    expect(
      violations(({ from, to }) =>
        from.endsWith(".server.ts") && isUi(to) ? `${from} imports ${to}` : null,
      ),
    ).toEqual([]);
  });

  it("keep images independent of listings", () => {
    expect(
      violations(({ from, to }) =>
        from.startsWith("app/features/images/") && to.startsWith("app/features/listings/")
          ? `${from} imports ${to}`
          : null,
      ),
    ).toEqual([]);
  });
});
