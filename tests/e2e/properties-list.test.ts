// /properties: filters, their session storage and the ?filter=available query (spec §2, §4, §5).
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { FILTER_STORAGE_KEYS } from "~/domain/listing-filters";
import { KINDS, listingPath } from "~/domain/listing-kinds";
import { useBrowser } from "./fixtures";
import {
  type DbListing,
  dbListings,
  fetchHtml,
  gotoHydrated,
  h1Text,
  holdRequests,
  hrefs,
  POLL,
  texts,
} from "./helpers";

const KEYS = FILTER_STORAGE_KEYS.properties;
const CARD_TITLES = "ul.card-grid li.card .card-title";

function sorted(list: string[]) {
  return [...list].sort();
}

function addressesWhere(rows: DbListing[], pass: (row: DbListing) => boolean) {
  return sorted(rows.filter(pass).map((r) => r.address));
}

async function shownAddresses(page: Page) {
  return sorted(await texts(page, CARD_TITLES));
}

function storage(page: Page) {
  return page.evaluate(
    ([a, t]) => ({ available: sessionStorage.getItem(a), type: sessionStorage.getItem(t) }),
    [KEYS.available, KEYS.type] as const,
  );
}

describe("/properties list and filters", () => {
  const b = useBrowser();
  const checkbox = (page: Page) => page.getByLabel("Only show available properties");
  const select = (page: Page) => page.getByLabel("Property Type");

  it("shows every property by default, each card linking to /properties/{id}", async () => {
    const rows = await dbListings("properties");
    const { context, page } = await b.newPage();
    await gotoHydrated(page, "/properties");
    expect(await page.locator("h1").textContent()).toBe(KINDS.properties.listTitle);
    expect(await checkbox(page).isChecked()).toBe(false);
    expect(await select(page).inputValue()).toBe("");
    const options = await select(page)
      .locator("option")
      .evaluateAll((els) => els.map((o) => o.textContent));
    expect(options).toEqual(["All", "Residential", "Vacation", "Commercial"]);
    expect(await shownAddresses(page)).toEqual(sorted(rows.map((r) => r.address)));
    const titles = await texts(page, CARD_TITLES);
    const links = await hrefs(page, "ul.card-grid li.card a");
    expect(links).toHaveLength(rows.length);
    for (const [i, address] of titles.entries()) {
      const row = rows.find((r) => r.address === address);
      expect(links[i]).toBe(listingPath("properties", row?.id ?? "?"));
      expect(links[i]).toMatch(/^\/properties\/[^/]+$/);
    }
    // No construction appears in the property list.
    const constructions = await dbListings("newConstruction");
    for (const c of constructions) expect(titles).not.toContain(c.address);
    // A card opens its detail page.
    const first = rows.find((r) => r.address === titles[0]) as DbListing;
    await page.locator("ul.card-grid li.card a").first().click();
    await page.waitForURL((url) => url.pathname === listingPath("properties", first.id));
    await expect.poll(() => h1Text(page), POLL).toBe(first.address);
    await context.close();
  });

  it("shows 'Loading properties...' while the list is on its way", async () => {
    const { context, page } = await b.newPage({ viewport: { width: 1280, height: 800 } });
    await gotoHydrated(page, "/about");
    const release = await holdRequests(page, /\/properties\.data/);
    const status = page.getByRole("status");
    expect(await status.textContent()).toBe("");
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Properties", exact: true })
      .click();
    await expect.poll(() => status.textContent(), POLL).toBe(KINDS.properties.loadingText);
    expect(KINDS.properties.loadingText).toBe("Loading properties...");
    release();
    await expect.poll(() => h1Text(page), POLL).toBe("Properties");
    expect(await status.textContent()).toBe("");
    await context.close();
  });

  it("filters by availability and type, stores both and restores them after reload", async () => {
    const rows = await dbListings("properties");
    const { context, page } = await b.newPage();
    await gotoHydrated(page, "/properties");

    await checkbox(page).check();
    const available = addressesWhere(rows, (r) => r.currently_available === true);
    expect(available.length).toBeGreaterThan(0);
    expect(available.length).toBeLessThan(rows.length);
    await expect.poll(() => shownAddresses(page), POLL).toEqual(available);
    expect(await storage(page)).toEqual({ available: "true", type: "" });

    await select(page).selectOption("Residential");
    const availableResidential = addressesWhere(
      rows,
      (r) => r.currently_available === true && r.property_type === "Residential",
    );
    expect(availableResidential.length).toBeGreaterThan(0);
    await expect.poll(() => shownAddresses(page), POLL).toEqual(availableResidential);
    expect(await storage(page)).toEqual({ available: "true", type: "Residential" });
    expect(new URL(page.url()).search).toBe("");

    await page.reload();
    await expect.poll(() => checkbox(page).isChecked(), POLL).toBe(true);
    expect(await select(page).inputValue()).toBe("Residential");
    await expect.poll(() => shownAddresses(page), POLL).toEqual(availableResidential);

    // Turning availability off keeps the type filter: all residential ones, available or not.
    await checkbox(page).uncheck();
    await expect
      .poll(() => shownAddresses(page), POLL)
      .toEqual(addressesWhere(rows, (r) => r.property_type === "Residential"));
    expect(await storage(page)).toEqual({ available: "false", type: "Residential" });
    await context.close();
  });

  it("filters by each property type", async () => {
    const rows = await dbListings("properties");
    const { context, page } = await b.newPage();
    await gotoHydrated(page, "/properties");
    for (const type of ["Vacation", "Commercial", "Residential"]) {
      await select(page).selectOption(type);
      const expected = addressesWhere(rows, (r) => r.property_type === type);
      expect(expected.length).toBeGreaterThan(0);
      await expect.poll(() => shownAddresses(page), POLL).toEqual(expected);
      expect((await storage(page)).type).toBe(type);
    }
    await select(page).selectOption({ label: "All" });
    await expect.poll(() => shownAddresses(page), POLL).toEqual(addressesWhere(rows, () => true));
    expect((await storage(page)).type).toBe("");
    await context.close();
  });

  it("?filter=available turns available-only on, clears the type and stores both", async () => {
    const rows = await dbListings("properties");
    const { context, page } = await b.newPage();
    await gotoHydrated(page, "/properties");
    await select(page).selectOption("Commercial");
    await expect.poll(async () => (await storage(page)).type, POLL).toBe("Commercial");

    await gotoHydrated(page, "/properties?filter=available");
    await expect.poll(() => storage(page), POLL).toEqual({ available: "true", type: "" });
    expect(await checkbox(page).isChecked()).toBe(true);
    expect(await select(page).inputValue()).toBe("");
    await expect
      .poll(() => shownAddresses(page), POLL)
      .toEqual(addressesWhere(rows, (r) => r.currently_available === true));
    await context.close();
  });

  it("the server already applies ?filter=available to its first HTML", async () => {
    const rows = await dbListings("properties");
    const { status, html } = await fetchHtml("/properties?filter=available");
    expect(status).toBe(200);
    const card = (address: string) => `class="card-title">${address}</h`;
    for (const row of rows) {
      if (row.currently_available) expect(html).toContain(card(row.address));
      else expect(html).not.toContain(card(row.address));
    }
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*checked=""/);
  });

  it("changing a control while a query is present navigates to /properties without it", async () => {
    const rows = await dbListings("properties");
    const { context, page } = await b.newPage();
    await gotoHydrated(page, "/properties?filter=available");
    await expect.poll(() => checkbox(page).isChecked(), POLL).toBe(true);

    await select(page).selectOption("Commercial");
    await page.waitForURL((url) => url.pathname === "/properties" && url.search === "");
    // The change itself is kept: available commercial properties only.
    await expect
      .poll(() => shownAddresses(page), POLL)
      .toEqual(
        addressesWhere(
          rows,
          (r) => r.currently_available === true && r.property_type === "Commercial",
        ),
      );
    expect(await checkbox(page).isChecked()).toBe(true);
    expect(await storage(page)).toEqual({ available: "true", type: "Commercial" });

    // The same for the checkbox.
    await gotoHydrated(page, "/properties?filter=available");
    await expect.poll(() => select(page).inputValue(), POLL).toBe("");
    await checkbox(page).uncheck();
    await page.waitForURL((url) => url.pathname === "/properties" && url.search === "");
    await expect.poll(() => shownAddresses(page), POLL).toEqual(addressesWhere(rows, () => true));
    expect(await checkbox(page).isChecked()).toBe(false);
    expect(await storage(page)).toEqual({ available: "false", type: "" });
    await context.close();
  });
});
