// Shared helpers for the browser tests (not a test file itself).
import { expect, type Locator, type Page } from "@playwright/test";
import type { Listing } from "~/domain/listing";
import { control } from "./control";
import { siteURL } from "./server-info";

/** Waits until React has hydrated the page (the navbar's toggle carries React's props). */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => {
    const el = document.querySelector("nav .navbar-toggler");
    return !!el && Object.keys(el).some((k) => k.startsWith("__reactProps$"));
  });
}

/**
 * page.goto plus hydration; returns the navigation response. By default it does not wait for
 * images (the load event); pass "load" when the whole page must be there (axe).
 */
export async function gotoHydrated(
  page: Page,
  url: string,
  waitUntil: "domcontentloaded" | "load" = "domcontentloaded",
) {
  const response = await page.goto(url, { waitUntil });
  await waitForHydration(page);
  return response;
}

/** Resolves once every CSS animation on the page has finished (home cards fade in). */
export async function waitForAnimations(page: Page) {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState === "finished" || a.playState === "idle"),
  );
}

/** A short unique suffix so parallel or repeated runs never collide. */
/**
 * Waits until an opened lightbox takes navigation. Its 'Next image' button is in the page one
 * commit before the lightbox listens for it (a passive effect): a click in between is lost. The
 * open class comes in the render after, once those effects have run.
 */
export async function lightboxReady(page: Page) {
  await expect(page.locator(".yarl__portal_open")).toHaveCount(1);
}

export function uniqueSuffix() {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
}

export function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The whole text, character for character, for toHaveText/toHaveTitle: a string there is
 * compared with its white space collapsed and trimmed (a trailing space or a line break would
 * pass unseen), a regular expression against the text as it is.
 */
export function exactly(text: string) {
  return new RegExp(`^${escapeRegExp(text)}$`);
}

/** Fetches a page's raw server HTML (no JavaScript). */
export async function fetchHtml(path: string) {
  const res = await fetch(siteURL(path));
  return { status: res.status, html: await res.text(), res };
}

/** The HTTP status of a GET, like a browser's. */
export async function httpStatus(url: string) {
  const res = await fetch(siteURL(url));
  await res.arrayBuffer();
  return res.status;
}

/** Texts of all elements a locator matches, as the DOM has them (textContent, untrimmed). */
export function texts(locator: Locator) {
  return locator.evaluateAll((els) => els.map((el) => el.textContent ?? ""));
}

/** href attributes of all elements a locator matches. */
export function hrefs(locator: Locator) {
  return locator.evaluateAll((els) => els.map((el) => el.getAttribute("href") ?? ""));
}

/** The page's first h1 (assert on it after client-side navigations: the URL changes first). */
export const heading = (page: Page) => page.locator("h1").first();

/** The main navigation bar. */
export const nav = (page: Page) => page.getByRole("navigation", { name: "Main" });

/** Card titles of a list page, in order. */
export const cardTitles = (page: Page) => texts(page.locator("ul.card-grid li.card .card-title"));

/** The list card titled exactly `address`. */
export const card = (page: Page, address: string) =>
  page.locator("li.card").filter({
    has: page.locator(".card-title", { hasText: exactly(address) }),
  });

/** Holds matching requests until release() is called (to observe loading states). */
export async function holdRequests(page: Page, pattern: RegExp) {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(pattern, async (route) => {
    await gate;
    await route.continue();
  });
  return () => release();
}

/** Marks the document; a reload would lose the mark (see stillSameDocument). */
export async function markDocument(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { __marker: string }).__marker = "still-here";
  });
}

/** True while the page is the document markDocument marked (no reload happened since). */
export const stillSameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { __marker?: string }).__marker === "still-here");

/** Opens a page and waits until its live stream is connected, so no change can slip past it. */
export async function openLive(page: Page, url: string) {
  const stream = page.waitForResponse((r) => new URL(r.url()).pathname === "/live");
  await gotoHydrated(page, url);
  expect((await stream).status(), "/live").toBe(200);
  await markDocument(page);
}

/** A listing of the demo content by its exact address (fails loudly if the demo content changed). */
export async function demoListing(address: string): Promise<Listing> {
  const listing = await control.findByAddress(address);
  expect(listing, `demo listing "${address}" exists`).not.toBeNull();
  return listing as Listing;
}
