// axe-core finds no violations on the admin screens, their open menu and their dialogs.
import { company } from "~/domain/company";
import { listingPath } from "~/domain/listing-kinds";
import { asFiles, dialogNamed, field, testImages, tiles } from "./admin-helpers";
import { userMenuButton } from "./auth-helpers";
import { AXE_POLL, violations } from "./axe";
import { expect, test } from "./fixtures";
import { demoListing, gotoHydrated } from "./helpers";

test.describe("admin accessibility (axe)", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("the open user menu with its 'Admin' header", async ({ adminPage: page, adminAccount }) => {
    await gotoHydrated(page, "/about", "load");
    await userMenuButton(page, adminAccount.user).click();
    await expect(page.getByRole("link", { name: "Staff", exact: true })).toBeVisible();
    await expect.poll(() => violations(page), AXE_POLL).toEqual([]);
  });

  test("Add Property with picked photos, and its 'Are you sure?' dialog", async ({
    adminPage: page,
  }) => {
    await gotoHydrated(page, "/addproperty", "load");
    const images = await testImages();
    await field(page, "Images").setInputFiles(asFiles([images.red, images.green, images.blue]));
    await expect(tiles(page)).toHaveCount(3);
    await expect.poll(() => violations(page), AXE_POLL).toEqual([]);
    await tiles(page).first().getByRole("button", { name: "Remove" }).click();
    await expect(dialogNamed(page, "Are you sure?")).toBeVisible();
    await expect.poll(() => violations(page), AXE_POLL).toEqual([]);
    await page.keyboard.press("Escape");
  });

  test("Add New Construction", async ({ adminPage: page }) => {
    await gotoHydrated(page, "/addnewconstruction", "load");
    await expect.poll(() => violations(page), AXE_POLL).toEqual([]);
  });

  test("Edit Property (Vacation shows the Reservation URL) and Edit Construction", async ({
    adminPage: page,
  }) => {
    const house = await demoListing(company.featuredAddresses[0] as string);
    const construction = await demoListing(company.featuredAddresses[2] as string);
    await gotoHydrated(page, `/editproperties/${house.id}`, "load");
    await field(page, "Property Type").selectOption("Vacation");
    await expect(field(page, "Reservation URL")).toBeVisible();
    await expect.poll(() => violations(page), AXE_POLL).toEqual([]);
    await gotoHydrated(page, `/edit-construction/${construction.id}`, "load");
    await expect.poll(() => violations(page), AXE_POLL).toEqual([]);
  });

  test("the detail page's 'Admin Features' and the 'Failed to Update' dialog", async ({
    adminPage: page,
  }) => {
    const house = await demoListing(company.featuredAddresses[0] as string);
    await gotoHydrated(page, listingPath("properties", house.id), "load");
    await expect(page.getByRole("region", { name: "Admin Features" })).toBeVisible();
    await expect.poll(() => violations(page), AXE_POLL).toEqual([]);
    await page.route(/\/availability$/, (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"error":"boom"}' }),
    );
    await page.getByRole("button", { name: "Toggle Availability" }).click();
    await expect(dialogNamed(page, "Failed to Update")).toBeVisible();
    await expect.poll(() => violations(page), AXE_POLL).toEqual([]);
    await page.keyboard.press("Escape");
  });

  test("Staff", async ({ adminPage: page }) => {
    await gotoHydrated(page, "/admin/staff", "load");
    await expect.poll(() => violations(page), AXE_POLL).toEqual([]);
  });
});
