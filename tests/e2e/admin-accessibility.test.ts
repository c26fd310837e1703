// axe-core finds no violations on the admin screens, their open menu and their dialogs.
import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import { listingPath } from "~/domain/listing-kinds";
import { asFiles, dialogNamed, field, testImages, tiles } from "./admin-helpers";
import { newUser, removeAdmin, signedInPage, userMenuButton } from "./auth-fixtures";
import { useBrowser } from "./fixtures";
import { type DbListing, dbListingByAddress, gotoHydrated, POLL } from "./helpers";

async function violations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => n.target.join(" ")),
  }));
}

describe("admin accessibility (axe)", () => {
  const b = useBrowser();
  const admin = newUser("axe-admin", "Axel Admin");
  let ctx: { context: BrowserContext; page: Page };
  let page: Page;
  let house: DbListing;
  let construction: DbListing;

  beforeAll(async () => {
    house = await dbListingByAddress(company.featuredAddresses[0] as string);
    construction = await dbListingByAddress(company.featuredAddresses[2] as string);
    ctx = await signedInPage(() => b.newPage({ viewport: { width: 1280, height: 900 } }), admin, {
      admin: true,
    });
    page = ctx.page;
    ctx.context.setDefaultTimeout(10_000);
  });

  afterAll(async () => {
    await ctx?.context.close();
    await removeAdmin(admin.email);
  });

  it("the open user menu with its 'Admin' header", async () => {
    await gotoHydrated(page, "/about", "load");
    await userMenuButton(page, admin).click();
    await page.getByRole("link", { name: "Manage admins" }).waitFor();
    expect(await violations(page)).toEqual([]);
  });

  it("Add Property with picked photos, and its 'Are you sure?' dialog", async () => {
    await gotoHydrated(page, "/addproperty", "load");
    const images = await testImages();
    await field(page, "Images").setInputFiles(asFiles([images.red, images.green, images.blue]));
    await expect.poll(() => tiles(page).count(), POLL).toBe(3);
    expect(await violations(page)).toEqual([]);
    await tiles(page).first().getByRole("button", { name: "Remove" }).click();
    await dialogNamed(page, "Are you sure?").waitFor();
    expect(await violations(page)).toEqual([]);
    await page.keyboard.press("Escape");
  });

  it("Add New Construction", async () => {
    await gotoHydrated(page, "/addnewconstruction", "load");
    expect(await violations(page)).toEqual([]);
  });

  it("Edit Property (Vacation shows the Reservation URL) and Edit Construction", async () => {
    await gotoHydrated(page, `/editproperties/${house.id}`, "load");
    await field(page, "Property Type").selectOption("Vacation");
    await field(page, "Reservation URL").waitFor();
    expect(await violations(page)).toEqual([]);
    await gotoHydrated(page, `/edit-construction/${construction.id}`, "load");
    expect(await violations(page)).toEqual([]);
  });

  it("the detail page's 'Admin Features' and the 'Failed to Update' dialog", async () => {
    await gotoHydrated(page, listingPath("properties", house.id), "load");
    await page.getByRole("region", { name: "Admin Features" }).waitFor();
    expect(await violations(page)).toEqual([]);
    await page.route(/\/availability$/, (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"error":"boom"}' }),
    );
    await page.getByRole("button", { name: "Toggle Availability" }).click();
    await dialogNamed(page, "Failed to Update").waitFor();
    expect(await violations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await page.unroute(/\/availability$/);
  });

  it("Manage admins", async () => {
    await gotoHydrated(page, "/admin/admins", "load");
    expect(await violations(page)).toEqual([]);
  });
});
