// The browser suite with its files in a shuffled order, to show that no file depends on another
// having run first (issue 19 item 2; docs/testing.md). Playwright sorts the files it finds, and
// files named on the command line only filter them, so the order is made here: one project per
// file, in the shuffled order, which one worker runs one after the other against the one test
// server of global-setup.ts.
//
//   E2E_SEED=42 npx playwright test -c playwright.shuffled.config.ts
//
// The seed is printed with the order; the same seed gives the same order.
import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

const seed = Number(process.env.E2E_SEED ?? Math.floor(Math.random() * 1_000_000));
if (!Number.isSafeInteger(seed)) throw new Error("E2E_SEED must be a whole number.");

/** mulberry32: a small seeded generator, so an order can be replayed. */
function random(state: number): () => number {
  let a = state >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const testDir = path.resolve(import.meta.dirname, "tests/e2e");
const files = fs
  .readdirSync(testDir)
  .filter((f) => f.endsWith(".test.ts"))
  .sort();
const next = random(seed);
for (let i = files.length - 1; i > 0; i--) {
  const j = Math.floor(next() * (i + 1));
  [files[i], files[j]] = [files[j] as string, files[i] as string];
}
// Once, in the runner (workers load the config too).
if (process.env.TEST_WORKER_INDEX === undefined) {
  console.log(`E2E_SEED=${seed}, file order:\n  ${files.join("\n  ")}`);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export default defineConfig({
  ...base,
  // One worker, so the files run in exactly this order against one test server.
  workers: 1,
  // Without the project's name, as in the normal run: the committed screenshots are the baselines.
  snapshotPathTemplate:
    "{snapshotDir}/{testFileDir}/{testFileName}-snapshots/{arg}{-snapshotSuffix}{ext}",
  projects: files.map((file) => ({ name: file, testMatch: new RegExp(`/${escapeRegExp(file)}$`) })),
});
