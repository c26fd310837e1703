// Listings that stay true (docs/behaviour.md §30) in a real browser: an available property's
// page says when its availability was checked; the staff table marks the stale ones, filters
// them, and 'Still available' confirms one.
import type { Page } from "@playwright/test";
import { longDate } from "~/domain/listing-facts";
import { listingPath } from "~/domain/listing-kinds";
import { expect, test } from "./fixtures";
import { exactly, gotoHydrated, uniqueSuffix } from "./helpers";

const rowOf = (page: Page, address: string) =>
  page
    .getByTestId("listing-row")
    .filter({ has: page.locator("td:first-child", { hasText: exactly(address) }) });

test("'Availability checked', 'Stale', 'Stale only' and 'Still available'", async ({
  adminPage: page,
  seedListing,
  control,
  newPage,
}) => {
  const word = `Stl${uniqueSuffix()}`;
  const stale = await seedListing("properties", { address: `1 ${word} Street`, price: "1500" });
  const fresh = await seedListing("properties", { address: `2 ${word} Street`, price: "1600" });
  const let_ = await seedListing("properties", {
    address: `3 ${word} Street`,
    currently_available: false,
  });
  // Time passing: nobody confirmed the first and the third for 20 days (simulated in SQL).
  const [{ old } = { old: "" }] = (await control.outOfBandSql(
    `UPDATE listings SET availability_checked_at = now() - interval '20 days'
     WHERE collection = 'properties' AND id = ANY($1::text[])
     RETURNING to_char(availability_checked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS old`,
    [[stale.id, let_.id]],
  )) as { old: string }[];
  /** The day the first one was last confirmed, as stored. */
  const checkedDay = async () =>
    (
      (await control.outOfBandSql(
        `SELECT to_char(availability_checked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day
         FROM listings WHERE collection = 'properties' AND id = $1`,
        [stale.id],
      )) as { day: string }[]
    )[0]?.day ?? "";

  // A renter sees when the status was last checked, only while the property is available.
  const visitor = await newPage();
  await gotoHydrated(visitor, listingPath("properties", stale.id));
  await expect(visitor.locator(".detail-checked")).toHaveText(
    `Availability checked ${longDate(old)}`,
  );
  await gotoHydrated(visitor, listingPath("properties", let_.id));
  await expect(visitor.getByText("Not Available", { exact: true })).toBeVisible();
  await expect(visitor.locator(".detail-checked")).toHaveCount(0);

  // The staff table marks the stale one, and filters by it.
  await gotoHydrated(page, `/admin/listings?q=${word}`);
  await expect(page.getByTestId("listing-row")).toHaveCount(3);
  await expect(rowOf(page, stale.address).getByText("Stale", { exact: true })).toBeVisible();
  await expect(rowOf(page, fresh.address).getByText("Stale", { exact: true })).toHaveCount(0);
  await expect(rowOf(page, let_.address).getByText("Stale", { exact: true })).toHaveCount(0);
  await expect(
    rowOf(page, let_.address).getByRole("button", { name: "Still available" }),
  ).toHaveCount(0);

  await page.getByLabel("Stale only", { exact: true }).check();
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/listings\\?q=${word}&stale=1$`));
  await expect(page.getByTestId("listing-row")).toHaveCount(1);
  await expect(rowOf(page, stale.address)).toHaveCount(1);

  // 'Still available' confirms it: no longer stale, and its page says today.
  await rowOf(page, stale.address).getByRole("button", { name: "Still available" }).click();
  await expect(page.getByTestId("listing-row")).toHaveCount(0);
  await expect(page.getByText("No listing matches the search.", { exact: true })).toBeVisible();
  const today = await checkedDay();
  expect(today).not.toBe(old);
  // (A kept copy of the page is dropped when the change's notification arrives.)
  await expect(async () => {
    await visitor.goto(listingPath("properties", stale.id));
    await expect(visitor.locator(".detail-checked")).toHaveText(
      `Availability checked ${longDate(today)}`,
      { timeout: 1000 },
    );
  }).toPass();
  // A confirmation is not a change: the listing's version stayed as seeded.
  const [{ version } = { version: 0 }] = (await control.outOfBandSql(
    "SELECT version FROM listings WHERE collection = 'properties' AND id = $1",
    [stale.id],
  )) as { version: number }[];
  expect(version).toBe(1);
});
