// The public forms' code loads only when a form is used (docs/decisions/0077-csv-guards-and-light-public-pages.md):
// a detail page shows 'Ask about this listing' and 'Notify me…' without fetching their code; the
// first send is answered in place as before, and only then is their code fetched.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { gotoHydrated, uniqueSuffix } from "./helpers";

const FORM_CODE = /\/assets\/(inquiry-form|alert-form)-[A-Za-z0-9_-]{8}\.js$/;

function scriptsFetched(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (r) => {
    if (FORM_CODE.test(new URL(r.url()).pathname)) urls.push(new URL(r.url()).pathname);
  });
  return urls;
}

test("a detail page loads the forms' code only when one is used, and answers in place", async ({
  seedListing,
  newPage,
}) => {
  const listing = await seedListing("properties", {
    address: `${uniqueSuffix()} Lazy Lane`,
    currently_available: false,
    price: "1800",
  });
  const page = await newPage();
  await page.clock.install();
  const fetched = scriptsFetched(page);
  await gotoHydrated(page, `/properties/${listing.id}`, "load");
  const alert = page.locator("section.alert-form");
  const inquiry = page.locator("section.inquiry");
  await expect(alert.getByRole("heading", { name: "Notify me when it's available" })).toBeVisible();
  await expect(inquiry.getByRole("heading", { name: "Ask about this listing" })).toBeVisible();
  expect(fetched).toEqual([]);

  await page.clock.fastForward(5000);
  await alert.getByLabel("E-mail", { exact: true }).fill("not-an-address");
  await alert.getByRole("button", { name: "Notify me" }).click();
  // In place: the same page, the field's message, what was typed kept.
  await expect(alert.getByText("Enter a valid e-mail address.")).toBeVisible();
  await expect(alert.getByLabel("E-mail", { exact: true })).toHaveValue("not-an-address");
  expect(new URL(page.url()).pathname).toBe(`/properties/${listing.id}`);
  expect(fetched.some((u) => u.includes("/alert-form-"))).toBe(true);
  expect(fetched.some((u) => u.includes("/inquiry-form-"))).toBe(false);
});
