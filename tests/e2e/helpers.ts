// Shared helpers for the browser tests (not a test file itself).
import type { Page } from "playwright-core";
import { expect } from "vitest";
import type { Collection } from "~/domain/listing-kinds";
import { baseURL, sql } from "./fixtures";

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

export interface ListingRow {
  collection: Collection;
  address: string;
  bedrooms: number | null;
  bathrooms: number | null;
  description: string;
  image_urls: string[];
  thumbnail_description: string;
  property_type: "Residential" | "Commercial" | "Vacation";
  currently_available: boolean | null;
  price: string | null;
  reserve_url: string | null;
}

/** A short unique suffix so parallel or repeated runs never collide. */
export function uniqueSuffix() {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
}

/** Inserts a listing row straight into the server's database; returns its id. */
export async function insertRow(id: string, row: Partial<ListingRow> & { address: string }) {
  const r: ListingRow = {
    collection: "properties",
    bedrooms: null,
    bathrooms: null,
    description: "",
    image_urls: [],
    thumbnail_description: "",
    property_type: "Residential",
    currently_available: row.collection === "newConstruction" ? null : true,
    price: null,
    reserve_url: null,
    ...row,
  };
  await sql(
    `INSERT INTO listings (collection, id, address, bedrooms, bathrooms, description, image_urls,
       thumbnail_image_url, thumbnail_description, property_type, currently_available, price, reserve_url)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12, $13)`,
    [
      r.collection,
      id,
      r.address,
      r.bedrooms,
      r.bathrooms,
      r.description,
      JSON.stringify(r.image_urls),
      r.image_urls[0] ?? null,
      r.thumbnail_description,
      r.property_type,
      r.currently_available,
      r.price,
      r.reserve_url,
    ],
  );
  return id;
}

export async function deleteRow(collection: Collection, id: string) {
  await sql("DELETE FROM listings WHERE collection = $1 AND id = $2", [collection, id]);
}

export interface DbListing {
  collection: Collection;
  id: string;
  address: string;
  property_type: string;
  currently_available: boolean | null;
  image_urls: string[];
  price: string | null;
  reserve_url: string | null;
}

/** The listings the server currently has (the demo content plus anything a test added). */
export async function dbListings(collection?: Collection) {
  return sql<DbListing>(
    `SELECT collection, id, address, property_type, currently_available, image_urls, price, reserve_url
     FROM listings ${collection ? "WHERE collection = $1" : ""} ORDER BY address`,
    collection ? [collection] : [],
  );
}

/** One demo listing by its exact address (fails loudly if the demo content changed). */
export async function dbListingByAddress(address: string) {
  const rows = await sql<DbListing>(
    `SELECT collection, id, address, property_type, currently_available, image_urls, price, reserve_url
     FROM listings WHERE address = $1 ORDER BY created_at LIMIT 1`,
    [address],
  );
  expect(rows, `demo listing "${address}" exists`).toHaveLength(1);
  return rows[0] as DbListing;
}

/** Fetches a page's raw server HTML (no JavaScript). */
export async function fetchHtml(path: string) {
  const res = await fetch(new URL(path, baseURL()));
  return { status: res.status, html: await res.text(), res };
}

/** Texts of all elements matching a selector, as the DOM has them (textContent, untrimmed). */
export function texts(page: Page, selector: string) {
  return page.locator(selector).evaluateAll((els) => els.map((el) => el.textContent ?? ""));
}

/** href attributes of all elements matching a selector. */
export function hrefs(page: Page, selector: string) {
  return page
    .locator(selector)
    .evaluateAll((els) => els.map((el) => el.getAttribute("href") ?? ""));
}

export const POLL = { timeout: 5_000, interval: 100 } as const;

/** The page's h1 text (poll it after client-side navigations: the URL changes first). */
export function h1Text(page: Page) {
  return page.locator("h1").first().textContent();
}

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
