// Screenshots as tests (docs/testing.md, "Screenshots as tests"): the public pages and the add form at a laptop's and a phone's
// size, compared with the committed baselines in visual.test.ts-snapshots/. After an intended
// change of the design: `npm run test:update-screenshots`, look at the new images, commit them.
//
// Deterministic: the test server starts on a fresh database with the demo content (generated
// photos from fixed seeds), animations are stopped, the caret hidden, every photo loaded before
// the shot, and the footer's year masked. Whatever another test left behind (a listing, changed
// settings) is cleared first, so the shots do not depend on the order of the test files.
import type { Page } from "@playwright/test";
import { company } from "~/domain/company";
import { listingPath } from "~/domain/listing-kinds";
import { expect, test } from "./fixtures";
import { demoListing, gotoHydrated } from "./helpers";

const SIZES = [
  { name: "laptop", width: 1400, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

async function detailPath(index: number) {
  const listing = await demoListing(company.featuredAddresses[index] as string);
  return listingPath(listing.collection, listing.id);
}

const PUBLIC_PAGES: [string, () => Promise<string>][] = [
  ["home", async () => "/"],
  ["properties", async () => "/properties"],
  ["property-detail", () => detailPath(0)],
  ["construction-detail", () => detailPath(2)],
  ["about", async () => "/about"],
  ["contact", async () => "/contact"],
];

/** Loads every lazy photo and waits until all are decoded, so the shot never has a gap. */
async function settle(page: Page) {
  await page.evaluate(async () => {
    for (const img of document.images) img.loading = "eager";
    await Promise.all(
      [...document.images].map((img) =>
        img.complete ? Promise.resolve() : img.decode().catch(() => undefined),
      ),
    );
    await document.fonts.ready;
  });
}

async function shoot(page: Page, name: string) {
  await settle(page);
  await expect(page).toHaveScreenshot(`${name}.png`, {
    fullPage: true,
    animations: "disabled",
    caret: "hide",
    // The footer's year changes every January; the day availability was checked, every day.
    mask: [page.locator(".footer-legal > span").first(), page.locator(".detail-checked")],
    maxDiffPixelRatio: 0.01,
  });
}

test.beforeAll(async ({ control }) => {
  await control.keepOnlyDemoListings();
  await control.resetSiteSettings();
});

for (const size of SIZES) {
  test.describe(`visual (${size.name} ${size.width}×${size.height})`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    for (const [name, path] of PUBLIC_PAGES) {
      test(name, async ({ page }) => {
        await gotoHydrated(page, await path(), "load");
        await shoot(page, `${name}-${size.name}`);
      });
    }

    test("add-property form", async ({ adminPage: page }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      await gotoHydrated(page, "/addproperty", "load");
      await shoot(page, `add-property-${size.name}`);
    });
  });
}
