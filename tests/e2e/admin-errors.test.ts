// The admin screens' error dialogs (spec §8, character for character, with the footer), and that
// a failed step leaves the data as it was (issue: nothing lost or orphaned).
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import { listingKey } from "~/domain/listing";
import { listingPath } from "~/domain/listing-kinds";
import { messages } from "~/domain/messages";
import {
  answerConfirm,
  asFiles,
  dialogNamed,
  expectErrorDialog,
  field,
  folderExists,
  imageFolder,
  storedListing,
  testImages,
  tiles,
} from "./admin-helpers";
import { newUser, removeAdmin, signedInPage } from "./auth-fixtures";
import { sql, useBrowser } from "./fixtures";
import { deleteRow, gotoHydrated, h1Text, insertRow, POLL, uniqueSuffix } from "./helpers";

/** Bytes that are no image, dressed up as one (name and type). */
const fakeJpeg = {
  name: "holiday.jpg",
  mimeType: "image/jpeg",
  buffer: Buffer.from("this is a text file, not a photo\n".repeat(20)),
};
const NOT_AN_IMAGE = "The file is not an image this site can read.";
const boom = {
  status: 500,
  contentType: "application/json",
  body: JSON.stringify({ error: "boom" }),
};

describe("admin error dialogs", () => {
  const b = useBrowser();
  const admin = newUser("errors-admin", "Erin Errors");
  const s = uniqueSuffix();
  let images: Awaited<ReturnType<typeof testImages>>;
  let ctx: { context: BrowserContext; page: Page };
  let page: Page;
  const seeded = {
    house: { id: `e2e-errors-${s}-house`, address: `E2E ${s} Error House` },
    build: { id: `e2e-errors-${s}-build`, address: `E2E ${s} Error Build` },
  };

  beforeAll(async () => {
    images = await testImages();
    ctx = await signedInPage(() => b.newPage({ viewport: { width: 1280, height: 900 } }), admin, {
      admin: true,
    });
    page = ctx.page;
    ctx.context.setDefaultTimeout(10_000);
  });

  afterAll(async () => {
    await ctx?.context.close();
    await deleteRow("properties", seeded.house.id);
    await deleteRow("newConstruction", seeded.build.id);
    await removeAdmin(admin.email);
  });

  async function seed() {
    await deleteRow("properties", seeded.house.id);
    await deleteRow("newConstruction", seeded.build.id);
    await insertRow(seeded.house.id, {
      address: seeded.house.address,
      bedrooms: 2,
      price: "1500",
      currently_available: true,
    });
    await insertRow(seeded.build.id, {
      address: seeded.build.address,
      collection: "newConstruction",
    });
  }

  it("the picker takes images only; an upload that is no image fails the add and stores nothing", async () => {
    const address = `E2E ${s} Failed Add Way`;
    const id = listingKey(address);
    await gotoHydrated(page, "/addproperty");
    await page.getByRole("button", { name: "Clear" }).click();
    await field(page, "Address").fill(address);
    await field(page, "Images").setInputFiles([
      { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") },
    ]);
    expect(await tiles(page).count()).toBe(0);
    // A good photo first, then the impostor: the good one must not stay behind either.
    await field(page, "Images").setInputFiles([...asFiles([images.red]), fakeJpeg]);
    await expect.poll(() => tiles(page).count(), POLL).toBe(2);

    await page.getByRole("button", { name: "Add Property" }).click();
    await expectErrorDialog(
      page,
      messages.errorTitle,
      `Failed to add property. Please try again. Error: ${NOT_AN_IMAGE}`,
    );
    expect(await storedListing("properties", id)).toBeUndefined();
    expect(await folderExists(imageFolder("properties", id))).toBe(false);
    // The form is intact, ready for another try.
    expect(new URL(page.url()).pathname).toBe("/addproperty");
    expect(await field(page, "Address").inputValue()).toBe(address);
    expect(await tiles(page).count()).toBe(2);
    expect(await page.getByRole("button", { name: "Add Property" }).isEnabled()).toBe(true);
    await page.getByRole("button", { name: "Clear" }).click();
  });

  it("a failing construction add says 'Failed to add construction. …' with the server's message", async () => {
    const address = `E2E ${s} Failed Build Way`;
    await gotoHydrated(page, "/addnewconstruction");
    await page.getByRole("button", { name: "Clear" }).click();
    await field(page, "Address").fill(address);
    await page.route(/\/api\/listings\/newConstruction$/, (route) => route.fulfill(boom));
    await page.getByRole("button", { name: "Add Construction" }).click();
    await expectErrorDialog(
      page,
      messages.errorTitle,
      "Failed to add construction. Please try again. Error: boom",
    );
    await page.unroute(/\/api\/listings\/newConstruction$/);
    expect(await storedListing("newConstruction", listingKey(address))).toBeUndefined();
    await page.getByRole("button", { name: "Clear" }).click();
  });

  it("edit: a failed upload says 'Failed to add images. …' and changes nothing", async () => {
    await seed();
    const before = await storedListing("properties", seeded.house.id);
    await gotoHydrated(page, `/editproperties/${seeded.house.id}`);
    await field(page, "Add Images").setInputFiles([fakeJpeg]);
    await expectErrorDialog(
      page,
      messages.errorTitle,
      `Failed to add images. Please try again. Error: ${NOT_AN_IMAGE}`,
    );
    expect(await tiles(page).count()).toBe(0);
    expect(await storedListing("properties", seeded.house.id)).toEqual(before);
    expect(await folderExists(imageFolder("properties", seeded.house.id))).toBe(false);
    expect(await page.getByRole("button", { name: "Save" }).isEnabled()).toBe(true);
  });

  /** The seeded house's edit form, with one photo uploaded through it. */
  async function editWithOnePhoto() {
    await seed();
    await gotoHydrated(page, `/editproperties/${seeded.house.id}`);
    await field(page, "Add Images").setInputFiles(asFiles([images.green]));
    await dialogNamed(page, "Uploaded!").getByRole("button", { name: "OK" }).click();
    await expect.poll(() => tiles(page).count(), POLL).toBe(1);
  }

  it("edit: a failed image removal says 'Error deleting image. …' and keeps the photo", async () => {
    await editWithOnePhoto();
    const before = await storedListing("properties", seeded.house.id);
    expect(before?.image_urls).toHaveLength(1);

    await page.route(/\/images$/, (route) =>
      route.request().method() === "DELETE" ? route.fulfill(boom) : route.continue(),
    );
    await tiles(page).first().getByRole("button", { name: "Remove" }).click();
    await answerConfirm(page, "Yes");
    await expectErrorDialog(
      page,
      messages.errorTitle,
      "Error deleting image. Please try again. Error: boom",
    );
    await page.unroute(/\/images$/);
    expect(await tiles(page).count()).toBe(1);
    expect(await storedListing("properties", seeded.house.id)).toEqual(before);
  });

  it("edit: removing a photo that is already gone says 'Error: {message}'", async () => {
    await editWithOnePhoto();
    // Another admin's change (no mock): the photo leaves the record while this form shows it.
    await sql(
      `UPDATE listings SET image_urls = '[]'::jsonb, thumbnail_image_url = NULL
       WHERE collection = 'properties' AND id = $1`,
      [seeded.house.id],
    );
    await tiles(page).first().getByRole("button", { name: "Remove" }).click();
    await answerConfirm(page, "Yes");
    await expectErrorDialog(
      page,
      messages.errorTitle,
      "Error: That image is not part of this listing.",
    );
  });

  it("edit: a refused save says 'Failed to save property. …' and stays on the form", async () => {
    await seed();
    const before = await storedListing("properties", seeded.house.id);
    await gotoHydrated(page, `/editproperties/${seeded.house.id}`);
    // The server's validation (no mock): bedrooms are limited to 0..1000.
    await field(page, "Bedrooms").fill("5000");
    await field(page, "Thumbnail Description").fill("must not be stored");
    await page.getByRole("button", { name: "Save" }).click();
    await expectErrorDialog(
      page,
      messages.errorTitle,
      "Failed to save property. Please try again. Error: The bedrooms must be a number from 0 to 1000.",
    );
    expect(new URL(page.url()).pathname).toBe(`/editproperties/${seeded.house.id}`);
    expect(await field(page, "Bedrooms").inputValue()).toBe("5000");
    expect(await storedListing("properties", seeded.house.id)).toEqual(before);

    // A server failure on save, for a construction.
    await gotoHydrated(page, `/edit-construction/${seeded.build.id}`);
    await page.route(new RegExp(`/api/listings/newConstruction/${seeded.build.id}$`), (route) =>
      route.fulfill(boom),
    );
    await page.getByRole("button", { name: "Save" }).click();
    await expectErrorDialog(
      page,
      messages.errorTitle,
      "Failed to save construction. Please try again. Error: boom",
    );
    await page.unroute(new RegExp(`/api/listings/newConstruction/${seeded.build.id}$`));
  });

  it("edit: a failed delete says 'Failed to delete property. …'; a missing record 'Property not found.'", async () => {
    await seed();
    await gotoHydrated(page, `/editproperties/${seeded.house.id}`);
    const api = new RegExp(`/api/listings/properties/${seeded.house.id}$`);
    await page.route(api, (route) => route.fulfill(boom));
    await page.getByRole("button", { name: "Delete" }).click();
    await answerConfirm(page, "Yes");
    // After the dialog the form reloads its record.
    const reloaded = page.waitForResponse((r) =>
      r.url().includes(`/editproperties/${seeded.house.id}.data`),
    );
    await expectErrorDialog(
      page,
      messages.errorTitle,
      "Failed to delete property. Please try again. Error: boom",
    );
    expect((await reloaded).status()).toBe(200);
    await page.unroute(api);
    expect(await storedListing("properties", seeded.house.id)).toBeDefined();
    expect(new URL(page.url()).pathname).toBe(`/editproperties/${seeded.house.id}`);

    // Someone else deleted it meanwhile.
    await deleteRow("properties", seeded.house.id);
    await page.getByRole("button", { name: "Delete" }).click();
    await answerConfirm(page, "Yes");
    await expectErrorDialog(page, messages.errorTitle, "Property not found.");
    // Nothing is left to edit: on to the list.
    await page.waitForURL((url) => url.pathname === "/properties");

    await gotoHydrated(page, `/edit-construction/${seeded.build.id}`);
    await deleteRow("newConstruction", seeded.build.id);
    await page.getByRole("button", { name: "Delete" }).click();
    await answerConfirm(page, "Yes");
    await expectErrorDialog(page, messages.errorTitle, "Construction not found.");
    await page.waitForURL((url) => url.pathname === "/new-construction");
  });

  it("edit: when the record cannot be read, 'Failed to fetch property details. …', then the detail page", async () => {
    await seed();
    // A real read failure: the listings table is briefly unreachable (only this file runs now).
    await sql("ALTER TABLE listings RENAME TO listings_offline");
    let status: number | undefined;
    try {
      status = (await gotoHydrated(page, `/editproperties/${seeded.house.id}`))?.status();
    } finally {
      await sql("ALTER TABLE listings_offline RENAME TO listings");
    }
    expect(status).toBe(503);
    expect(await h1Text(page)).toBe("Edit Property");
    const dialog = dialogNamed(page, messages.errorTitle);
    await dialog.waitFor();
    await page.waitForFunction(() => document.querySelector("dialog")?.matches(":modal"));
    expect(await dialog.locator("p").textContent()).toBe(
      "Failed to fetch property details. Please try again. Error: The listing could not be read from the database.",
    );
    expect(messages.fetchFailed("Property", "x")).toBe(
      "Failed to fetch property details. Please try again. Error: x",
    );
    expect(await dialog.locator("footer").textContent()).toBe(
      `If the problem persists, show this message to ${company.errorContactName}.`,
    );
    expect(await page.locator("form.admin-form").count()).toBe(0);
    await dialog.getByRole("button", { name: "OK" }).click();
    await page.waitForURL((url) => url.pathname === listingPath("properties", seeded.house.id));
    await expect.poll(() => h1Text(page), POLL).toBe(seeded.house.address);
  });
});
