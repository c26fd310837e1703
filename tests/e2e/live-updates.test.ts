// Live subscriptions (docs/behaviour.md §7): open lists follow database changes without a reload, whether the
// change comes from the app or from outside it (the trigger sees every write).
import { company } from "~/domain/company";
import { listingPath } from "~/domain/listing-kinds";
import { expect, test } from "./fixtures";
import {
  card,
  cardTitles,
  demoListing,
  gotoHydrated,
  lightboxReady,
  openLive,
  stillSameDocument,
  uniqueSuffix,
} from "./helpers";

const LIVE = { timeout: 8_000 } as const;
const FEATURED = "section[aria-labelledby='featured-title'] li.card";

test.describe("live updates", () => {
  test("/properties: a new row appears, an update changes its card, a delete removes it", async ({
    page,
    control,
    seedListing,
  }) => {
    const address = `E2E Live ${uniqueSuffix()} Lane`;
    await openLive(page, "/properties");
    await expect.poll(() => cardTitles(page)).not.toContain(address);

    const listing = await seedListing("properties", {
      address,
      bedrooms: 3,
      bathrooms: 2,
      thumbnail_description: "Fresh listing",
      property_type: "Residential",
      currently_available: true,
    });
    await expect.poll(() => cardTitles(page), LIVE).toContain(address);
    const added = card(page, address);
    await expect(added.locator("a")).toHaveAttribute("href", listingPath("properties", listing.id));
    await expect(added).toContainText("3 Bedrooms | 2 Bathrooms");
    await expect(added).toContainText("Fresh listing");

    // Out of band: a write from outside the app (psql, a script) reaches open pages too.
    await control.outOfBandSql(
      "UPDATE listings SET thumbnail_description = $3, bedrooms = 4 WHERE collection = $1 AND id = $2",
      ["properties", listing.id, "Updated description"],
    );
    await expect(added).toContainText("Updated description", LIVE);
    await expect(added).toContainText("4 Bedrooms | 2 Bathrooms");

    await control.removeListing("properties", listing.id);
    await expect.poll(() => cardTitles(page), LIVE).not.toContain(address);
    await expect.poll(() => stillSameDocument(page)).toBe(true);
  });

  test("after a database outage, open pages and kept pages catch up with what they missed", async ({
    page,
    control,
    seedListing,
  }) => {
    const address = `E2E Resync ${uniqueSuffix()} Lane`;
    const listing = await seedListing("properties", {
      address,
      thumbnail_description: "Before the outage",
      property_type: "Residential",
      currently_available: true,
    });
    await openLive(page, "/properties");
    await expect(card(page, address)).toContainText("Before the outage");
    // A change nobody is told of (made while the server's LISTEN connection was down)...
    await control.unannouncedSql(
      "UPDATE listings SET thumbnail_description = $3 WHERE collection = $1 AND id = $2",
      ["properties", listing.id, "Changed during the outage"],
    );
    // ...reaches the open page once the server is listening again and says so.
    await control.resyncLive();
    await expect(card(page, address)).toContainText("Changed during the outage", LIVE);
    await expect.poll(() => stillSameDocument(page)).toBe(true);
    // The page kept for signed-out visitors was dropped too.
    const fresh = await (await fetch(new URL("/properties", page.url()))).text();
    expect(fresh).toContain("Changed during the outage");
  });

  test("/properties keeps applying its filters to live changes", async ({
    page,
    control,
    seedListing,
  }) => {
    const s = uniqueSuffix();
    const address = `E2E Live ${s} Filtered Court`;
    await openLive(page, "/properties");
    const availableOnly = page.getByLabel("Only show available properties");
    await availableOnly.check();

    const hidden = await seedListing("properties", { address, currently_available: false });
    // A marker row inserted afterwards proves the page has processed the first change.
    const probe = `E2E Live ${s} Probe`;
    await seedListing("properties", { address: probe, currently_available: true });
    await expect.poll(() => cardTitles(page), LIVE).toContain(probe);
    await expect.poll(() => cardTitles(page)).not.toContain(address);

    await control.updateListing("properties", hidden.id, { currently_available: true });
    await expect.poll(() => cardTitles(page), LIVE).toContain(address);
    await expect.poll(() => stillSameDocument(page)).toBe(true);
    await expect(availableOnly).toBeChecked();
  });

  test("/new-construction shows a new construction without reload", async ({
    page,
    control,
    seedListing,
  }) => {
    const address = `E2E Live ${uniqueSuffix()} Build Site`;
    await openLive(page, "/new-construction");
    const listing = await seedListing("newConstruction", {
      address,
      property_type: "Commercial",
    });
    await expect.poll(() => cardTitles(page), LIVE).toContain(address);
    await expect(card(page, address).locator("a")).toHaveAttribute(
      "href",
      listingPath("newConstruction", listing.id),
    );
    await control.removeListing("newConstruction", listing.id);
    await expect.poll(() => cardTitles(page), LIVE).not.toContain(address);
    await expect.poll(() => stillSameDocument(page)).toBe(true);
  });

  test("home: a record at a featured address appears among the featured cards and goes again", async ({
    page,
    control,
    seedListing,
  }) => {
    const s = uniqueSuffix();
    const featured = page.locator(FEATURED);
    await openLive(page, "/");
    await expect(featured).toHaveCount(3);

    // Same address as a featured property, but a construction record of its own.
    const twin = await seedListing("newConstruction", {
      id: `e2e-live-home-${s}`,
      address: company.featuredAddresses[1] as string,
      thumbnail_description: `Live ${s}`,
    });
    await expect(featured).toHaveCount(4, LIVE);
    const twinCard = page.locator(FEATURED, { hasText: `Live ${s}` });
    await expect(twinCard.locator("a")).toHaveAttribute(
      "href",
      listingPath("newConstruction", twin.id),
    );

    // An unrelated address never shows on the home page.
    await seedListing("properties", { address: `E2E Live ${s} Not Featured` });
    await control.updateListing("newConstruction", twin.id, {
      thumbnail_description: `Live ${s} updated`,
    });
    await expect(twinCard).toContainText(`Live ${s} updated`, LIVE);
    await expect(featured).toHaveCount(4);

    await control.removeListing("newConstruction", twin.id);
    await expect(featured).toHaveCount(3, LIVE);
    await expect.poll(() => stillSameDocument(page)).toBe(true);
  });

  test("an open lightbox stays on the photo shown when the page's data is loaded again", async ({
    page,
    control,
    seedListing,
  }) => {
    const photos = (await demoListing(company.featuredAddresses[0] as string)).image_urls;
    expect(photos.length).toBe(3);
    const listing = await seedListing("properties", {
      address: `E2E Lightbox ${uniqueSuffix()} Lane`,
      description: "Before the change",
      image_urls: photos,
      currently_available: true,
    });
    // The demo house's photo files, shared: taken off again before the listing is deleted, which
    // would take its photos away with it.
    try {
      await gotoHydrated(page, listingPath("properties", listing.id));
      await page.getByTestId("gallery").locator("button").first().click();
      const current = page.locator(".yarl__slide_current img").first();
      await expect(current).toHaveAttribute("src", photos[0] as string);
      await lightboxReady(page);
      await page.getByRole("button", { name: "Next image" }).click();
      await expect(current).toHaveAttribute("src", photos[1] as string);
      // The page's data is loaded again (as an admin's page does when a lead arrives, or any
      // page after a form is sent): the page behind takes the change, the photo shown stays.
      await control.outOfBandSql(
        "UPDATE listings SET description = $3 WHERE collection = $1 AND id = $2",
        ["properties", listing.id, "After the change"],
      );
      await page.evaluate(() =>
        (
          window as unknown as { __reactRouterDataRouter: { revalidate(): Promise<void> } }
        ).__reactRouterDataRouter.revalidate(),
      );
      await expect(page.locator("article")).toContainText("After the change", LIVE);
      await expect(current).toHaveAttribute("src", photos[1] as string);
      await page.getByRole("button", { name: "Next image" }).click();
      await expect(current).toHaveAttribute("src", photos[2] as string);
    } finally {
      await control.setImages("properties", listing.id, []);
    }
  });
});
