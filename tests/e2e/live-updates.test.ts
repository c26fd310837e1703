// Live subscriptions (spec §7): open lists follow database changes without a reload.
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import type { Collection } from "~/domain/listing-kinds";
import { listingPath } from "~/domain/listing-kinds";
import { sql, useBrowser } from "./fixtures";
import { deleteRow, gotoHydrated, insertRow, texts, uniqueSuffix } from "./helpers";

const LIVE = { timeout: 5_000, interval: 100 } as const;
const titles = (page: Page) => texts(page, "ul.card-grid li.card .card-title");

/** Marks the document; a reload would lose the mark. */
async function markPage(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { __marker: string }).__marker = "still-here";
  });
}
const marker = (page: Page) =>
  page.evaluate(() => (window as unknown as { __marker?: string }).__marker ?? null);

/** Opens a page and waits until its live stream is connected, so no change can slip past it. */
async function openLive(page: Page, path: string) {
  const stream = page.waitForResponse((r) => new URL(r.url()).pathname === "/live");
  await gotoHydrated(page, path);
  expect((await stream).status()).toBe(200);
}

describe("live updates", () => {
  const b = useBrowser();
  const inserted: { collection: Collection; id: string }[] = [];

  afterEach(async () => {
    for (const row of inserted.splice(0)) await deleteRow(row.collection, row.id);
  });

  async function add(collection: Collection, id: string, fields: Parameters<typeof insertRow>[1]) {
    inserted.push({ collection, id });
    await insertRow(id, { ...fields, collection });
  }

  it("/properties: a new row appears, an update changes its card, a delete removes it", async () => {
    const s = uniqueSuffix();
    const id = `e2e-live-${s}`;
    const address = `E2E Live ${s} Lane`;
    const { context, page } = await b.newPage();
    await openLive(page, "/properties");
    await markPage(page);
    expect(await titles(page)).not.toContain(address);

    await add("properties", id, {
      address,
      bedrooms: 3,
      bathrooms: 2,
      thumbnail_description: "Fresh listing",
      property_type: "Residential",
      currently_available: true,
    });
    await expect.poll(() => titles(page), LIVE).toContain(address);
    const card = page.locator("li.card", { hasText: address });
    expect(await card.locator("a").getAttribute("href")).toBe(listingPath("properties", id));
    expect(await card.textContent()).toContain("3 Bedrooms | 2 Bathrooms");
    expect(await card.textContent()).toContain("Fresh listing");

    await sql("UPDATE listings SET thumbnail_description = $2, bedrooms = 4 WHERE id = $1", [
      id,
      "Updated description",
    ]);
    await expect.poll(() => card.textContent(), LIVE).toContain("Updated description");
    expect(await card.textContent()).toContain("4 Bedrooms | 2 Bathrooms");

    await deleteRow("properties", id);
    await expect.poll(() => titles(page), LIVE).not.toContain(address);
    expect(await marker(page)).toBe("still-here");
    await context.close();
  });

  it("/properties keeps applying its filters to live changes", async () => {
    const s = uniqueSuffix();
    const id = `e2e-live-filter-${s}`;
    const address = `E2E Live ${s} Filtered Court`;
    const { context, page } = await b.newPage();
    await openLive(page, "/properties");
    await page.getByLabel("Only show available properties").check();
    await markPage(page);

    await add("properties", id, { address, currently_available: false });
    // A marker row inserted afterwards proves the page has processed the first change.
    const probeId = `e2e-live-probe-${s}`;
    const probe = `E2E Live ${s} Probe`;
    await add("properties", probeId, { address: probe, currently_available: true });
    await expect.poll(() => titles(page), LIVE).toContain(probe);
    expect(await titles(page)).not.toContain(address);

    await sql("UPDATE listings SET currently_available = true WHERE id = $1", [id]);
    await expect.poll(() => titles(page), LIVE).toContain(address);
    expect(await marker(page)).toBe("still-here");
    expect(await page.getByLabel("Only show available properties").isChecked()).toBe(true);
    await context.close();
  });

  it("/new-construction shows a new construction without reload", async () => {
    const s = uniqueSuffix();
    const id = `e2e-live-nc-${s}`;
    const address = `E2E Live ${s} Build Site`;
    const { context, page } = await b.newPage();
    await openLive(page, "/new-construction");
    await markPage(page);
    await add("newConstruction", id, { address, property_type: "Commercial" });
    await expect.poll(() => titles(page), LIVE).toContain(address);
    expect(
      await page.locator("li.card", { hasText: address }).locator("a").getAttribute("href"),
    ).toBe(listingPath("newConstruction", id));
    await deleteRow("newConstruction", id);
    await expect.poll(() => titles(page), LIVE).not.toContain(address);
    expect(await marker(page)).toBe("still-here");
    await context.close();
  });

  it("home: a record at a featured address appears among the featured cards and goes again", async () => {
    const s = uniqueSuffix();
    const id = `e2e-live-home-${s}`;
    // Same address as a featured property, but a construction record of its own.
    const address = company.featuredAddresses[1] as string;
    const featured = "section[aria-labelledby='featured-title'] li.card";
    const { context, page } = await b.newPage();
    await openLive(page, "/");
    await markPage(page);
    expect(await page.locator(featured).count()).toBe(3);

    await add("newConstruction", id, {
      address,
      thumbnail_description: `Live ${s}`,
    });
    await expect.poll(() => page.locator(featured).count(), LIVE).toBe(4);
    const card = page.locator(featured, { hasText: `Live ${s}` });
    expect(await card.locator("a").getAttribute("href")).toBe(listingPath("newConstruction", id));

    // An unrelated address never shows on the home page.
    const otherId = `e2e-live-home-other-${s}`;
    await add("properties", otherId, { address: `E2E Live ${s} Not Featured` });
    await sql("UPDATE listings SET thumbnail_description = $2 WHERE collection = $1 AND id = $3", [
      "newConstruction",
      `Live ${s} updated`,
      id,
    ]);
    await expect.poll(() => card.textContent(), LIVE).toContain(`Live ${s} updated`);
    expect(await page.locator(featured).count()).toBe(4);

    await deleteRow("newConstruction", id);
    await expect.poll(() => page.locator(featured).count(), LIVE).toBe(3);
    expect(await marker(page)).toBe("still-here");
    await context.close();
  });
});
