// Lighthouse's default mobile run (simulated Slow 4G, 4× CPU slowdown) in Debian's Chromium,
// through its CLI so each run gets a fresh browser; the median of `runs` per page.
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { CHROMIUM, CHROMIUM_FLAGS } from "../shared/chromium";
import { median } from "./stats";

const run = promisify(execFile);

export interface LighthouseResult {
  page: string;
  runs: number;
  score: number;
  lcpMs: number;
  fcpMs: number;
  cls: number;
  tbtMs: number;
  totalBytes: number;
  scores: number[];
  /** Each run's TBT, in run order. */
  tbts: number[];
}

async function once(url: string) {
  const out = path.join(os.tmpdir(), `lh-${process.pid}-${Date.now()}.json`);
  await run(
    process.execPath,
    [
      "node_modules/lighthouse/cli/index.js",
      url,
      "--quiet",
      "--only-categories=performance",
      "--output=json",
      `--output-path=${out}`,
      `--chrome-flags=${CHROMIUM_FLAGS.join(" ")}`,
    ],
    { env: { ...process.env, CHROME_PATH: CHROMIUM }, maxBuffer: 64 * 1024 * 1024 },
  );
  const report = JSON.parse(await fs.readFile(out, "utf8"));
  await fs.rm(out, { force: true });
  const a = report.audits;
  return {
    score: Math.round(report.categories.performance.score * 100),
    lcpMs: a["largest-contentful-paint"].numericValue as number,
    fcpMs: a["first-contentful-paint"].numericValue as number,
    cls: a["cumulative-layout-shift"].numericValue as number,
    tbtMs: a["total-blocking-time"].numericValue as number,
    totalBytes: a["total-byte-weight"].numericValue as number,
  };
}

function summarise(page: string, all: Awaited<ReturnType<typeof once>>[]): LighthouseResult {
  return {
    page,
    runs: all.length,
    score: median(all.map((r) => r.score)),
    lcpMs: Math.round(median(all.map((r) => r.lcpMs))),
    fcpMs: Math.round(median(all.map((r) => r.fcpMs))),
    cls: median(all.map((r) => r.cls)),
    tbtMs: Math.round(median(all.map((r) => r.tbtMs))),
    totalBytes: median(all.map((r) => r.totalBytes)),
    scores: all.map((r) => r.score),
    tbts: all.map((r) => Math.round(r.tbtMs)),
  };
}

export async function lighthouse(base: string, pages: string[], runs = 3) {
  return (await lighthouseSideBySide([base], pages, runs))[0] as LighthouseResult[];
}

/**
 * The same pages on several servers (this build and the reference build), their runs
 * interleaved (A, B, A, B, ...) so that the machine's drift during the measurement falls on
 * both alike. Returns one result list per base, in the order given.
 */
export async function lighthouseSideBySide(bases: string[], pages: string[], runs = 3) {
  const results: LighthouseResult[][] = bases.map(() => []);
  for (const page of pages) {
    const all: Awaited<ReturnType<typeof once>>[][] = bases.map(() => []);
    for (let i = 0; i < runs; i++) {
      for (const [b, base] of bases.entries()) all[b]?.push(await once(`${base}${page}`));
    }
    for (const [b, list] of all.entries()) results[b]?.push(summarise(page, list));
  }
  return results;
}
