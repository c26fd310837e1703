// `npm run bench [-- --only=lighthouse,bundles,images,throughput,live,upload]`
// `npm run bench -- --scale [--lighthouse-runs=N] [--no-build]`: the scale mode (scale.ts), alone.
// Builds the site, starts it on a fresh embedded database with the demo content and measures
// the budgets of the performance issue. Prints a table and writes bench-results/*.json.
//
// Two servers, one after the other: a production one (NODE_ENV=production: React's production
// server build, no sign-in) for everything a visitor gets, then one with NODE_ENV=development
// (the built-in development sign-in runs only then, so the benchmark can be an admin) for live
// updates and uploads, which involve no React rendering.
import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import { bundles } from "./bundles";
import { imageBytes } from "./images";
import { type LighthouseResult, lighthouseSideBySide } from "./lighthouse";
import { liveDelivery } from "./live";
import { prepareReference, REFERENCE_COMMIT } from "./reference";
import { type Check, printReport } from "./report";
import { scaleBench } from "./scale";
import { printPageTable } from "./scale-report";
import { detailPathWithPhotos, type RunningServer, startServer } from "./server";
import { signInAs } from "./sign-in";
import { kb } from "./stats";
import { throughput } from "./throughput";
import { uploadTime } from "./upload";

const ALL = ["lighthouse", "bundles", "images", "throughput", "live", "upload"] as const;
const onlyArg = process.argv.find((a) => a.startsWith("--only="));
const only = new Set(onlyArg ? onlyArg.slice("--only=".length).split(",") : ALL);
const wants = (part: (typeof ALL)[number]) => only.has(part);
/** `--no-reference`: Lighthouse without the reference build beside it. */
const noReference = process.argv.includes("--no-reference");
/** `--scale` (or `--only=scale`): 10,000 listings on PostgreSQL, nothing else (scale.ts). */
const scaleMode = process.argv.includes("--scale") || only.has("scale");
const runsArg = process.argv.find((a) => a.startsWith("--lighthouse-runs="));
const lighthouseRuns = runsArg ? Number(runsArg.slice("--lighthouse-runs=".length)) : 3;
/** `--no-build`: use the build that is there (repeated scale runs while developing). */
const noBuild = process.argv.includes("--no-build");

const results: Record<string, unknown> = { startedAt: new Date().toISOString() };
const checks: Check[] = [];
const servers: RunningServer[] = [];

async function main() {
  if (!noBuild) {
    console.log("Building the production site...");
    execFileSync("npx", ["react-router", "build"], {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, NODE_ENV: "production" },
    });
  }
  if (scaleMode) return scale();

  if (wants("lighthouse") || wants("bundles") || wants("images") || wants("throughput")) {
    console.log("Starting the production server (seeding demo content)...");
    const site = await startServer("site");
    servers.push(site);
    const detail = await detailPathWithPhotos(site.base);
    results.detailPage = detail;

    if (wants("bundles")) {
      console.log("Measuring JavaScript and CSS per public route...");
      const rows = await bundles(site.base);
      results.bundles = rows;
      const maxJs = Math.max(...rows.map((r) => r.jsBrotli));
      const maxCss = Math.max(...rows.map((r) => r.cssBrotli));
      checks.push(
        {
          what: "Public-route JS, brotli (largest route)",
          value: `${kb(maxJs)} KB`,
          budget: "≤ 120 KB",
          ok: maxJs <= 120 * 1024,
        },
        {
          what: "Public-route JS, gzip (largest route)",
          value: `${kb(Math.max(...rows.map((r) => r.jsGzip)))} KB`,
          budget: "(info)",
          ok: null,
        },
        {
          what: "Public-route CSS, brotli (largest route)",
          value: `${kb(maxCss)} KB`,
          budget: "≤ 15 KB",
          ok: maxCss <= 15 * 1024,
        },
        {
          what: "On-demand code on public routes",
          value: String(rows.flatMap((r) => r.onDemandCodeFound).length),
          budget: "0",
          ok: rows.every((r) => r.onDemandCodeFound.length === 0),
        },
      );
    }

    if (wants("images")) {
      console.log("Measuring photo bytes on the detail page...");
      const images = await imageBytes(site.base, detail, site.dataDir);
      results.images = images;
      checks.push({
        what: `Detail photos delivered / originals (${images.photos} photos)`,
        value: `${kb(images.deliveredBytes)} / ${kb(images.originalBytes)} KB = ${Math.round(images.ratio * 100)}%`,
        budget: "≤ 30%",
        ok: images.ratio <= 0.3,
      });
    }

    if (wants("lighthouse")) {
      // Beside the reference build, measured in the same run (scripts/bench/reference.ts).
      console.log(`Preparing the reference build ${REFERENCE_COMMIT} (once; reused later)...`);
      const reference = noReference
        ? { commit: REFERENCE_COMMIT, error: "--no-reference" }
        : prepareReference();
      let referenceServer: RunningServer | undefined;
      if ("dir" in reference) {
        referenceServer = await startServer("reference", {}, reference.dir);
        servers.push(referenceServer);
      } else {
        console.log(`No reference build: ${reference.error}`);
      }
      console.log("Running Lighthouse (mobile, 3 runs per page and build, interleaved)...");
      const bases = referenceServer ? [site.base, referenceServer.base] : [site.base];
      const [pages, referencePages] = (await lighthouseSideBySide(
        bases,
        ["/", "/properties", detail],
        3,
      )) as [LighthouseResult[], LighthouseResult[] | undefined];
      if (referenceServer) {
        await referenceServer.stop();
        servers.splice(servers.indexOf(referenceServer), 1);
      }
      results.lighthouse = pages;
      results.lighthouseReference = referencePages
        ? { commit: reference.commit, pages: referencePages }
        : { commit: reference.commit, error: "error" in reference ? reference.error : "" };
      for (const [i, p] of pages.entries()) {
        const ref = referencePages?.[i];
        checks.push(
          {
            what: `Lighthouse ${p.page}: score (runs ${p.scores.join(", ")})`,
            value: String(p.score),
            budget: "≥ 98",
            ok: p.score >= 98,
          },
          {
            what: `Lighthouse ${p.page}: LCP`,
            value: `${p.lcpMs} ms`,
            budget: "≤ 1300 ms",
            ok: p.lcpMs <= 1300,
          },
          {
            what: `Lighthouse ${p.page}: CLS`,
            value: p.cls.toFixed(3),
            budget: "≤ 0.02",
            ok: p.cls <= 0.02,
          },
          {
            what: `Lighthouse ${p.page}: TBT (runs ${p.tbts.join(", ")})`,
            value: `${p.tbtMs} ms`,
            budget: "≤ 100 ms",
            ok: p.tbtMs <= 100,
          },
          {
            what: ref
              ? `  same run, ${reference.commit}: TBT (runs ${ref.tbts.join(", ")}), score ${ref.score}`
              : `  reference ${reference.commit}`,
            value: ref ? `${ref.tbtMs} ms` : "error" in reference ? reference.error : "",
            budget: "(info)",
            ok: null,
          },
          {
            what: `Lighthouse ${p.page}: total bytes`,
            value: `${kb(p.totalBytes)} KB`,
            budget: "(info)",
            ok: null,
          },
        );
      }
    }

    if (wants("throughput")) {
      console.log("Starting a second server to measure pages rendered for a signed-in visitor...");
      const signedIn = await startServer("signed-in", { NODE_ENV: "development" });
      servers.push(signedIn);
      const cookie = await signInAs(signedIn.base, "visitor@example.com");
      console.log("Measuring throughput: server-rendered page vs nginx (about 50 s)...");
      const t = await throughput(site.base, detail, { base: signedIn.base, cookie });
      await signedIn.stop();
      servers.pop();
      results.throughput = t;
      checks.push(
        {
          what: `SSR ${detail} (${kb(t.bytes)} KB)`,
          value: `${t.ssr.requestsPerSecond} req/s, p50 ${t.ssr.latencyP50Ms} ms, p99 ${t.ssr.latencyP99Ms} ms`,
          budget: "(info)",
          ok: null,
        },
        {
          what: "SSR rendered for every request (signed in)",
          value: `${t.rendered.requestsPerSecond} req/s, p50 ${t.rendered.latencyP50Ms} ms, p99 ${t.rendered.latencyP99Ms} ms`,
          budget: "(info)",
          ok: null,
        },
        {
          what: "nginx, same bytes, access log on",
          value: `${t.nginx.requestsPerSecond} req/s, p50 ${t.nginx.latencyP50Ms} ms, p99 ${t.nginx.latencyP99Ms} ms`,
          budget: "(info)",
          ok: null,
        },
        {
          what: "Kept page / nginx requests per second (both logging each request)",
          value: `${Math.round(t.ratio * 100)}%`,
          budget: "≥ 75%",
          ok: t.ratio >= 0.75 && t.ssr.non2xx === 0,
        },
      );
    }
    await site.stop();
    servers.pop();
  }

  if (wants("live") || wants("upload")) {
    console.log("Starting a server with development sign-in for admin writes...");
    const admin = await startServer("admin", {
      NODE_ENV: "development",
      ADMIN_EMAILS: "bench@example.com",
      // 1,000 subscribers, all from this one address.
      LIVE_STREAMS_PER_CLIENT: "1100",
      LIVE_STREAMS_TOTAL: "1100",
    });
    servers.push(admin);
    const cookie = await signInAs(admin.base, "bench@example.com");
    const detail = await detailPathWithPhotos(admin.base);
    const id = detail.split("/").pop() as string;

    if (wants("live")) {
      console.log("Measuring live updates to 1,000 subscribers (20 writes)...");
      const live = await liveDelivery(admin.base, cookie, id);
      results.live = live;
      checks.push({
        what: `Live: ${live.subscribers} subscribers × ${live.writes} writes, p50 ${live.p50Ms} ms, missed ${live.missed}`,
        value: `p95 ${live.p95Ms} ms`,
        budget: "p95 ≤ 500 ms",
        ok: live.p95Ms <= 500 && live.missed === 0,
      });
    }
    if (wants("upload")) {
      console.log("Measuring a 12-megapixel upload (3 runs)...");
      const upload = await uploadTime(admin.base, cookie, id);
      results.upload = upload;
      checks.push({
        what: `Upload 12 MP JPEG (${kb(upload.inputBytes)} KB; runs ${upload.timesMs.join(", ")} ms)`,
        value: `${upload.medianMs} ms`,
        budget: "≤ 2000 ms",
        ok: upload.medianMs <= 2000,
      });
    }
    await admin.stop();
    servers.pop();
  }

  await write("bench", "latest");
  printReport(checks);
}

async function scale() {
  if (!Number.isInteger(lighthouseRuns) || lighthouseRuns < 0) {
    throw new Error("--lighthouse-runs= takes a whole number (0 skips Lighthouse)");
  }
  const postgresUrl =
    process.env.BENCH_POSTGRES_URL ??
    process.env.TEST_DATABASE_URL ??
    "postgres://postgres@127.0.0.1:5432/test";
  const scaled = await scaleBench({ lighthouseRuns, postgresUrl }, servers);
  Object.assign(results, scaled.results);
  checks.push(...scaled.checks);
  for (const server of servers.splice(0)) await server.stop();
  await write("scale", "scale-latest");
  printPageTable(scaled.rows);
  printReport(scaled.others, checks);
}

/** bench-results/{prefix}-{start time}.json and bench-results/{latest}.json. */
async function write(prefix: string, latest: string) {
  results.checks = checks;
  results.finishedAt = new Date().toISOString();
  await fs.mkdir("bench-results", { recursive: true });
  const json = JSON.stringify(results, null, 2);
  const stamp = String(results.startedAt).replace(/[:.]/g, "-");
  await fs.writeFile(`bench-results/${prefix}-${stamp}.json`, json);
  await fs.writeFile(`bench-results/${latest}.json`, json);
  console.log(`Written to bench-results/${prefix}-${stamp}.json and bench-results/${latest}.json`);
}

try {
  await main();
} catch (error) {
  console.error("The benchmark failed:", error);
  process.exitCode = 1;
} finally {
  for (const server of servers) await server.stop().catch(() => undefined);
}
