// Listing facts (docs/architecture.md: listing-facts.ts): the add and edit forms' 'Details' group, its refusals next
// to the field, and the detail page's 'Details' list below the bullets.
import { listingKey } from "~/domain/listing";
import { messages, successTitles } from "~/domain/messages";
import { expectErrorDialog, field } from "./admin-helpers";
import { expect, test } from "./fixtures";
import { exactly, gotoHydrated, heading, uniqueSuffix } from "./helpers";

test.use({ viewport: { width: 1280, height: 900 } });

const details = (page: import("@playwright/test").Page) => page.locator("section.detail-details");

test("a property's facts are added, refused next to their field, edited and shown under 'Details'", async ({
  adminPage: page,
  control,
}) => {
  const address = `${uniqueSuffix()} Facts Avenue`;
  await gotoHydrated(page, "/addproperty");
  await field(page, "Address").fill(address);
  await field(page, "Description").fill("Bright corner unit\nNew windows");
  await field(page, "Square feet").fill("1250");
  await field(page, "City").fill("Arlington");
  await field(page, "State").selectOption({ label: "Virginia" });
  await field(page, "ZIP code").fill("2220");
  await field(page, "Pets").selectOption({ label: "Cats allowed" });
  await field(page, "Available from").fill("2027-04-01");
  await page.getByRole("button", { name: "Add Property" }).click();
  const refusal = "The ZIP code must be five digits, such as 22201 (or ZIP+4, 22201-1234).";
  await expectErrorDialog(page, "Error", messages.addFailed("Property", refusal));
  await expect(field(page, "ZIP code")).toHaveAttribute("aria-invalid", "true");
  await expect(field(page, "ZIP code")).toHaveAccessibleDescription(refusal);
  // Nothing typed is lost.
  await expect(field(page, "City")).toHaveValue("Arlington");
  await field(page, "ZIP code").fill("22201");
  await page.getByRole("button", { name: "Add Property" }).click();
  await expect(page.getByRole("dialog", { name: successTitles.added("Property") })).toBeVisible();

  const id = listingKey(address);
  await expect
    .poll(async () => (await control.getListing("properties", id))?.zip ?? null)
    .toBe("22201");
  const stored = await control.getListing("properties", id);
  expect(stored).toMatchObject({
    square_feet: 1250,
    city: "Arlington",
    state: "VA",
    pets: "cats",
    available_from: "2027-04-01",
  });

  await gotoHydrated(page, `/properties/${id}`);
  await expect(heading(page)).toHaveText(exactly(address));
  const list = details(page);
  await expect(list.getByRole("heading", { name: "Details" })).toBeVisible();
  await expect(list.locator("dt")).toHaveText([
    "Square feet",
    "City",
    "State",
    "ZIP code",
    "Pets",
    "Available from",
  ]);
  await expect(list.locator("dd")).toHaveText([
    "1,250 sq ft",
    "Arlington",
    "Virginia",
    "22201",
    "Cats allowed",
    "April 1, 2027",
  ]);
  // Below the bullets, after them in the page.
  const order = await page.evaluate(() => {
    const bullets = document.querySelector("article.detail > ul");
    const facts = document.querySelector("section.detail-details");
    return !!bullets && !!facts && !!(bullets.compareDocumentPosition(facts) & 4);
  });
  expect(order).toBe(true);

  await gotoHydrated(page, `/editproperties/${id}`);
  await expect(field(page, "Square feet")).toHaveValue("1250");
  await expect(field(page, "State")).toHaveValue("VA");
  await field(page, "Pets").selectOption({ label: "No pets" });
  await field(page, "City").fill("");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("dialog", { name: successTitles.saved })).toBeVisible();
  await expect
    .poll(async () => (await control.getListing("properties", id))?.pets ?? null)
    .toBe("none");
  expect((await control.getListing("properties", id))?.city ?? null).toBeNull();
  await control.removeListing("properties", id);
});

test("a construction has no pets or availability date; a listing without facts shows no 'Details'", async ({
  adminPage: page,
  seedListing,
}) => {
  await gotoHydrated(page, "/addnewconstruction");
  await expect(field(page, "Square feet")).toBeVisible();
  await expect(field(page, "Pets")).toHaveCount(0);
  await expect(field(page, "Available from")).toHaveCount(0);
  const bare = await seedListing("newConstruction", {
    address: `${uniqueSuffix()} Bare Court`,
    currently_available: null,
  });
  await gotoHydrated(page, `/new-construction/${bare.id}`);
  await expect(details(page)).toHaveCount(0);
  const built = await seedListing("newConstruction", {
    address: `${uniqueSuffix()} Built Court`,
    currently_available: null,
    square_feet: 3400,
    zip: "22031",
  });
  await gotoHydrated(page, `/new-construction/${built.id}`);
  await expect(details(page).locator("dd")).toHaveText(["3,400 sq ft", "22031"]);
});
