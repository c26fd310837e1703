// /new-construction: title, the remembered 'Construction Type' filter and card links (spec §2).
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { FILTER_STORAGE_KEYS } from "~/domain/listing-filters";
import { KINDS, listingPath } from "~/domain/listing-kinds";
import { useBrowser } from "./fixtures";
import { dbListings, gotoHydrated, h1Text, hrefs, POLL, texts } from "./helpers";

const CARD_TITLES = "ul.card-grid li.card .card-title";
const TYPE_KEY = FILTER_STORAGE_KEYS.newConstruction.type;

const shown = async (page: Page) => [...(await texts(page, CARD_TITLES))].sort();
const storedType = (page: Page) => page.evaluate((k) => sessionStorage.getItem(k), TYPE_KEY);

describe("/new-construction list", () => {
  const b = useBrowser();
  const select = (page: Page) => page.getByLabel("Construction Type");

  it("is titled 'New Construction', has no availability filter and lists every construction", async () => {
    const rows = await dbListings("newConstruction");
    expect(rows.length).toBeGreaterThan(1);
    const { context, page } = await b.newPage();
    await gotoHydrated(page, "/new-construction");
    expect(await h1Text(page)).toBe("New Construction");
    expect(KINDS.newConstruction.listTitle).toBe("New Construction");
    expect(await page.getByLabel("Only show available properties").count()).toBe(0);
    const options = await select(page)
      .locator("option")
      .evaluateAll((els) => els.map((o) => o.textContent));
    expect(options).toEqual(["All", "Residential", "Vacation", "Commercial"]);
    expect(await shown(page)).toEqual(rows.map((r) => r.address).sort());
    // No property shows up here.
    const properties = await dbListings("properties");
    for (const p of properties) expect(await shown(page)).not.toContain(p.address);
    await context.close();
  });

  it("cards link to /new-construction/{id}", async () => {
    const rows = await dbListings("newConstruction");
    const { context, page } = await b.newPage();
    await gotoHydrated(page, "/new-construction");
    const titles = await texts(page, CARD_TITLES);
    const links = await hrefs(page, "ul.card-grid li.card a");
    expect(links).toHaveLength(rows.length);
    for (const [i, address] of titles.entries()) {
      const row = rows.find((r) => r.address === address);
      expect(row).toBeDefined();
      expect(links[i]).toBe(`/new-construction/${encodeURIComponent(row?.id ?? "")}`);
      expect(links[i]).toBe(listingPath("newConstruction", row?.id ?? ""));
    }
    await page.locator("ul.card-grid li.card a").first().click();
    await page.waitForURL((url) => url.pathname === links[0]);
    await expect.poll(() => h1Text(page), POLL).toBe(titles[0]);
    await context.close();
  });

  it("'Construction Type' filters the cards and is remembered across a reload", async () => {
    const rows = await dbListings("newConstruction");
    const { context, page } = await b.newPage();
    await gotoHydrated(page, "/new-construction");
    expect(await select(page).inputValue()).toBe("");

    await select(page).selectOption("Commercial");
    const commercial = rows.filter((r) => r.property_type === "Commercial").map((r) => r.address);
    expect(commercial.length).toBeGreaterThan(0);
    expect(commercial.length).toBeLessThan(rows.length);
    await expect.poll(() => shown(page), POLL).toEqual(commercial.sort());
    expect(await storedType(page)).toBe("Commercial");

    await page.reload();
    await expect.poll(() => select(page).inputValue(), POLL).toBe("Commercial");
    await expect.poll(() => shown(page), POLL).toEqual(commercial.sort());

    // A type without constructions shows the empty message instead of cards.
    await select(page).selectOption("Vacation");
    await expect
      .poll(() => page.locator("p.empty").textContent(), POLL)
      .toBe("No listings match these filters right now.");
    expect(await page.locator(CARD_TITLES).count()).toBe(0);
    expect(await storedType(page)).toBe("Vacation");

    // The construction filter does not touch the property filter's storage.
    expect(
      await page.evaluate((k) => sessionStorage.getItem(k), FILTER_STORAGE_KEYS.properties.type),
    ).toBeNull();
    await context.close();
  });
});
