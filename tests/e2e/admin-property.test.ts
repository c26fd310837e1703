// The admin's whole property journey in a real browser (spec §2 admin routes, forms and detail
// 'Admin Features', §4, §5, §7 sequences, §8 dialogs), watched live by a visitor's /properties.
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listingKey } from "~/domain/listing";
import { listingPath } from "~/domain/listing-kinds";
import { dialogDurations, messages, successTitles } from "~/domain/messages";
import {
  acknowledgeSuccess,
  answerConfirm,
  asFiles,
  card,
  cardTitles,
  dialogNamed,
  dragTile,
  expectErrorDialog,
  field,
  folderExists,
  httpStatus,
  imageFolder,
  keyboardMove,
  notReloaded,
  openLive,
  storedListing,
  storedSize,
  successDialogDuration,
  type TestImage,
  testImages,
  tileSizes,
  tiles,
} from "./admin-helpers";
import { newUser, removeAdmin, signedInPage } from "./auth-fixtures";
import { sql, useBrowser } from "./fixtures";
import {
  deleteRow,
  gotoHydrated,
  h1Text,
  holdRequests,
  insertRow,
  POLL,
  texts,
  uniqueSuffix,
} from "./helpers";

const LIVE = { timeout: 8_000, interval: 100 } as const;
const statusText = (page: Page) => page.locator("article .status").textContent();
const galleryUrls = (page: Page) =>
  page
    .getByTestId("gallery")
    .locator("img")
    .evaluateAll((els) => els.map((el) => el.getAttribute("src")));
const adminBlock = (page: Page) => page.getByRole("region", { name: "Admin Features" });

describe("property admin journey", () => {
  const b = useBrowser();
  const admin = newUser("property-admin", "Pat Property");
  const s = uniqueSuffix();
  const address = `E2E ${s} Journey Road`;
  const id = listingKey(address);
  const editedAddress = `E2E ${s} Journey Road (edited)`;
  const reserveUrl = `https://rentals.example.com/e2e-${s}?week=1`;
  let images: Awaited<ReturnType<typeof testImages>>;
  let ctx: { context: BrowserContext; page: Page };
  let watcher: { context: BrowserContext; page: Page };
  let page: Page;
  /** The stored photo URLs as the journey goes on. */
  let urls: string[] = [];

  beforeAll(async () => {
    images = await testImages();
    ctx = await signedInPage(() => b.newPage({ viewport: { width: 1280, height: 900 } }), admin, {
      admin: true,
    });
    page = ctx.page;
    // A step that cannot happen fails in seconds, not after the 30 s default.
    ctx.context.setDefaultTimeout(10_000);
    watcher = await b.newPage();
    await openLive(watcher.page, "/properties");
  });

  afterAll(async () => {
    await ctx?.context.close();
    await watcher?.context.close();
    await deleteRow("properties", id);
    await removeAdmin(admin.email);
  });

  it("adds a property with three photos reordered by mouse and keyboard", async () => {
    expect(await cardTitles(watcher.page)).not.toContain(address);
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Add Property", exact: true })
      .click();
    await page.waitForURL((url) => url.pathname === "/addproperty");
    await expect.poll(() => h1Text(page), POLL).toBe("Add Property");
    await page.getByRole("button", { name: "Clear" }).click();

    // Defaults: Residential, not available, nothing picked.
    expect(await field(page, "Property Type").inputValue()).toBe("Residential");
    expect(
      await field(page, "Property Type")
        .locator("option")
        .evaluateAll((els) => els.map((el) => el.textContent)),
    ).toEqual(["Residential", "Commercial", "Vacation"]);
    expect(await field(page, "Currently Available").isChecked()).toBe(false);
    expect(await field(page, "Images").getAttribute("accept")).toBe("image/*");
    expect(await field(page, "Bedrooms").getAttribute("type")).toBe("number");
    expect(await field(page, "Bathrooms").getAttribute("type")).toBe("number");

    await field(page, "Address").fill(address);
    await field(page, "Bedrooms").fill("3");
    await field(page, "Bathrooms").fill("2.5");
    await field(page, "Description").fill("Bright rooms\nNew roof..Big yard");
    await field(page, "Price").fill("2750");
    await field(page, "Thumbnail Description").fill("Journey starter home");
    await field(page, "Currently Available").check();
    await field(page, "Property Type").selectOption("Commercial");

    const picked: TestImage[] = [images.red, images.green, images.blue];
    await field(page, "Images").setInputFiles(asFiles(picked));
    await expect.poll(() => tiles(page).count(), POLL).toBe(3);
    expect(await tileSizes(page)).toEqual(picked.map((i) => i.size));
    expect(await tiles(page).first().getByText("Thumbnail").count()).toBe(1);

    // Mouse: the first photo dropped onto the last one → green, blue, red.
    await dragTile(page, 0, 2);
    await expect
      .poll(() => tileSizes(page), POLL)
      .toEqual([images.green.size, images.blue.size, images.red.size]);
    // Keyboard: the second photo (blue) one place to the left → blue, green, red.
    expect(await keyboardMove(page, 1, "ArrowLeft")).toBe(
      "Photo 2 was dropped at position 1 of 3.",
    );
    await expect
      .poll(() => tileSizes(page), POLL)
      .toEqual([images.blue.size, images.green.size, images.red.size]);
    // The thumbnail badge follows the first photo.
    expect(await tiles(page).first().getByText("Thumbnail").count()).toBe(1);
    expect(await handles0Label(page)).toBe("Photo 1 (thumbnail): drag to reorder");

    // While the upload runs: progress bar, 'Saving...' and disabled buttons.
    const release = await holdRequests(page, /\/api\/listings\/properties$/);
    await page.getByRole("button", { name: "Add Property" }).click();
    const busy = page.locator("form.admin-form button[type='submit']");
    await expect.poll(() => busy.textContent(), POLL).toBe("Saving...");
    expect(await busy.isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Clear" }).isDisabled()).toBe(true);
    expect(await page.getByRole("progressbar", { name: "Upload progress" }).count()).toBe(1);
    release();

    const shown = await successDialogDuration(page, successTitles.added("Property"));
    expect(successTitles.added("Property")).toBe("Property Added!");
    expect(shown).toBeGreaterThanOrEqual(dialogDurations.added - 300);
    await page.waitForURL((url) => url.pathname === listingPath("properties", id));
    await expect.poll(() => h1Text(page), POLL).toBe(address);

    const row = await storedListing("properties", id);
    expect(row).toMatchObject({
      address,
      bedrooms: 3,
      bathrooms: 2.5,
      description: "Bright rooms\nNew roof..Big yard",
      price: "2750",
      thumbnail_description: "Journey starter home",
      currently_available: true,
      property_type: "Commercial",
      reserve_url: null,
    });
    urls = row?.image_urls ?? [];
    expect(urls).toHaveLength(3);
    for (const [i, url] of urls.entries()) {
      expect(url).toMatch(
        new RegExp(
          `^/images/properties/${encodeURIComponent(encodeURIComponent(id))}/image_\\d+_${i}\\.jpg$`,
        ),
      );
    }
    // Stored in the reordered order; the thumbnail is the first photo.
    expect(await Promise.all(urls.map(storedSize))).toEqual([
      images.blue.size,
      images.green.size,
      images.red.size,
    ]);
    expect(row?.thumbnail_image_url).toBe(urls[0]);

    // The detail page: the gallery in that order, the fields, and the admin block.
    expect(await galleryUrls(page)).toEqual(urls);
    expect(await page.locator("article .detail-facts").textContent()).toBe(
      "3 Bedrooms | 2.5 Bathrooms",
    );
    expect(await texts(page, "article > ul > li")).toEqual([
      "Bright rooms",
      "New roof",
      "Big yard",
    ]);
    expect(await page.locator("article .detail-price").textContent()).toBe("$2,750");
    expect(await statusText(page)).toBe("Available");
    expect(await adminBlock(page).getByRole("heading").textContent()).toBe("Admin Features");

    // The draft is gone once added.
    expect(await page.evaluate(() => sessionStorage.getItem("draft:properties"))).toBeNull();

    // Meanwhile the visitor's list got the card, thumbnail first, without a reload.
    await expect.poll(() => cardTitles(watcher.page), LIVE).toContain(address);
    const newCard = card(watcher.page, address);
    expect(await newCard.locator("a").getAttribute("href")).toBe(listingPath("properties", id));
    expect(await newCard.locator("img").getAttribute("src")).toBe(urls[0]);
    expect(await newCard.textContent()).toContain("3 Bedrooms | 2.5 Bathrooms");
    expect(await newCard.textContent()).toContain("Journey starter home");
    expect(await notReloaded(watcher.page)).toBe(true);
  });

  it("adding the same address again alerts and saves nothing", async () => {
    const before = await storedListing("properties", id);
    expect(before?.address).toBe(address);
    await gotoHydrated(page, "/addproperty");
    await page.getByRole("button", { name: "Clear" }).click();
    // Another spelling of the same derived key.
    await field(page, "Address").fill(address.toUpperCase());
    await field(page, "Description").fill("Should never be stored");
    await field(page, "Images").setInputFiles(asFiles([images.yellow]));
    await expect.poll(() => tiles(page).count(), POLL).toBe(1);

    const alerts: string[] = [];
    page.once("dialog", (dialog) => {
      alerts.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.accept();
    });
    await page.getByRole("button", { name: "Add Property" }).click();
    await expect
      .poll(() => alerts, POLL)
      .toEqual(["alert: Property with this address already exists!"]);
    expect(messages.duplicateAddress("Property")).toBe(
      "Property with this address already exists!",
    );
    // Still on the form, nothing saved: the record and its photos are as they were.
    expect(new URL(page.url()).pathname).toBe("/addproperty");
    await expect
      .poll(() => page.getByRole("button", { name: "Add Property" }).isEnabled(), POLL)
      .toBe(true);
    expect(await field(page, "Address").inputValue()).toBe(address.toUpperCase());
    expect(await storedListing("properties", id)).toEqual(before);
    expect(
      await sql(
        "SELECT id FROM listings WHERE collection = 'properties' AND lower(address) = lower($1)",
        [address],
      ),
    ).toHaveLength(1);
    await page.getByRole("button", { name: "Clear" }).click();
  });

  it("'Toggle Availability' flips at once, saves, says 'Updated!' for 3 s; the list follows", async () => {
    await gotoHydrated(page, listingPath("properties", id));
    expect(await statusText(page)).toBe("Available");
    const toggle = adminBlock(page).getByRole("button", { name: "Toggle Availability" });

    const release = await holdRequests(page, /\/availability$/);
    await toggle.click();
    // Applied in the view before the server answered; the button waits.
    await expect.poll(() => statusText(page), POLL).toBe("Not Available");
    expect(await page.locator("article .detail-price").count()).toBe(0);
    expect(await page.getByRole("link", { name: "Apply Now" }).count()).toBe(0);
    expect(await toggle.isDisabled()).toBe(true);
    expect((await storedListing("properties", id))?.currently_available).toBe(true);
    release();

    const shown = await successDialogDuration(page, successTitles.updated);
    expect(shown).toBeGreaterThanOrEqual(dialogDurations.availabilitySuccess - 300);
    expect(await statusText(page)).toBe("Not Available");
    expect((await storedListing("properties", id))?.currently_available).toBe(false);
    await page.unroute(/\/availability$/);

    // The visitor filtering on available properties loses the card, then gets it back.
    await watcher.page.getByLabel("Only show available properties").check();
    await expect.poll(() => cardTitles(watcher.page), LIVE).not.toContain(address);
    await toggle.click();
    await expect.poll(() => statusText(page), POLL).toBe("Available");
    await dialogNamed(page, successTitles.updated).waitFor({ timeout: POLL.timeout });
    await expect
      .poll(async () => (await storedListing("properties", id))?.currently_available, POLL)
      .toBe(true);
    await expect.poll(() => cardTitles(watcher.page), LIVE).toContain(address);
    await watcher.page.getByLabel("Only show available properties").uncheck();
    expect(await notReloaded(watcher.page)).toBe(true);
    // Escape closes a success dialog early.
    await page.keyboard.press("Escape");
    await dialogNamed(page, successTitles.updated).waitFor({
      state: "detached",
      timeout: POLL.timeout,
    });
  });

  it("'Edit Property' changes every field, incl. Reservation URL for Vacation; 'Saved!' then the detail page", async () => {
    await gotoHydrated(page, listingPath("properties", id));
    await adminBlock(page).getByRole("link", { name: "Edit Property" }).click();
    await page.waitForURL((url) => url.pathname === `/editproperties/${id}`);
    await expect.poll(() => h1Text(page), POLL).toBe("Edit Property");

    // The stored values, the photos in their order.
    expect(await field(page, "Address").inputValue()).toBe(address);
    expect(await field(page, "Description").inputValue()).toBe("Bright rooms\nNew roof..Big yard");
    expect(await field(page, "Price").inputValue()).toBe("2750");
    expect(await field(page, "Bedrooms").inputValue()).toBe("3");
    expect(await field(page, "Bathrooms").inputValue()).toBe("2.5");
    expect(await field(page, "Status").inputValue()).toBe("available");
    expect(
      await field(page, "Status")
        .locator("option")
        .evaluateAll((els) => els.map((el) => el.textContent)),
    ).toEqual(["Available", "Not Available"]);
    expect(await field(page, "Property Type").inputValue()).toBe("Commercial");
    expect(await field(page, "Thumbnail Description").inputValue()).toBe("Journey starter home");
    expect(await tileSizes(page)).toEqual([images.blue.size, images.green.size, images.red.size]);

    // Reservation URL exists only for Vacation.
    expect(await field(page, "Reservation URL").count()).toBe(0);
    await field(page, "Property Type").selectOption("Vacation");
    await field(page, "Reservation URL").waitFor();
    await field(page, "Property Type").selectOption("Residential");
    await field(page, "Reservation URL").waitFor({ state: "detached" });
    await field(page, "Property Type").selectOption("Vacation");

    // The description grows with its text.
    const description = field(page, "Description");
    const heightBefore = await description.evaluate((el) => el.getBoundingClientRect().height);
    const longText = Array.from({ length: 14 }, (_, i) => `Edited point ${i + 1}`).join("\n");
    await description.fill(longText);
    await expect
      .poll(() => description.evaluate((el) => el.getBoundingClientRect().height), POLL)
      .toBeGreaterThan(heightBefore + 100);
    expect(await description.evaluate((el) => el.scrollHeight <= el.clientHeight + 2)).toBe(true);

    await field(page, "Address").fill(editedAddress);
    await field(page, "Price").fill("Call for rates");
    await field(page, "Bedrooms").fill("4");
    await field(page, "Bathrooms").fill("3");
    await field(page, "Status").selectOption({ label: "Not Available" });
    await field(page, "Reservation URL").fill(reserveUrl);
    await field(page, "Thumbnail Description").fill("Journey beach house");
    // Reorder here too: red (last) to the front with the keyboard, twice to the left.
    expect(await keyboardMove(page, 2, "ArrowLeft", 2)).toBe(
      "Photo 3 was dropped at position 1 of 3.",
    );
    await expect
      .poll(() => tileSizes(page), POLL)
      .toEqual([images.red.size, images.blue.size, images.green.size]);

    const release = await holdRequests(page, new RegExp(`/api/listings/properties/${id}$`));
    await page.getByRole("button", { name: "Save" }).click();
    const submit = page.locator("form.admin-form button[type='submit']");
    await expect.poll(() => submit.textContent(), POLL).toBe("Saving...");
    expect(await submit.isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Delete" }).isDisabled()).toBe(true);
    release();

    const shown = await successDialogDuration(page, successTitles.saved);
    expect(shown).toBeGreaterThanOrEqual(dialogDurations.saved - 300);
    await page.waitForURL((url) => url.pathname === listingPath("properties", id));
    await page.unroute(new RegExp(`/api/listings/properties/${id}$`));
    await expect.poll(() => h1Text(page), POLL).toBe(editedAddress);

    const row = await storedListing("properties", id);
    expect(row).toMatchObject({
      address: editedAddress,
      bedrooms: 4,
      bathrooms: 3,
      description: longText,
      price: "Call for rates",
      thumbnail_description: "Journey beach house",
      currently_available: false,
      property_type: "Vacation",
      reserve_url: reserveUrl,
      image_urls: [urls[2], urls[0], urls[1]],
      thumbnail_image_url: urls[2],
    });
    urls = row?.image_urls ?? [];

    // The detail page shows the changes.
    expect(await page.locator("article .detail-facts").textContent()).toBe(
      "4 Bedrooms | 3 Bathrooms",
    );
    expect(await texts(page, "article > ul > li")).toEqual(longText.split("\n"));
    expect(await statusText(page)).toBe("Not Available");
    expect(await galleryUrls(page)).toEqual(urls);
    // Available again: a Vacation rental offers 'Reserve' with the new URL, and the free-text price.
    await adminBlock(page).getByRole("button", { name: "Toggle Availability" }).click();
    await expect.poll(() => statusText(page), POLL).toBe("Available");
    expect(await page.getByRole("link", { name: "Reserve" }).getAttribute("href")).toBe(reserveUrl);
    expect(await page.locator("article .detail-price").textContent()).toBe("Call for rates");
    await dialogNamed(page, successTitles.updated).waitFor({ timeout: POLL.timeout });
    await page.keyboard.press("Escape");

    // The visitor's card changed with it.
    await expect.poll(() => cardTitles(watcher.page), LIVE).toContain(editedAddress);
    expect(await cardTitles(watcher.page)).not.toContain(address);
    const changed = card(watcher.page, editedAddress);
    expect(await changed.textContent()).toContain("4 Bedrooms | 3 Bathrooms");
    expect(await changed.textContent()).toContain("Journey beach house");
    expect(await changed.locator("img").getAttribute("src")).toBe(urls[0]);
    expect(await notReloaded(watcher.page)).toBe(true);
  });

  it("edit: adds a photo with a progress bar and 'Uploaded!', removes one after 'Are you sure?' with 'Removed!'", async () => {
    await gotoHydrated(page, `/editproperties/${id}`);
    expect(await tiles(page).count()).toBe(3);
    expect(await field(page, "Add Images").getAttribute("accept")).toBe("image/*");
    expect(await field(page, "Add Images").getAttribute("multiple")).not.toBeNull();

    const uploads = new RegExp(`/api/listings/properties/${id}/images$`);
    const release = await holdRequests(page, uploads);
    await field(page, "Add Images").setInputFiles(asFiles([images.yellow]));
    const bar = page.getByRole("progressbar", { name: "Upload progress" });
    await bar.waitFor({ timeout: POLL.timeout });
    expect(await page.getByRole("button", { name: "Save" }).isDisabled()).toBe(true);
    release();
    await acknowledgeSuccess(page, successTitles.uploaded);
    expect(await bar.count()).toBe(0);
    await page.unroute(uploads);
    await expect.poll(() => tiles(page).count(), POLL).toBe(4);
    expect(await tileSizes(page)).toEqual([
      images.red.size,
      images.blue.size,
      images.green.size,
      images.yellow.size,
    ]);
    // Stored at once, appended, named after its place.
    const afterUpload = (await storedListing("properties", id))?.image_urls ?? [];
    expect(afterUpload.slice(0, 3)).toEqual(urls);
    expect(afterUpload).toHaveLength(4);
    expect(afterUpload[3]).toMatch(/\/image_\d+_3\.jpg$/);
    expect(await storedSize(afterUpload[3] as string)).toBe(images.yellow.size);

    // Remove the first photo (the thumbnail): Cancel keeps it, Yes removes it.
    const first = tiles(page).first();
    await first.getByRole("button", { name: "Remove" }).click();
    await answerConfirm(page, "Cancel");
    expect(await tiles(page).count()).toBe(4);
    expect((await storedListing("properties", id))?.image_urls).toEqual(afterUpload);

    await first.getByRole("button", { name: "Remove" }).click();
    await answerConfirm(page, "Yes");
    await acknowledgeSuccess(page, successTitles.removed);
    expect(await tileSizes(page)).toEqual([
      images.blue.size,
      images.green.size,
      images.yellow.size,
    ]);
    const row = await storedListing("properties", id);
    expect(row?.image_urls).toEqual(afterUpload.slice(1));
    // The thumbnail is recomputed: the new first photo.
    expect(row?.thumbnail_image_url).toBe(afterUpload[1]);
    expect(await httpStatus(afterUpload[0] as string)).toBe(404);
    urls = row?.image_urls ?? [];

    // The visitor's card shows the new thumbnail.
    await expect
      .poll(() => card(watcher.page, editedAddress).locator("img").getAttribute("src"), LIVE)
      .toBe(urls[0]);
  });

  it("'Delete' asks 'Are you sure?', removes record and photos, and goes to the list", async () => {
    await gotoHydrated(page, `/editproperties/${id}`);
    // Cancel: nothing happens.
    await page.getByRole("button", { name: "Delete" }).click();
    await answerConfirm(page, "Cancel");
    expect(await storedListing("properties", id)).toBeDefined();
    expect(new URL(page.url()).pathname).toBe(`/editproperties/${id}`);

    const release = await holdRequests(page, new RegExp(`/api/listings/properties/${id}$`));
    await page.getByRole("button", { name: "Delete" }).click();
    await answerConfirm(page, "Yes");
    const deleting = page.locator("form.admin-form .btn-danger");
    await expect.poll(() => deleting.textContent(), POLL).toBe("Deleting...");
    expect(await deleting.isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Save" }).isDisabled()).toBe(true);
    release();
    await acknowledgeSuccess(page, successTitles.deleted);
    await page.waitForURL((url) => url.pathname === "/properties");
    await page.unroute(new RegExp(`/api/listings/properties/${id}$`));
    await expect.poll(() => h1Text(page), POLL).toBe("Properties");
    expect(await cardTitles(page)).not.toContain(editedAddress);

    expect(await storedListing("properties", id)).toBeUndefined();
    for (const url of urls) expect(await httpStatus(url), url).toBe(404);
    expect(await folderExists(imageFolder("properties", id))).toBe(false);
    expect((await gotoHydrated(page, listingPath("properties", id)))?.status()).toBe(404);

    // Gone from the visitor's list too, still without a reload.
    await expect.poll(() => cardTitles(watcher.page), LIVE).not.toContain(editedAddress);
    expect(await notReloaded(watcher.page)).toBe(true);
  });
});

describe("Add Property drafts", () => {
  const b = useBrowser();
  const admin = newUser("draft-admin", "Dee Draft");

  afterAll(async () => {
    await removeAdmin(admin.email);
  });

  it("keeps the fields in session storage, restores them on return, and 'Clear' empties", async () => {
    const { context, page } = await signedInPage(
      () => b.newPage({ viewport: { width: 1280, height: 900 } }),
      admin,
      { admin: true, startPath: "/addproperty" },
    );
    const images = await testImages();
    const s = uniqueSuffix();
    const draft = {
      Address: `E2E ${s} Draft Lane`,
      Bedrooms: "5",
      Bathrooms: "4",
      Description: "Draft line one\nDraft line two",
      Price: "3900",
      "Thumbnail Description": "Draft thumbnail",
    };
    for (const [label, value] of Object.entries(draft)) await field(page, label).fill(value);
    await field(page, "Currently Available").check();
    await field(page, "Property Type").selectOption("Vacation");
    await field(page, "Images").setInputFiles(asFiles([images.red, images.green]));
    await expect.poll(() => tiles(page).count(), POLL).toBe(2);

    const stored = await page.evaluate(() => sessionStorage.getItem("draft:properties"));
    expect(JSON.parse(stored ?? "{}")).toMatchObject({
      address: draft.Address,
      bedrooms: "5",
      currently_available: true,
      property_type: "Vacation",
    });

    // Leave through the navbar and come back: the draft is restored.
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "About" })
      .click();
    await page.waitForURL((url) => url.pathname === "/about");
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Add Property", exact: true })
      .click();
    await page.waitForURL((url) => url.pathname === "/addproperty");
    await expect.poll(() => field(page, "Address").inputValue(), POLL).toBe(draft.Address);
    for (const [label, value] of Object.entries(draft)) {
      expect(await field(page, label).inputValue(), label).toBe(value);
    }
    expect(await field(page, "Currently Available").isChecked()).toBe(true);
    expect(await field(page, "Property Type").inputValue()).toBe("Vacation");

    // A reload restores it as well.
    await page.reload();
    await expect.poll(() => field(page, "Address").inputValue(), POLL).toBe(draft.Address);
    expect(await field(page, "Description").inputValue()).toBe(draft.Description);

    // Clear empties every field (and the picked photos) and forgets the draft.
    await field(page, "Images").setInputFiles(asFiles([images.blue]));
    await expect.poll(() => tiles(page).count(), POLL).toBe(1);
    await page.getByRole("button", { name: "Clear" }).click();
    for (const label of Object.keys(draft)) {
      expect(await field(page, label).inputValue(), label).toBe("");
    }
    expect(await field(page, "Currently Available").isChecked()).toBe(false);
    expect(await field(page, "Property Type").inputValue()).toBe("Residential");
    expect(await tiles(page).count()).toBe(0);
    const afterClear = await page.evaluate(() => sessionStorage.getItem("draft:properties"));
    expect(afterClear === null || JSON.parse(afterClear).address === "").toBe(true);
    await page.reload();
    await expect
      .poll(() => page.evaluate(() => document.querySelector("form.admin-form") !== null), POLL)
      .toBe(true);
    expect(await field(page, "Address").inputValue()).toBe("");

    // Drafts belong to the tab's session: a new tab starts empty.
    await field(page, "Address").fill(draft.Address);
    const other = await context.newPage();
    await gotoHydrated(other, "/addproperty");
    expect(await field(other, "Address").inputValue()).toBe("");
    await context.close();
  });
});

describe("availability save failure", () => {
  const b = useBrowser();
  const admin = newUser("toggle-admin", "Tara Toggle");
  const s = uniqueSuffix();
  const id = `e2e-toggle-fail-${s}`;

  beforeAll(async () => {
    await insertRow(id, {
      address: `E2E ${s} Toggle Failure Court`,
      currently_available: true,
      price: "1999",
    });
  });

  afterAll(async () => {
    await deleteRow("properties", id);
    await removeAdmin(admin.email);
  });

  it("reverts the view and shows 'Failed to Update' with the catalogue text and footer", async () => {
    const { context, page } = await signedInPage(() => b.newPage(), admin, {
      admin: true,
      startPath: listingPath("properties", id),
    });
    expect(await statusText(page)).toBe("Available");
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/availability$/, async (route) => {
      expect(route.request().method()).toBe("PATCH");
      expect(route.request().postDataJSON()).toEqual({ currently_available: false });
      await gate;
      await route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ error: "boom" }),
      });
    });
    await adminBlock(page).getByRole("button", { name: "Toggle Availability" }).click();
    await expect.poll(() => statusText(page), POLL).toBe("Not Available");
    release();

    await expectErrorDialog(
      page,
      "Failed to Update",
      "Could not update property availability in the database. Please try again. Error: boom",
    );
    expect(messages.availabilityFailed("boom")).toBe(
      "Could not update property availability in the database. Please try again. Error: boom",
    );
    expect(await statusText(page)).toBe("Available");
    expect(await page.locator("article .detail-price").textContent()).toBe("$1,999");
    expect(
      await adminBlock(page).getByRole("button", { name: "Toggle Availability" }).isEnabled(),
    ).toBe(true);
    expect((await storedListing("properties", id))?.currently_available).toBe(true);
    await context.close();
  });
});

async function handles0Label(page: Page) {
  return tiles(page).first().locator(".drag-handle").getAttribute("aria-label");
}
