// `npm run bench -- --scale` (or `--only=scale`): the site with 10,000 listings (docs/architecture.md, "Speed and search").
// Loads 8,000 properties and 2,000 new constructions into a fresh PostgreSQL database
// (bench_scale on BENCH_POSTGRES_URL's server), starts the production build on it without demo
// content, and measures the list pages unfiltered and with each filter, the filter change in
// Chromium, /admin/listings and the sitemap. No reference build is involved.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type LighthouseResult, lighthouse } from "./lighthouse";
import type { Check } from "./report";
import { domElements, type FilterChange, filterChange, withBrowser } from "./scale-browser";
import { SEARCH_WORD, scaleListings } from "./scale-data";
import { adminListings, land, renderTimes, sitemap } from "./scale-http";
import { type PageRow, SCALE_BUDGETS } from "./scale-report";
import { freshDatabase, seedScale } from "./scale-seed";
import { type RunningServer, startServer } from "./server";
import { kb } from "./stats";

export interface ScaleOptions {
  /** Lighthouse runs per page (median); 0 skips Lighthouse. */
  lighthouseRuns: number;
  /** The PostgreSQL server to create the database on (any database of it). */
  postgresUrl: string;
}

/** The URLs measured, in the order of the table. `availableBy` is about 60 days ahead. */
export function scaleUrls(today: Date): string[] {
  const in60Days = new Date(today.getTime() + 60 * 86_400_000).toISOString().slice(0, 10);
  return [
    "/properties",
    "/properties?filter=available",
    "/properties?beds=2",
    "/properties?baths=2",
    "/properties?minRent=1500&maxRent=3000",
    "/properties?pets=dogs",
    `/properties?availableBy=${in60Days}`,
    `/properties?q=${SEARCH_WORD}`,
    "/properties?sort=rent-asc",
    "/new-construction",
    "/new-construction?beds=3",
  ];
}

export async function scaleBench(
  options: ScaleOptions,
  servers: RunningServer[],
): Promise<{
  results: Record<string, unknown>;
  /** Every figure with its budget; `others` those not in the page table. */
  checks: Check[];
  others: Check[];
  rows: PageRow[];
}> {
  const today = new Date();
  const results: Record<string, unknown> = {};
  const checks: Check[] = [];

  console.log("Creating the database bench_scale and loading 10,000 listings...");
  const listings = scaleListings({ today });
  const databaseUrl = await freshDatabase(options.postgresUrl, "bench_scale");
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "bench-scale-"));
  const seeded = await seedScale(databaseUrl, dataDir, listings);
  const { adminCookie, ...seedFigures } = seeded;
  results.seed = { database: databaseUrl.replace(/\/\/[^@/]*@/, "//"), ...seedFigures };
  console.log(
    `  ${seeded.listings} listings in ${seeded.seconds.insert} s, ${seeded.photos} shared photos in ${seeded.seconds.photos} s`,
  );

  console.log("Starting the production server on it (SEED_DEMO=false)...");
  const site = await startServer("scale", {
    DATABASE_URL: databaseUrl,
    SEED_DEMO: "false",
    DATA_DIR: dataDir,
  });
  servers.push(site);

  // Where each URL lands (filters not implemented yet redirect, 308, to the unfiltered page);
  // this also leaves every page kept for signed-out visitors before Lighthouse loads it.
  const urls = scaleUrls(today);
  const landings = [];
  for (const url of urls) landings.push(await land(site.base, url));
  const finals = [...new Set(landings.map((l) => l.final))];
  for (const l of landings) {
    const via = l.redirects.length ? `${l.redirects.join(", ")} → ` : "";
    console.log(`  ${l.asked} → ${via}${l.final} (${l.status}, ${kb(l.htmlBytes)} KB)`);
  }

  console.log(
    `Uncached renders (signed-in admin), 50 per page (fewer after 30 s), ${finals.length} distinct pages...`,
  );
  const renders = new Map<string, Awaited<ReturnType<typeof renderTimes>>>();
  for (const final of finals) renders.set(final, await renderTimes(site.base, final, adminCookie));

  console.log("Chromium: DOM size of each page, and the 'Bedrooms' filter change (5 runs)...");
  const { dom, change } = await withBrowser(async (browser) => {
    const dom = new Map<string, number>();
    for (const final of finals) dom.set(final, await domElements(browser, site.base + final));
    const change: FilterChange = await filterChange(browser, `${site.base}/properties`, 5);
    return { dom, change };
  });

  console.log("/admin/listings and /sitemap.xml...");
  const admin = await adminListings(site.base, adminCookie);
  const map = await sitemap(site.base);

  const lh = new Map<string, LighthouseResult>();
  const lhErrors = new Map<string, string>();
  if (options.lighthouseRuns > 0) {
    console.log(
      `Lighthouse (mobile), ${options.lighthouseRuns} run(s) on each of ${finals.length} distinct pages...`,
    );
    for (const final of finals) {
      try {
        const [result] = await lighthouse(site.base, [final], options.lighthouseRuns);
        if (result) lh.set(final, result);
      } catch (error) {
        // A page too big for Lighthouse is a finding, not the end of the run.
        // Lighthouse's CLI says why in its last line of standard error.
        const stderr = String((error as { stderr?: unknown }).stderr ?? "").trim();
        const reason =
          stderr.split("\n").pop() ||
          (error instanceof Error ? error.message.split("\n")[0] : String(error));
        lhErrors.set(final, reason ?? "failed");
        console.log(`  Lighthouse failed on ${final}: ${reason}`);
      }
    }
  }

  const rows: PageRow[] = landings.map((l) => {
    const r = renders.get(l.final);
    const page = lh.get(l.final);
    return {
      asked: l.asked,
      landed: `${l.redirects.length ? `${l.redirects.join(", ")} → ` : ""}${l.final === l.asked ? "itself" : l.final}${l.status === 200 ? "" : ` (${l.status})`}`,
      score: page?.score,
      lighthouseError: lhErrors.get(l.final),
      lcpMs: page?.lcpMs,
      tbtMs: page?.tbtMs,
      cls: page?.cls,
      htmlBytes: l.htmlBytes,
      domElements: dom.get(l.final),
      renderP50Ms: r?.p50Ms ?? Number.NaN,
      renderP99Ms: r?.p99Ms ?? Number.NaN,
      renders: r?.requests ?? 0,
    };
  });
  results.pages = landings.map(({ html: _, ...l }) => ({
    ...l,
    domElements: dom.get(l.final),
    render: renders.get(l.final),
    lighthouse: lh.get(l.final) ?? lhErrors.get(l.final),
  }));
  results.lighthouseRuns = options.lighthouseRuns;
  results.filterChange = change;
  results.adminListings = admin;
  results.sitemap = map;

  const b = SCALE_BUDGETS;
  for (const row of rows) {
    const on = `${row.asked}${row.landed === "itself" ? "" : ` (${row.landed})`}`;
    if (row.lighthouseError !== undefined) {
      checks.push({
        what: `${on}: Lighthouse`,
        value: `failed: ${row.lighthouseError}`,
        budget: `≥ ${b.lighthouseScore}`,
        ok: false,
      });
    }
    if (row.score !== undefined) {
      checks.push(
        {
          what: `${on}: Lighthouse score`,
          value: (row.score / 100).toFixed(2),
          budget: `≥ ${b.lighthouseScore}`,
          ok: row.score / 100 >= b.lighthouseScore,
        },
        {
          what: `${on}: LCP`,
          value: `${row.lcpMs} ms`,
          budget: `≤ ${b.lcpMs} ms`,
          ok: (row.lcpMs ?? 0) <= b.lcpMs,
        },
        {
          what: `${on}: TBT`,
          value: `${row.tbtMs} ms`,
          budget: `≤ ${b.tbtMs} ms`,
          ok: (row.tbtMs ?? 0) <= b.tbtMs,
        },
        {
          what: `${on}: CLS`,
          value: (row.cls ?? 0).toFixed(3),
          budget: `≤ ${b.cls}`,
          ok: (row.cls ?? 0) <= b.cls,
        },
      );
    }
    checks.push(
      {
        what: `${on}: HTML`,
        value: `${kb(row.htmlBytes)} KB`,
        budget: "≤ 100 KB",
        ok: row.htmlBytes <= b.htmlBytes,
      },
      {
        what: `${on}: uncached render p50 (p99 ${row.renderP99Ms} ms, ${row.renders} requests)`,
        value: `${row.renderP50Ms} ms`,
        budget: `≤ ${b.renderP50Ms} ms`,
        ok: row.renderP50Ms <= b.renderP50Ms,
      },
    );
  }
  const others: Check[] = [
    change.measured
      ? {
          what: `Filter 'Bedrooms' → '2+' to list painted (runs ${change.runsMs.join(", ")} ms; '${change.before}' → '${change.after}')`,
          value: `${change.medianMs} ms`,
          budget: `≤ ${b.filterChangeMs} ms`,
          ok: change.medianMs <= b.filterChangeMs,
        }
      : {
          what: "Filter 'Bedrooms' → '2+' to list painted",
          value: `n/a (${change.reason})`,
          budget: `≤ ${b.filterChangeMs} ms`,
          ok: null,
        },
    admin.timing
      ? {
          what: `/admin/listings render, admin (${kb(admin.htmlBytes ?? 0)} KB; p99 ${admin.timing.p99Ms} ms)`,
          value: `p50 ${admin.timing.p50Ms} ms`,
          budget: "(info)",
          ok: null,
        }
      : {
          what: "/admin/listings render, admin",
          value: `n/a (${admin.status})`,
          budget: "(info)",
          ok: null,
        },
    ...[map.index, ...(map.child ? [map.child] : [])].map(
      (file): Check => ({
        what: `${file.path}: ${kb(file.bytes)} KB, ${file.urls} <url> entries${file === map.child ? " (first child of the index)" : ""}`,
        value: `p50 ${file.timing.p50Ms} ms (max ${file.timing.maxMs} ms)`,
        budget: "(info)",
        ok: null,
      }),
    ),
  ];
  checks.push(...others);
  return { results, checks, others, rows };
}
