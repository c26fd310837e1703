// /properties and /new-construction: title, cards and their links, the remembered type filter
// (both kinds, one description); the availability filter and ?filter=available (properties only).
// docs/behaviour.md §2, §4, §5.
import type { Page } from "@playwright/test";
import type { ListingSummary } from "~/domain/listing";
import { FILTER_STORAGE_KEYS } from "~/domain/listing-filters";
import { COLLECTIONS, KINDS, listingPath } from "~/domain/listing-kinds";
import { expect, test } from "./fixtures";
import {
  exactly,
  fetchHtml,
  gotoHydrated,
  heading,
  holdRequests,
  hrefs,
  nav,
  texts,
  waitForHydration,
} from "./helpers";

const CARD_TITLES = "ul.card-grid li.card .card-title";
const CARD_LINKS = "ul.card-grid li.card a";
const TYPES = ["Residential", "Vacation", "Commercial"] as const;

/** What the spec names each list (KINDS must agree). */
const SPEC = {
  properties: {
    title: "Properties",
    typeLabel: "Property Type",
    loading: "Loading properties...",
    link: /^\/properties\/[^/]+$/,
  },
  newConstruction: {
    title: "New Construction",
    typeLabel: "Construction Type",
    loading: "Loading...",
    link: /^\/new-construction\/[^/]+$/,
  },
} as const;

const sorted = (list: string[]) => [...list].sort();
const addressesWhere = (rows: ListingSummary[], pass: (row: ListingSummary) => boolean) =>
  sorted(rows.filter(pass).map((r) => r.address));
const shownAddresses = async (page: Page) => sorted(await texts(page.locator(CARD_TITLES)));
const availableBox = (page: Page) => page.getByLabel("Only show available properties");

function storage(page: Page) {
  const keys = FILTER_STORAGE_KEYS.properties;
  return page.evaluate(
    ([a, t]) => ({ available: sessionStorage.getItem(a), type: sessionStorage.getItem(t) }),
    [keys.available, keys.type] as const,
  );
}

for (const collection of COLLECTIONS) {
  const kind = KINDS[collection];
  const spec = SPEC[collection];
  const other = COLLECTIONS.find((c) => c !== collection) ?? collection;
  const typeSelect = (page: Page) => page.getByLabel(spec.typeLabel);
  const storedType = (page: Page) =>
    page.evaluate((k) => sessionStorage.getItem(k), FILTER_STORAGE_KEYS[collection].type);

  test.describe(`${kind.route} list`, () => {
    test(`is titled '${spec.title}', starts unfiltered and lists every ${kind.noun.toLowerCase()} but no other kind`, async ({
      page,
      control,
    }) => {
      expect(kind.listTitle).toBe(spec.title);
      expect(kind.typeFilterLabel).toBe(spec.typeLabel);
      const rows = await control.listSummaries(collection);
      expect(rows.length).toBeGreaterThan(1);
      await gotoHydrated(page, kind.route);
      await expect(heading(page)).toHaveText(exactly(spec.title));
      // The availability filter exists only for properties.
      if (kind.hasOffer) await expect(availableBox(page)).not.toBeChecked();
      else await expect(availableBox(page)).toHaveCount(0);
      await expect(typeSelect(page)).toHaveValue("");
      await expect(typeSelect(page).locator("option")).toHaveText(
        ["All", "Residential", "Vacation", "Commercial"].map(exactly),
      );
      await expect.poll(() => shownAddresses(page)).toEqual(sorted(rows.map((r) => r.address)));
      const others = await control.listSummaries(other);
      const shown = await shownAddresses(page);
      for (const o of others) expect(shown).not.toContain(o.address);
    });

    test(`cards link to ${kind.route}/{id}`, async ({ page, control }) => {
      const rows = await control.listSummaries(collection);
      await gotoHydrated(page, kind.route);
      const links = page.locator(CARD_LINKS);
      await expect(links).toHaveCount(rows.length);
      const titles = await texts(page.locator(CARD_TITLES));
      const expected = titles.map((address) => {
        const row = rows.find((r) => r.address === address);
        expect(row, address).toBeDefined();
        const path = listingPath(collection, row?.id ?? "?");
        expect(path).toBe(`${kind.route}/${encodeURIComponent(row?.id ?? "?")}`);
        expect(path).toMatch(spec.link);
        return path;
      });
      await expect.poll(() => hrefs(links)).toEqual(expected);
      // A card opens its detail page.
      await links.first().click();
      await expect(page).toHaveURL((url) => url.pathname === expected[0]);
      await expect(heading(page)).toHaveText(exactly(titles[0] ?? "?"));
    });

    test(`shows '${spec.loading}' while the list is on its way`, async ({ page }) => {
      expect(kind.loadingText).toBe(spec.loading);
      await page.setViewportSize({ width: 1280, height: 800 });
      await gotoHydrated(page, "/about");
      const release = await holdRequests(page, new RegExp(`${kind.route}\\.data`));
      const status = page.getByRole("status");
      await expect(status).toHaveText(exactly(""));
      await nav(page).getByRole("link", { name: spec.title, exact: true }).click();
      await expect(status).toHaveText(exactly(spec.loading));
      release();
      await expect(heading(page)).toHaveText(exactly(spec.title));
      await expect(status).toHaveText(exactly(""));
    });

    test(`'${spec.typeLabel}' filters by each type, is stored and is restored after a reload`, async ({
      page,
      control,
    }) => {
      const rows = await control.listSummaries(collection);
      await gotoHydrated(page, kind.route);
      await expect(typeSelect(page)).toHaveValue("");
      const counts: number[] = [];
      for (const type of TYPES) {
        await typeSelect(page).selectOption(type);
        const expected = addressesWhere(rows, (r) => r.property_type === type);
        counts.push(expected.length);
        if (expected.length > 0) {
          await expect.poll(() => shownAddresses(page)).toEqual(expected);
        } else {
          // A type without listings shows the empty message instead of cards.
          await expect(page.locator(".empty p")).toHaveText(
            exactly(
              collection === "properties"
                ? "No properties match these filters."
                : "No listings match these filters.",
            ),
          );
          await expect(page.locator(CARD_TITLES)).toHaveCount(0);
        }
        await expect.poll(() => storedType(page)).toBe(type);
      }
      // The demo content has a type that narrows the list, and for constructions one without
      // any (so the empty message above was seen).
      expect(counts.some((n) => n > 0 && n < rows.length)).toBe(true);
      if (kind.hasOffer) expect(counts.every((n) => n > 0)).toBe(true);
      else expect(counts).toContain(0);

      await typeSelect(page).selectOption("Commercial");
      const commercial = addressesWhere(rows, (r) => r.property_type === "Commercial");
      await expect.poll(() => shownAddresses(page)).toEqual(commercial);
      await page.reload();
      // The next change must reach React: on a slow machine the select can be changed before
      // the reloaded page hydrated, and the list would never follow (CI saw it).
      await waitForHydration(page);
      await expect(typeSelect(page)).toHaveValue("Commercial");
      await expect.poll(() => shownAddresses(page)).toEqual(commercial);

      await typeSelect(page).selectOption({ label: "All" });
      await expect.poll(() => shownAddresses(page)).toEqual(addressesWhere(rows, () => true));
      await expect.poll(() => storedType(page)).toBe("");
      // One kind's filter does not touch the other kind's storage.
      await expect
        .poll(() =>
          page.evaluate((k) => sessionStorage.getItem(k), FILTER_STORAGE_KEYS[other].type),
        )
        .toBeNull();
    });
  });
}

test.describe("/properties availability filter", () => {
  const checkbox = availableBox;
  const select = (page: Page) => page.getByLabel("Property Type");

  test("filters by availability and type, stores both and restores them after reload", async ({
    page,
    control,
  }) => {
    const rows = await control.listSummaries("properties");
    await gotoHydrated(page, "/properties");

    await checkbox(page).check();
    const available = addressesWhere(rows, (r) => r.currently_available === true);
    expect(available.length).toBeGreaterThan(0);
    expect(available.length).toBeLessThan(rows.length);
    await expect.poll(() => shownAddresses(page)).toEqual(available);
    await expect.poll(() => storage(page)).toEqual({ available: "true", type: "" });

    await select(page).selectOption("Residential");
    const availableResidential = addressesWhere(
      rows,
      (r) => r.currently_available === true && r.property_type === "Residential",
    );
    expect(availableResidential.length).toBeGreaterThan(0);
    await expect.poll(() => shownAddresses(page)).toEqual(availableResidential);
    await expect.poll(() => storage(page)).toEqual({ available: "true", type: "Residential" });
    await expect(page).toHaveURL((url) => url.pathname === "/properties" && url.search === "");

    await page.reload();
    await waitForHydration(page);
    await expect(checkbox(page)).toBeChecked();
    await expect(select(page)).toHaveValue("Residential");
    await expect.poll(() => shownAddresses(page)).toEqual(availableResidential);

    // Turning availability off keeps the type filter: all residential ones, available or not.
    await checkbox(page).uncheck();
    await expect
      .poll(() => shownAddresses(page))
      .toEqual(addressesWhere(rows, (r) => r.property_type === "Residential"));
    await expect.poll(() => storage(page)).toEqual({ available: "false", type: "Residential" });
  });

  test("the first change on the server's bar shows at once, however slowly its list arrives", async ({
    page,
    control,
  }) => {
    const rows = await control.listSummaries("properties");
    await gotoHydrated(page, "/properties");
    // The list's answer is held back, as on a slow connection: the bar's code comes, takes over
    // from the server's bar and applies the change; what it shows must not wait for that answer
    // (it went back to the old search until the answer came, and a change meanwhile was lost).
    const release = await holdRequests(page, /\/properties\.data/);
    const asked = page.waitForRequest(/\/properties\.data/);
    await checkbox(page).check();
    // The real bar has come and applied the change: it still shows it, and takes the next one.
    await asked;
    await expect(checkbox(page)).toBeChecked();
    await select(page).selectOption("Residential");
    await expect(checkbox(page)).toBeChecked();
    await expect(select(page)).toHaveValue("Residential");
    release();
    await expect
      .poll(() => shownAddresses(page))
      .toEqual(
        addressesWhere(
          rows,
          (r) => r.currently_available === true && r.property_type === "Residential",
        ),
      );
    await expect(checkbox(page)).toBeChecked();
  });

  test("?filter=available turns available-only on, clears the type and stores both", async ({
    page,
    control,
  }) => {
    const rows = await control.listSummaries("properties");
    await gotoHydrated(page, "/properties");
    await select(page).selectOption("Commercial");
    await expect.poll(async () => (await storage(page)).type).toBe("Commercial");

    await gotoHydrated(page, "/properties?filter=available");
    await expect.poll(() => storage(page)).toEqual({ available: "true", type: "" });
    await expect(checkbox(page)).toBeChecked();
    await expect(select(page)).toHaveValue("");
    await expect
      .poll(() => shownAddresses(page))
      .toEqual(addressesWhere(rows, (r) => r.currently_available === true));
  });

  test("the server already applies ?filter=available to its first HTML", async ({ control }) => {
    const rows = await control.listSummaries("properties");
    const { status, html } = await fetchHtml("/properties?filter=available");
    expect(status).toBe(200);
    const card = (address: string) => `class="card-title">${address}</h`;
    for (const row of rows) {
      if (row.currently_available) expect(html).toContain(card(row.address));
      else expect(html).not.toContain(card(row.address));
    }
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*checked=""/);
  });

  test("changing a control while a query is present navigates to /properties without it", async ({
    page,
    control,
  }) => {
    const rows = await control.listSummaries("properties");
    await gotoHydrated(page, "/properties?filter=available");
    await expect(checkbox(page)).toBeChecked();

    await select(page).selectOption("Commercial");
    await expect(page).toHaveURL((url) => url.pathname === "/properties" && url.search === "");
    // The change itself is kept: available commercial properties only.
    await expect
      .poll(() => shownAddresses(page))
      .toEqual(
        addressesWhere(
          rows,
          (r) => r.currently_available === true && r.property_type === "Commercial",
        ),
      );
    await expect(checkbox(page)).toBeChecked();
    await expect.poll(() => storage(page)).toEqual({ available: "true", type: "Commercial" });

    // The same for the checkbox.
    await gotoHydrated(page, "/properties?filter=available");
    await expect(select(page)).toHaveValue("");
    await checkbox(page).uncheck();
    await expect(page).toHaveURL((url) => url.pathname === "/properties" && url.search === "");
    await expect.poll(() => shownAddresses(page)).toEqual(addressesWhere(rows, () => true));
    await expect(checkbox(page)).not.toBeChecked();
    await expect.poll(() => storage(page)).toEqual({ available: "false", type: "" });
  });
});
