// axe-core finds no violations on the public pages, WCAG 2.2's target size included (axe leaves
// that rule off by default; Lighthouse counts it).
import { company } from "~/domain/company";
import { listingPath } from "~/domain/listing-kinds";
import { AXE_POLL, violations } from "./axe";
import { expect, test } from "./fixtures";
import { demoListing, gotoHydrated, waitForAnimations } from "./helpers";

/** A page name and its path (detail pages: the demo content's featured listings). */
const pages: [string, () => Promise<string>][] = [
  ["home", async () => "/"],
  ["about", async () => "/about"],
  ["contact", async () => "/contact"],
  ["properties", async () => "/properties"],
  ["new construction", async () => "/new-construction"],
  ["rental application", async () => "/rental-application"],
  [
    "rental application with address",
    async () => "/rental-application?address=3233%204th%20Street%20N",
  ],
  ["apply online (first step)", async () => "/rental-application/apply"],
  [
    "apply online for an address",
    async () => "/rental-application/apply?address=3233%204th%20Street%20N",
  ],
  ["property detail", () => featuredPath(0)],
  ["construction detail", () => featuredPath(2)],
  ["privacy", async () => "/privacy"],
  // A search with a filter shows 'E-mail me new matches' (docs/behaviour.md §31).
  ["properties with a filter", async () => "/properties?filter=available"],
  ["e-mail alerts", async () => "/alerts"],
  ["not found", async () => "/no-such-page"],
  ["unknown property (error dialog)", async () => "/properties/does-not-exist"],
];

async function featuredPath(index: number) {
  const listing = await demoListing(company.featuredAddresses[index] as string);
  return listingPath(listing.collection, listing.id);
}

test.describe("accessibility (axe)", () => {
  for (const [name, path] of pages) {
    test(`${name} has no violations`, async ({ page }) => {
      const url = await path();
      await gotoHydrated(page, url, "load");
      await waitForAnimations(page);
      await expect
        .poll(() => violations(page, { targetSize: true }), { ...AXE_POLL, message: url })
        .toEqual([]);
    });
  }

  test("a property that is not available (with 'Notify me') has no violations", async ({
    page,
    seedListing,
  }) => {
    const listing = await seedListing("properties", {
      address: "5 Target Size Lane",
      currently_available: false,
      price: "2100",
    });
    await gotoHydrated(page, listingPath("properties", listing.id), "load");
    await expect(
      page.getByRole("heading", { name: "Notify me when it's available" }),
    ).toBeVisible();
    await waitForAnimations(page);
    await expect.poll(() => violations(page, { targetSize: true }), AXE_POLL).toEqual([]);
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test("the mobile navbar, opened, has no violations", async ({ page }) => {
      await gotoHydrated(page, "/", "load");
      await page.getByRole("button", { name: "Toggle navigation" }).click();
      await waitForAnimations(page);
      await expect.poll(() => violations(page, { targetSize: true }), AXE_POLL).toEqual([]);
    });
  });

  test("the open lightbox has no violations", async ({ page }) => {
    await gotoHydrated(page, await featuredPath(0), "load");
    await page.getByTestId("gallery").locator("button").first().click();
    await page.getByRole("dialog", { name: "Lightbox" }).waitFor();
    await waitForAnimations(page);
    await expect.poll(() => violations(page), AXE_POLL).toEqual([]);
  });
});
