// The admin's whole construction journey in a real browser (spec §2 Add/Edit Construction forms
// and construction detail, §5, §7, §8), watched live by a visitor's /new-construction.
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
  testImages,
  tileSizes,
  tiles,
} from "./admin-helpers";
import { newUser, removeAdmin, signedInPage } from "./auth-fixtures";
import { useBrowser } from "./fixtures";
import {
  deleteRow,
  gotoHydrated,
  h1Text,
  holdRequests,
  POLL,
  texts,
  uniqueSuffix,
} from "./helpers";

const LIVE = { timeout: 8_000, interval: 100 } as const;
const galleryUrls = (page: Page) =>
  page
    .getByTestId("gallery")
    .locator("img")
    .evaluateAll((els) => els.map((el) => el.getAttribute("src")));
const adminBlock = (page: Page) => page.getByRole("region", { name: "Admin Features" });
const nav = (page: Page) => page.getByRole("navigation", { name: "Main" });

describe("construction admin journey", () => {
  const b = useBrowser();
  const admin = newUser("construction-admin", "Cory Construction");
  const s = uniqueSuffix();
  // A '#' and a '.' in the address: the key drops them (spec §3 key rule).
  const address = `E2E ${s} Build Lot #7 St.`;
  const id = listingKey(address);
  const editedAddress = `E2E ${s} Build Lot 7 Street`;
  let images: Awaited<ReturnType<typeof testImages>>;
  let ctx: { context: BrowserContext; page: Page };
  let watcher: { context: BrowserContext; page: Page };
  let page: Page;
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
    await openLive(watcher.page, "/new-construction");
  });

  afterAll(async () => {
    await ctx?.context.close();
    await watcher?.context.close();
    await deleteRow("newConstruction", id);
    await removeAdmin(admin.email);
  });

  it("adds a construction with three photos reordered by mouse and keyboard", async () => {
    expect(id).toBe(`e2e-${s}-build-lot-7-st`);
    await nav(page).getByRole("link", { name: "Add New Construction", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/addnewconstruction");
    await expect.poll(() => h1Text(page), POLL).toBe("Add New Construction");
    await page.getByRole("button", { name: "Clear" }).click();

    // The property form without price and availability.
    expect(await field(page, "Price").count()).toBe(0);
    expect(await field(page, "Currently Available").count()).toBe(0);
    expect(await field(page, "Status").count()).toBe(0);
    expect(await field(page, "Property Type").inputValue()).toBe("Residential");
    expect(await field(page, "Images").getAttribute("accept")).toBe("image/*");

    await field(page, "Address").fill(address);
    await field(page, "Bedrooms").fill("5");
    await field(page, "Bathrooms").fill("4.5");
    await field(page, "Description").fill("Craftsman build\nThree-car garage");
    await field(page, "Thumbnail Description").fill("Journey new build");
    await field(page, "Property Type").selectOption("Vacation");

    // Picked in two goes: they add up.
    await field(page, "Images").setInputFiles(asFiles([images.red]));
    await field(page, "Images").setInputFiles(asFiles([images.green, images.blue]));
    await expect.poll(() => tiles(page).count(), POLL).toBe(3);
    expect(await tileSizes(page)).toEqual([images.red.size, images.green.size, images.blue.size]);

    // Keyboard first: red two places to the right → green, blue, red.
    expect(await keyboardMove(page, 0, "ArrowRight", 2)).toBe(
      "Photo 1 was dropped at position 3 of 3.",
    );
    await expect
      .poll(() => tileSizes(page), POLL)
      .toEqual([images.green.size, images.blue.size, images.red.size]);
    // Then the mouse: red (last) onto the middle one → green, red, blue.
    await dragTile(page, 2, 1);
    await expect
      .poll(() => tileSizes(page), POLL)
      .toEqual([images.green.size, images.red.size, images.blue.size]);

    // A removed pick is not uploaded: remove blue after confirming.
    await tiles(page).nth(2).getByRole("button", { name: "Remove" }).click();
    await answerConfirm(page, "Yes");
    expect(await tileSizes(page)).toEqual([images.green.size, images.red.size]);
    await field(page, "Images").setInputFiles(asFiles([images.blue]));
    await expect.poll(() => tiles(page).count(), POLL).toBe(3);
    // Escape on 'Are you sure?' is a 'Cancel'.
    await tiles(page).nth(0).getByRole("button", { name: "Remove" }).click();
    await dialogNamed(page, messages.confirm).waitFor();
    await page.keyboard.press("Escape");
    await dialogNamed(page, messages.confirm).waitFor({ state: "detached" });
    expect(await tileSizes(page)).toEqual([images.green.size, images.red.size, images.blue.size]);

    const release = await holdRequests(page, /\/api\/listings\/newConstruction$/);
    await page.getByRole("button", { name: "Add Construction" }).click();
    const submit = page.locator("form.admin-form button[type='submit']");
    await expect.poll(() => submit.textContent(), POLL).toBe("Saving...");
    expect(await submit.isDisabled()).toBe(true);
    expect(await page.getByRole("progressbar", { name: "Upload progress" }).count()).toBe(1);
    release();

    const shown = await successDialogDuration(page, "Construction Added!");
    expect(successTitles.added("Construction")).toBe("Construction Added!");
    expect(shown).toBeGreaterThanOrEqual(dialogDurations.added - 300);
    await page.waitForURL((url) => url.pathname === listingPath("newConstruction", id));
    await expect.poll(() => h1Text(page), POLL).toBe(address);

    const row = await storedListing("newConstruction", id);
    expect(row).toMatchObject({
      address,
      bedrooms: 5,
      bathrooms: 4.5,
      description: "Craftsman build\nThree-car garage",
      thumbnail_description: "Journey new build",
      property_type: "Vacation",
      currently_available: null,
      price: null,
      reserve_url: null,
    });
    urls = row?.image_urls ?? [];
    expect(await Promise.all(urls.map(storedSize))).toEqual([
      images.green.size,
      images.red.size,
      images.blue.size,
    ]);
    expect(row?.thumbnail_image_url).toBe(urls[0]);
    for (const url of urls) expect(url.startsWith("/images/newConstruction/")).toBe(true);

    // The construction detail: gallery in order, facts, bullets; no price, status or toggle.
    expect(await galleryUrls(page)).toEqual(urls);
    expect(await page.locator("article .detail-facts").textContent()).toBe(
      "5 Bedrooms | 4.5 Bathrooms",
    );
    expect(await texts(page, "article > ul > li")).toEqual(["Craftsman build", "Three-car garage"]);
    expect(await page.locator("article .status, article .detail-price").count()).toBe(0);
    expect(await adminBlock(page).getByRole("button").count()).toBe(0);
    expect(
      await adminBlock(page).getByRole("link", { name: "Edit Property" }).getAttribute("href"),
    ).toBe(`/edit-construction/${id}`);
    expect(await page.evaluate(() => sessionStorage.getItem("draft:newConstruction"))).toBeNull();

    await expect.poll(() => cardTitles(watcher.page), LIVE).toContain(address);
    const newCard = card(watcher.page, address);
    expect(await newCard.locator("a").getAttribute("href")).toBe(
      listingPath("newConstruction", id),
    );
    expect(await newCard.locator("img").getAttribute("src")).toBe(urls[0]);
    expect(await newCard.textContent()).toContain("Journey new build");
    expect(await notReloaded(watcher.page)).toBe(true);
  });

  it("adding the same address again alerts 'Construction with this address already exists!'", async () => {
    const before = await storedListing("newConstruction", id);
    expect(before?.address).toBe(address);
    await gotoHydrated(page, "/addnewconstruction");
    await page.getByRole("button", { name: "Clear" }).click();
    // Same key: '#' and '.' are dropped, letters lowercased.
    await field(page, "Address").fill(address.replace("#", "").toUpperCase());
    await field(page, "Images").setInputFiles(asFiles([images.yellow]));
    await expect.poll(() => tiles(page).count(), POLL).toBe(1);
    const alerts: string[] = [];
    page.once("dialog", (dialog) => {
      alerts.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.accept();
    });
    await page.getByRole("button", { name: "Add Construction" }).click();
    await expect
      .poll(() => alerts, POLL)
      .toEqual(["alert: Construction with this address already exists!"]);
    expect(new URL(page.url()).pathname).toBe("/addnewconstruction");
    expect(await storedListing("newConstruction", id)).toEqual(before);
    await page.getByRole("button", { name: "Clear" }).click();
  });

  it("'Edit Property' opens /edit-construction/{id}: every field, reorder, 'Saved!', the detail page", async () => {
    await gotoHydrated(page, listingPath("newConstruction", id));
    await adminBlock(page).getByRole("link", { name: "Edit Property" }).click();
    await page.waitForURL((url) => url.pathname === `/edit-construction/${id}`);
    await expect.poll(() => h1Text(page), POLL).toBe("Edit Construction");

    // The edit form without price, status and reservation URL (even for Vacation).
    expect(await field(page, "Property Type").inputValue()).toBe("Vacation");
    for (const label of ["Price", "Status", "Reservation URL", "Currently Available"]) {
      expect(await field(page, label).count(), label).toBe(0);
    }
    expect(await field(page, "Address").inputValue()).toBe(address);
    expect(await field(page, "Bedrooms").inputValue()).toBe("5");
    expect(await field(page, "Bathrooms").inputValue()).toBe("4.5");
    expect(await field(page, "Description").inputValue()).toBe("Craftsman build\nThree-car garage");
    expect(await field(page, "Thumbnail Description").inputValue()).toBe("Journey new build");
    expect(await tileSizes(page)).toEqual([images.green.size, images.red.size, images.blue.size]);

    await field(page, "Address").fill(editedAddress);
    await field(page, "Bedrooms").fill("6");
    await field(page, "Bathrooms").fill("");
    await field(page, "Description").fill("Craftsman build..Finished basement\nSolar roof");
    await field(page, "Thumbnail Description").fill("Journey build, finished");
    await field(page, "Property Type").selectOption("Commercial");
    expect(await field(page, "Reservation URL").count()).toBe(0);
    // Blue to the front with the mouse → blue, green, red.
    await dragTile(page, 2, 0);
    await expect
      .poll(() => tileSizes(page), POLL)
      .toEqual([images.blue.size, images.green.size, images.red.size]);

    await page.getByRole("button", { name: "Save" }).click();
    const shown = await successDialogDuration(page, successTitles.saved);
    expect(shown).toBeGreaterThanOrEqual(dialogDurations.saved - 300);
    await page.waitForURL((url) => url.pathname === listingPath("newConstruction", id));
    await expect.poll(() => h1Text(page), POLL).toBe(editedAddress);

    const row = await storedListing("newConstruction", id);
    expect(row).toMatchObject({
      address: editedAddress,
      bedrooms: 6,
      bathrooms: null,
      description: "Craftsman build..Finished basement\nSolar roof",
      thumbnail_description: "Journey build, finished",
      property_type: "Commercial",
      currently_available: null,
      price: null,
      reserve_url: null,
      image_urls: [urls[2], urls[0], urls[1]],
      thumbnail_image_url: urls[2],
    });
    urls = row?.image_urls ?? [];
    expect(await page.locator("article .detail-facts").textContent()).toBe("6 Bedrooms");
    expect(await texts(page, "article > ul > li")).toEqual([
      "Craftsman build",
      "Finished basement",
      "Solar roof",
    ]);
    expect(await galleryUrls(page)).toEqual(urls);

    await expect.poll(() => cardTitles(watcher.page), LIVE).toContain(editedAddress);
    expect(await cardTitles(watcher.page)).not.toContain(address);
    const changed = card(watcher.page, editedAddress);
    expect(await changed.textContent()).toContain("Journey build, finished");
    expect(await changed.textContent()).toContain("6 Bedrooms");
    expect(await changed.locator("img").getAttribute("src")).toBe(urls[0]);
    expect(await notReloaded(watcher.page)).toBe(true);
  });

  it("edit: adds two photos with progress and 'Uploaded!', removes one with 'Removed!'", async () => {
    await gotoHydrated(page, `/edit-construction/${id}`);
    const uploads = new RegExp(`/api/listings/newConstruction/${id}/images$`);
    const release = await holdRequests(page, uploads);
    await field(page, "Add Images").setInputFiles(asFiles([images.yellow, images.red]));
    await page.getByRole("progressbar", { name: "Upload progress" }).waitFor();
    expect(await page.getByRole("button", { name: "Delete" }).isDisabled()).toBe(true);
    release();
    await acknowledgeSuccess(page, successTitles.uploaded);
    await page.unroute(uploads);
    await expect.poll(() => tiles(page).count(), POLL).toBe(5);
    const afterUpload = (await storedListing("newConstruction", id))?.image_urls ?? [];
    expect(afterUpload.slice(0, 3)).toEqual(urls);
    expect(await Promise.all(afterUpload.slice(3).map(storedSize))).toEqual([
      images.yellow.size,
      images.red.size,
    ]);

    // Remove the second photo (green).
    await tiles(page).nth(1).getByRole("button", { name: "Remove" }).click();
    await answerConfirm(page, "Yes");
    await acknowledgeSuccess(page, successTitles.removed);
    await expect.poll(() => tiles(page).count(), POLL).toBe(4);
    const row = await storedListing("newConstruction", id);
    expect(row?.image_urls).toEqual([afterUpload[0], ...afterUpload.slice(2)]);
    expect(row?.thumbnail_image_url).toBe(afterUpload[0]);
    expect(await httpStatus(afterUpload[1] as string)).toBe(404);
    urls = row?.image_urls ?? [];

    // Removing the thumbnail makes the next photo the thumbnail, on the visitor's card too.
    await tiles(page).nth(0).getByRole("button", { name: "Remove" }).click();
    await answerConfirm(page, "Yes");
    await acknowledgeSuccess(page, successTitles.removed);
    const after = await storedListing("newConstruction", id);
    expect(after?.image_urls).toEqual(urls.slice(1));
    expect(after?.thumbnail_image_url).toBe(urls[1]);
    urls = after?.image_urls ?? [];
    await expect
      .poll(() => card(watcher.page, editedAddress).locator("img").getAttribute("src"), LIVE)
      .toBe(urls[0]);
  });

  it("'Delete' asks 'Are you sure?', removes record and photos, and goes to /new-construction", async () => {
    await gotoHydrated(page, `/edit-construction/${id}`);
    await page.getByRole("button", { name: "Delete" }).click();
    await answerConfirm(page, "Yes");
    await acknowledgeSuccess(page, successTitles.deleted);
    await page.waitForURL((url) => url.pathname === "/new-construction");
    await expect.poll(() => h1Text(page), POLL).toBe("New Construction");
    expect(await cardTitles(page)).not.toContain(editedAddress);

    expect(await storedListing("newConstruction", id)).toBeUndefined();
    for (const url of urls) expect(await httpStatus(url), url).toBe(404);
    expect(await folderExists(imageFolder("newConstruction", id))).toBe(false);

    await expect.poll(() => cardTitles(watcher.page), LIVE).not.toContain(editedAddress);
    expect(await notReloaded(watcher.page)).toBe(true);
  });
});
