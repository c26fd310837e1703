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

export async function lighthouse(base: string, pages: string[], runs = 3) {
  const results: LighthouseResult[] = [];
  for (const page of pages) {
    const all = [];
    for (let i = 0; i < runs; i++) all.push(await once(`${base}${page}`));
    results.push({
      page,
      runs,
      score: median(all.map((r) => r.score)),
      lcpMs: Math.round(median(all.map((r) => r.lcpMs))),
      fcpMs: Math.round(median(all.map((r) => r.fcpMs))),
      cls: median(all.map((r) => r.cls)),
      tbtMs: Math.round(median(all.map((r) => r.tbtMs))),
      totalBytes: median(all.map((r) => r.totalBytes)),
      scores: all.map((r) => r.score),
    });
  }
  return results;
}
