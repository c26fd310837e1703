// The staff table at /admin/listings and its CSV (docs/behaviour.md §25) in a real browser:
// reached from the user menu, both kinds listed, search and sort, 'Toggle Availability' in a
// row, 'Export CSV' downloads every listing, 'Import CSV' shows its dry run and adds a good file.
import fs from "node:fs/promises";
import type { Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { listingKey } from "~/domain/listing";
import { CSV_COLUMNS } from "~/domain/listing-csv";
import { dialogNamed } from "./admin-helpers";
import { userMenuButton } from "./auth-helpers";
import { violations } from "./axe";
import { expect, test } from "./fixtures";
import { exactly, gotoHydrated, heading, uniqueSuffix } from "./helpers";

const rows = (page: Page) => page.getByTestId("listing-row");
const addresses = (page: Page) => rows(page).locator("td:first-child");
const rowOf = (page: Page, address: string) =>
  rows(page).filter({ has: page.locator("td:first-child", { hasText: exactly(address) }) });
const column = (page: Page, label: string) =>
  page.getByRole("columnheader", { name: new RegExp(`^${label}`) });

const csvOf = (...lines: string[][]) =>
  [[...CSV_COLUMNS], ...lines]
    .map((cells) =>
      cells.map((c) => (/[",\r\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(","),
    )
    .join("\r\n");
/** A row in the export's columns from the cells given by name. */
const csvRow = (cells: Partial<Record<(typeof CSV_COLUMNS)[number], string>>) =>
  CSV_COLUMNS.map((c) => cells[c] ?? "");
const csvFile = (text: string) => ({
  name: "listings.csv",
  mimeType: "text/csv",
  buffer: Buffer.from(text),
});

test("'All listings' in the user menu: both kinds in one table, searched and sorted", async ({
  adminPage: page,
  adminAccount,
  seedListing,
}) => {
  const word = `Tbl${uniqueSuffix()}`;
  await seedListing("properties", {
    address: `1 ${word} Avenue`,
    price: "1500",
    city: "Arlington",
  });
  await seedListing("newConstruction", { address: `2 ${word} Row`, property_type: "Commercial" });

  await gotoHydrated(page, "/");
  await userMenuButton(page, adminAccount.user).click();
  await page.getByRole("link", { name: "All listings", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/listings$/);
  await expect(heading(page)).toHaveText(exactly("All listings"));
  await expect(page).toHaveTitle(/^All listings \| /);
  for (const label of ["Address", "Kind", "Type", "Status", "Rent", "Photos", "Last change"]) {
    await expect(column(page, label)).toBeVisible();
  }

  await page.getByLabel("Search listings", { exact: true }).fill(word.toLowerCase());
  await page.getByLabel("Search listings", { exact: true }).press("Enter");
  await expect(page).toHaveURL(new RegExp(`\\?q=${word.toLowerCase()}$`));
  await expect(addresses(page)).toHaveText([`1 ${word} Avenue`, `2 ${word} Row`].reverse());
  const property = rowOf(page, `1 ${word} Avenue`);
  await expect(property.locator("td")).toHaveText([
    `1 ${word} Avenue`,
    "Property",
    "Residential",
    "Available",
    "$1,500",
    "0",
    /UTC$/,
    /View.*Edit.*Toggle Availability/,
  ]);
  await expect(rowOf(page, `2 ${word} Row`).locator("td").nth(1)).toHaveText("New construction");
  await expect(
    rowOf(page, `2 ${word} Row`).getByRole("button", { name: "Toggle Availability" }),
  ).toHaveCount(0);
  await expect(property.getByRole("link", { name: `Edit 1 ${word} Avenue` })).toHaveAttribute(
    "href",
    `/editproperties/${listingKey(`1 ${word} Avenue`)}`,
  );

  // Search by city too.
  await page.getByLabel("Search listings", { exact: true }).fill(`${word} arlington`);
  await page.getByLabel("Search listings", { exact: true }).press("Enter");
  await expect(addresses(page)).toHaveText([`1 ${word} Avenue`]);

  await page.getByLabel("Search listings", { exact: true }).fill(word);
  await page.getByLabel("Search listings", { exact: true }).press("Enter");
  await expect(rows(page)).toHaveCount(2);
  await column(page, "Address").getByRole("link").click();
  await expect(column(page, "Address")).toHaveAttribute("aria-sort", "ascending");
  await expect(addresses(page)).toHaveText([`1 ${word} Avenue`, `2 ${word} Row`]);
  await column(page, "Address").getByRole("link").click();
  await expect(column(page, "Address")).toHaveAttribute("aria-sort", "descending");
  await expect(addresses(page)).toHaveText([`2 ${word} Row`, `1 ${word} Avenue`]);
  await expect(page).toHaveURL(/sort=address&dir=desc/);
  await expect(column(page, "Kind")).not.toHaveAttribute("aria-sort", /./);
  await expect.poll(() => violations(page), { timeout: 30_000 }).toEqual([]);
});

test("'Toggle Availability' in a row, with the spec's dialog, saved", async ({
  adminPage: page,
  seedListing,
  control,
}) => {
  const word = `Tgl${uniqueSuffix()}`;
  const house = await seedListing("properties", {
    address: `3 ${word} Lane`,
    currently_available: true,
  });
  await gotoHydrated(page, `/admin/listings?q=${word}`);
  const row = rowOf(page, `3 ${word} Lane`);
  const toggle = row.getByRole("button", { name: "Toggle Availability", exact: true });
  await expect(toggle).toHaveAccessibleDescription(`3 ${word} Lane: Currently available`);
  await toggle.click();
  await expect(row.locator(".status")).toHaveText("Not Available");
  await dialogNamed(page, "Updated!").waitFor({ state: "detached", timeout: 8_000 });
  await expect
    .poll(async () => (await control.getListing("properties", house.id))?.currently_available)
    .toBe(false);
  await page.reload();
  await expect(rowOf(page, `3 ${word} Lane`).locator(".status")).toHaveText("Not Available");
});

test("'Export CSV' downloads every listing, one row each", async ({
  adminPage: page,
  seedListing,
}) => {
  const word = `Exp${uniqueSuffix()}`;
  await seedListing("properties", {
    address: `4 ${word} Court`,
    price: "2100",
    description: 'Sunny, "quiet"\nnear the park',
    zip: "22201",
  });
  await seedListing("newConstruction", { address: `5 ${word} Row` });
  await gotoHydrated(page, "/admin/listings");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export CSV", exact: true }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^listings-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await fs.readFile(await download.path(), "utf8");
  const records = parse(text, { columns: true }) as Record<string, string>[];
  expect(Object.keys(records[0] ?? {})).toEqual([...CSV_COLUMNS]);
  expect(records.filter((r) => r.address?.includes(word))).toEqual([
    expect.objectContaining({
      collection: "properties",
      address: `4 ${word} Court`,
      price: "2100",
      description: 'Sunny, "quiet"\nnear the park',
      zip: "22201",
      currently_available: "true",
    }),
    expect.objectContaining({ collection: "newConstruction", address: `5 ${word} Row`, price: "" }),
  ]);
  // Every listing: as many rows as the table counts.
  await expect(page.getByText(/^Listings 1–\d+ of \d+$/)).toHaveText(
    new RegExp(` of ${records.length}$`),
  );
});

test("'Import CSV': a refused row is shown with its line and reason and nothing is offered; a good file imports", async ({
  adminPage: page,
  control,
}) => {
  const word = `Imp${uniqueSuffix()}`;
  const good = [
    csvRow({
      collection: "properties",
      address: `6 ${word} Street`,
      price: "1800",
      currently_available: "true",
    }),
    csvRow({
      collection: "newConstruction",
      address: `7 ${word} Row`,
      bedrooms: "3",
      description: "Adults only.",
    }),
  ];
  const bad = csvRow({
    collection: "properties",
    address: `8 ${word} Street`,
    property_type: "Castle",
  });
  try {
    await gotoHydrated(page, "/admin/listings");
    const input = page.getByLabel("Import CSV", { exact: true });
    await input.setInputFiles(csvFile(csvOf(good[0] ?? [], bad, good[1] ?? [])));
    await expect(page.getByTestId("dry-run-summary")).toHaveText("2 rows ready, 1 refused");
    await expect(page.getByTestId("refused-rows").locator("li")).toHaveText([
      "Line 3: The property type must be Residential, Commercial or Vacation.",
    ]);
    await expect(page.getByRole("button", { name: /^Import \d+ listings$/ })).toHaveCount(0);
    expect(await control.getListing("properties", listingKey(`6 ${word} Street`))).toBeNull();

    await input.setInputFiles(csvFile(csvOf(...good)));
    await expect(page.getByTestId("dry-run-summary")).toHaveText("2 rows ready, 0 refused");
    // The 'Listing check' of each row (docs/behaviour.md §29) is shown and stops nothing.
    await expect(page.getByTestId("row-warnings").locator("li")).toContainText([
      "Line 2: Feeds: add a city",
      'Line 3: Fair housing: "Adults only" may discourage families. Describe the property, not the people.',
    ]);
    await page.getByRole("button", { name: "Import 2 listings", exact: true }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "2 listings imported." }),
    ).toBeVisible();
    expect(await control.getListing("properties", listingKey(`6 ${word} Street`))).toMatchObject({
      price: "1800",
      currently_available: true,
      image_urls: [],
    });
    await gotoHydrated(page, `/admin/listings?q=${word}`);
    await expect(rows(page)).toHaveCount(2);
  } finally {
    await control.removeListing("properties", listingKey(`6 ${word} Street`));
    await control.removeListing("newConstruction", listingKey(`7 ${word} Row`));
  }
});
