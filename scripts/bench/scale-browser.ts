// The scale benchmark's measurements in Chromium (Playwright, Debian's Chromium): DOM size of a
// hydrated page, and the time from changing the 'Bedrooms' filter to the new list painted.
import { type Browser, chromium, type Page } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS } from "../shared/chromium";
import { median } from "./stats";

export async function withBrowser<T>(fn: (browser: Browser) => Promise<T>): Promise<T> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    return await fn(browser);
  } finally {
    await browser.close();
  }
}

/** Like tests/e2e/helpers.ts: React has hydrated once the navbar's toggle carries its props. */
async function gotoHydrated(page: Page, url: string) {
  await page.goto(url, { waitUntil: "load", timeout: 120_000 });
  await page.waitForFunction(
    () => {
      const el = document.querySelector("nav .navbar-toggler");
      return !!el && Object.keys(el).some((k) => k.startsWith("__reactProps$"));
    },
    undefined,
    { timeout: 120_000 },
  );
}

/** Elements in the hydrated page (the figure Lighthouse's 'DOM size' audit counts). */
export async function domElements(browser: Browser, url: string): Promise<number> {
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    await gotoHydrated(page, url);
    return await page.evaluate(() => document.getElementsByTagName("*").length);
  } finally {
    await context.close();
  }
}

export type FilterChange =
  | { measured: true; runsMs: number[]; medianMs: number; before: string; after: string }
  | { measured: false; reason: string };

/** What the page does in one run (serialised into the page by Playwright). */
interface RunResult {
  ms?: number;
  before?: string;
  after?: string;
  missing?: string;
}

/**
 * `runs` times, each in a fresh context (the lists keep their filters in session storage):
 * open `url` hydrated, pick '2+' in the select labelled 'Bedrooms', and time from that change
 * to the first frame painted after the count line above the cards ('37 properties') changed:
 * a MutationObserver sees the new text, then requestAnimationFrame and a task after it (the
 * frame has been painted by then).
 */
export async function filterChange(browser: Browser, url: string, runs = 5): Promise<FilterChange> {
  const times: number[] = [];
  let before = "";
  let after = "";
  for (let i = 0; i < runs; i++) {
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      await gotoHydrated(page, url);
      const result = await timeFilterChange(page);
      if (result.missing) return { measured: false, reason: result.missing };
      times.push(Math.round((result.ms ?? 0) * 10) / 10);
      before = result.before ?? "";
      after = result.after ?? "";
    } finally {
      await context.close();
    }
  }
  return { measured: true, runsMs: times, medianMs: median(times), before, after };
}

/**
 * A context whose pages define esbuild's `__name` helper: tsx compiles the functions given to
 * page.evaluate() with keepNames, so their inner functions call it in the page.
 */
async function newContext(browser: Browser) {
  const context = await browser.newContext();
  await context.addInitScript({ content: "globalThis.__name = (f) => f;" });
  return context;
}

/**
 * One filter change: pick '2+' under 'Bedrooms' (as a person would, through Playwright) and
 * time, on the page's clock, from just before the change to the frame after the count line
 * above the cards ('37 properties', or the no-match message) shows a new text. Playwright's
 * round trips count too, so the figure is a little high, never low.
 */
async function timeFilterChange(page: Page): Promise<RunResult> {
  const select = page.getByLabel("Bedrooms", { exact: true });
  if ((await select.count()) === 0) return { missing: "no 'Bedrooms' control" };
  const line = page.locator("p.match-count, .empty p").first();
  if ((await line.count()) === 0) return { missing: "no count line above the cards" };
  const before = (await line.textContent()) ?? "";
  const started = await page.evaluate(() => performance.now());
  await select.selectOption("2");
  try {
    await page.waitForFunction(
      (text) => (document.querySelector("p.match-count, .empty p")?.textContent ?? "") !== text,
      before,
      { timeout: 10_000, polling: "raf" },
    );
  } catch {
    return { missing: "count line unchanged after 10 s" };
  }
  const painted = await page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)),
      ),
  );
  const after = (await line.textContent()) ?? "";
  return { ms: painted - started, before, after };
}
