// Vacation properties without a reservation link (docs/behaviour.md §2, property detail and the
// admin forms): visitors get 'Contact us to reserve', admins a warning in both forms.
import type { Page } from "@playwright/test";
import { listingKey } from "~/domain/listing";
import { listingPath } from "~/domain/listing-kinds";
import { field } from "./admin-helpers";
import { expect, test } from "./fixtures";
import { gotoHydrated, uniqueSuffix } from "./helpers";

// The texts as docs/behaviour.md (Admin-only routes, "No reservation link") words them, not the product's constants.
const NO_RESERVATION_URL =
  "Guests cannot reserve this property online until it has a Reservation URL.";

const warning = (page: Page) => page.getByTestId("form-warning");
const actions = (page: Page) => page.locator("article .detail-actions");

test("an available Vacation property without a link offers 'Contact us to reserve'", async ({
  page,
  seedListing,
}) => {
  const listing = await seedListing("properties", {
    address: `${uniqueSuffix()} Dune Road`,
    property_type: "Vacation",
    currently_available: true,
    reserve_url: null,
  });
  await gotoHydrated(page, listingPath("properties", listing.id));
  const link = actions(page).getByRole("link");
  await expect(link).toHaveCount(1);
  await expect(link).toHaveText("Contact us to reserve");
  await expect(link).toHaveAttribute("href", "/contact");
  await expect(page.getByRole("link", { name: "Reserve", exact: true })).toHaveCount(0);
  await link.click();
  await expect(page).toHaveURL(/\/contact$/);
});

test("a Vacation property with a link keeps 'Reserve'; not available shows neither", async ({
  page,
  seedListing,
}) => {
  const withLink = await seedListing("properties", {
    address: `${uniqueSuffix()} Ocean Trail`,
    property_type: "Vacation",
    reserve_url: "https://reserve.example.com/x",
  });
  await gotoHydrated(page, listingPath("properties", withLink.id));
  await expect(actions(page).getByRole("link")).toHaveText("Reserve");
  const unavailable = await seedListing("properties", {
    address: `${uniqueSuffix()} Sound Side`,
    property_type: "Vacation",
    currently_available: false,
  });
  await gotoHydrated(page, listingPath("properties", unavailable.id));
  await expect(page.locator("article .status")).toHaveText("Not Available");
  await expect(actions(page)).toHaveCount(0);
});

test("the add form has 'Reservation URL' for Vacation only, with the warning while empty", async ({
  adminPage: page,
  control,
}) => {
  await gotoHydrated(page, "/addproperty");
  await page.evaluate(() => window.sessionStorage.clear());
  await gotoHydrated(page, "/addproperty");
  await expect(field(page, "Reservation URL")).toHaveCount(0);
  await field(page, "Property Type").selectOption("Vacation");
  await expect(field(page, "Reservation URL")).toBeVisible();
  await expect(warning(page)).toHaveText(NO_RESERVATION_URL);
  const address = `${uniqueSuffix()} Whalehead Drive`;
  await field(page, "Address").fill(address);
  await field(page, "Reservation URL").fill("https://reserve.example.com/whalehead");
  await expect(warning(page)).toHaveCount(0);
  await field(page, "Property Type").selectOption("Residential");
  await expect(field(page, "Reservation URL")).toHaveCount(0);
  await field(page, "Property Type").selectOption("Vacation");
  await page.getByRole("button", { name: "Add Property", exact: true }).click();
  const id = listingKey(address);
  await expect(page).toHaveURL(new RegExp(`/properties/${id}$`), { timeout: 15_000 });
  try {
    await expect
      .poll(async () => (await control.getListing("properties", id))?.reserve_url)
      .toBe("https://reserve.example.com/whalehead");
  } finally {
    await control.removeListing("properties", id);
  }
});

test("the edit form warns when a Vacation property has no Reservation URL", async ({
  adminPage: page,
  seedListing,
}) => {
  const listing = await seedListing("properties", {
    address: `${uniqueSuffix()} Corolla Lane`,
    property_type: "Vacation",
  });
  await gotoHydrated(page, `/editproperties/${listing.id}`);
  await expect(field(page, "Reservation URL")).toHaveValue("");
  await expect(warning(page)).toHaveText(NO_RESERVATION_URL);
  await expect(field(page, "Reservation URL")).toHaveAccessibleDescription(NO_RESERVATION_URL);
  await field(page, "Reservation URL").fill("https://reserve.example.com/c");
  await expect(warning(page)).toHaveCount(0);
});
