// Featured listings (docs/behaviour.md §19) as an admin: 'Feature on home page' / 'Remove from
// home page' in 'Admin Features', the order on the settings page, the home page for a visitor,
// deletion; axe on the block and the settings section.
import type { Page } from "@playwright/test";
import { company } from "~/domain/company";
import { listingPath } from "~/domain/listing-kinds";
import { successTitles } from "~/domain/messages";
import { acknowledgeSuccess, answerConfirm, successDialogDuration } from "./admin-helpers";
import { AXE_POLL, violations } from "./axe";
import { expect, test } from "./fixtures";
import { cardTitles, gotoHydrated, uniqueSuffix } from "./helpers";

const adminBlock = (page: Page) => page.getByRole("region", { name: "Admin Features" });

test.describe("featured listings", () => {
  test.afterEach(async ({ control }) => {
    await control.resetSiteSettings();
  });

  test("an admin features a listing of each kind, orders them and removes one", async ({
    adminPage: page,
    seedListing,
    newPage,
  }) => {
    const s = uniqueSuffix();
    const house = await seedListing("properties", { address: `${s} Featured Lane` });
    const build = await seedListing("newConstruction", { address: `${s} New Build Court` });
    const visitor = await newPage();
    await gotoHydrated(visitor, "/");
    const defaults = [...company.featuredAddresses];
    await expect.poll(() => cardTitles(visitor)).toEqual(defaults);

    for (const listing of [house, build]) {
      await gotoHydrated(page, listingPath(listing.collection, listing.id));
      const feature = adminBlock(page).getByRole("button", { name: "Feature on home page" });
      await feature.click();
      await expect(
        adminBlock(page).getByRole("button", { name: "Remove from home page" }),
      ).toBeVisible();
    }
    await gotoHydrated(visitor, "/");
    await expect
      .poll(() => cardTitles(visitor))
      .toEqual([...defaults, house.address, build.address]);

    // The order on the settings page: the new construction first.
    await gotoHydrated(page, "/admin/site");
    const entries = page.getByTestId("featured-entry");
    await expect(entries.getByRole("link")).toHaveText([...defaults, house.address, build.address]);
    for (let i = 0; i < 4; i++) {
      await page.getByRole("button", { name: `Move ${build.address} up` }).click();
    }
    await expect(entries.first().getByRole("link")).toHaveText(build.address);
    await expect.poll(() => violations(page), AXE_POLL).toEqual([]);
    await page.getByRole("button", { name: "Save settings" }).click();
    await successDialogDuration(page, "Saved!");
    await gotoHydrated(visitor, "/");
    await expect
      .poll(() => cardTitles(visitor))
      .toEqual([build.address, ...defaults, house.address]);
    // The card links to its own kind's route.
    await expect(visitor.locator("ul.card-grid li.card a").first()).toHaveAttribute(
      "href",
      listingPath("newConstruction", build.id),
    );

    // 'Remove from home page'.
    await gotoHydrated(page, listingPath("properties", house.id));
    await expect.poll(() => violations(page), AXE_POLL).toEqual([]);
    await adminBlock(page).getByRole("button", { name: "Remove from home page" }).click();
    await expect(
      adminBlock(page).getByRole("button", { name: "Feature on home page" }),
    ).toBeVisible();
    await gotoHydrated(visitor, "/");
    await expect.poll(() => cardTitles(visitor)).toEqual([build.address, ...defaults]);
  });

  test("deleting a featured listing removes it from the home page", async ({
    adminPage: page,
    control,
    seedListing,
  }) => {
    // Seeded by the fixture, so it is removed even when the test fails before its deletion.
    const listing = await seedListing("properties", {
      address: `${uniqueSuffix()} Short Lived Street`,
    });
    await gotoHydrated(page, listingPath("properties", listing.id));
    await adminBlock(page).getByRole("button", { name: "Feature on home page" }).click();
    await expect(
      adminBlock(page).getByRole("button", { name: "Remove from home page" }),
    ).toBeVisible();
    await gotoHydrated(page, `/editproperties/${listing.id}`);
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await answerConfirm(page, "Yes");
    await acknowledgeSuccess(page, successTitles.deleted);
    await expect(page).toHaveURL(/\/properties$/);
    await gotoHydrated(page, "/");
    await expect.poll(() => cardTitles(page)).toEqual([...company.featuredAddresses]);
    expect((await control.storedContent()).featured?.some((f) => f.id === listing.id)).toBe(false);
  });
});
