// The 'Listing check' of the Add and Edit forms (docs/behaviour.md §29) in a real browser: it
// follows what staff type (fair-housing phrases, feed readiness, contact details in the
// description), and a listing with warnings still saves.
import type { Page } from "@playwright/test";
import { listingKey } from "~/domain/listing";
import { listingPath } from "~/domain/listing-kinds";
import { asFiles, field, testImages, tiles } from "./admin-helpers";
import { AXE_POLL, violations } from "./axe";
import { expect, test } from "./fixtures";
import { gotoHydrated, texts, uniqueSuffix } from "./helpers";

const panel = (page: Page) => page.getByRole("region", { name: "Listing check" });
const warnings = (page: Page) => texts(panel(page).getByRole("listitem"));
const NO_CHILDREN =
  'Fair housing: "no children" may discourage families. Describe the property, not the people.';
const CONTACT = "Put phone numbers and e-mail addresses in the contact panel, not the description.";

test("Add Property: the check follows the typing, and a listing with warnings is added", async ({
  adminPage: page,
  control,
}) => {
  const address = `${uniqueSuffix()} Check Street`;
  const id = listingKey(address);
  try {
    await gotoHydrated(page, "/addproperty");
    await page.getByRole("button", { name: "Clear" }).click();
    await expect(panel(page).getByRole("heading")).toHaveText("Listing check");
    await field(page, "Address").fill(address);
    await expect.poll(() => warnings(page)).toContain("Feeds: add a ZIP code");
    await expect.poll(() => warnings(page)).toContain("Feeds: add at least 3 photos");

    await field(page, "Description").fill("Quiet street, no children. Call 703-555-0100.");
    await expect.poll(() => warnings(page)).toContain(NO_CHILDREN);
    await expect.poll(() => warnings(page)).toContain(CONTACT);
    await field(page, "Description").fill("Quiet street near the park.");
    await expect.poll(() => warnings(page)).not.toContain(NO_CHILDREN);
    await expect.poll(() => warnings(page)).not.toContain(CONTACT);

    await field(page, "ZIP code").fill("22201");
    await expect.poll(() => warnings(page)).not.toContain("Feeds: add a ZIP code");

    const images = await testImages();
    await field(page, "Images").setInputFiles(asFiles([images.red, images.green, images.blue]));
    await expect(tiles(page)).toHaveCount(3);
    await expect.poll(() => warnings(page)).not.toContain("Feeds: add at least 3 photos");
    await expect.poll(() => warnings(page)).toContain("Feeds: photos 1, 2 and 3 have no caption");
    await field(tiles(page).nth(0), "Caption").fill("Front");
    await expect.poll(() => warnings(page)).toContain("Feeds: photos 2 and 3 have no caption");
    await expect.poll(() => violations(page), AXE_POLL).toEqual([]);

    // Warnings never block saving.
    await field(page, "Description").fill("Adults only.");
    await expect
      .poll(() => warnings(page))
      .toContain(
        'Fair housing: "Adults only" may discourage families. Describe the property, not the people.',
      );
    await page.getByRole("button", { name: "Add Property", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${listingPath("properties", id)}$`), {
      timeout: 15_000,
    });
    expect((await control.getListing("properties", id))?.description).toBe("Adults only.");
  } finally {
    await control.removeListing("properties", id);
  }
});

test("Edit: the check reads the stored listing and follows the edits", async ({
  adminPage: page,
  seedListing,
}) => {
  const listing = await seedListing("newConstruction", {
    address: `${uniqueSuffix()} Check Row`,
    description: "English speakers only.",
  });
  await gotoHydrated(page, `/edit-construction/${listing.id}`);
  // A construction is never in the network's feed: only the fair-housing warning.
  await expect
    .poll(() => warnings(page))
    .toEqual([
      'Fair housing: "English speakers only" may turn away people by national origin. Describe the property, not the people.',
    ]);
  await field(page, "Description").fill("New townhomes by the river.");
  await expect.poll(() => warnings(page)).toEqual([]);
  await expect(panel(page)).toContainText("Nothing to point out.");
});
