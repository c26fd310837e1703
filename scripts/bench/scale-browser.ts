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
      const result: RunResult = await page.evaluate(async () => {
        // '37 properties', 'Showing 24 of 8,000 properties', '1 new construction'...
        const COUNT = /\b\d[\d,]*\s+(propert|listing|home|result|match|new construction)/i;
        const select = [...document.querySelectorAll("label")]
          .filter((l) => l.textContent?.trim() === "Bedrooms")
          .map((l) => l.control)
          .find((c): c is HTMLSelectElement => c instanceof HTMLSelectElement);
        if (!select) return { missing: "no 'Bedrooms' control" };
        const option = [...select.options].find((o) => o.text.trim().startsWith("2+"));
        if (!option) return { missing: "no '2+' choice under 'Bedrooms'" };
        const matches = (el: Element) => {
          const t = el.textContent ?? "";
          return t.length < 100 && COUNT.test(t);
        };
        // The innermost element saying the count, above the first card (a link to a listing).
        const countLine = () => {
          const card = document.querySelector(
            'main a[href^="/properties/"], main a[href^="/new-construction/"]',
          );
          return [...document.querySelectorAll("main *")].find(
            (el) =>
              matches(el) &&
              ![...el.children].some(matches) &&
              (!card || el.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING),
          );
        };
        const line = countLine();
        if (!line) return { missing: "no count line above the cards" };
        const text = line.textContent ?? "";
        return new Promise<RunResult>((resolve) => {
          const timer = setTimeout(
            () => resolve({ missing: "count line unchanged after 10 s" }),
            10_000,
          );
          let started = 0;
          const observer = new MutationObserver(() => {
            const now = countLine()?.textContent ?? "";
            if (now === text) return;
            observer.disconnect();
            requestAnimationFrame(() =>
              setTimeout(() => {
                clearTimeout(timer);
                resolve({ ms: performance.now() - started, before: text, after: now });
              }, 0),
            );
          });
          observer.observe(document.body, { subtree: true, childList: true, characterData: true });
          started = performance.now();
          select.value = option.value;
          select.dispatchEvent(new Event("input", { bubbles: true }));
          select.dispatchEvent(new Event("change", { bubbles: true }));
        });
      });
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
