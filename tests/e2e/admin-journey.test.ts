// The admin's whole journey with a listing of each kind, in a real browser: add with photos
// reordered by mouse and keyboard, the duplicate alert, edit, photos added and removed, delete
// (docs/behaviour.md §2 admin routes, forms and detail 'Admin Features', §4, §5, §7 sequences, §8 dialogs),
// watched live by a visitor's list page. One description for both kinds; the property-only
// steps (price, availability, reservation URL) run for properties only.
import type { Page } from "@playwright/test";
import { listingKey } from "~/domain/listing";
import { COLLECTIONS, KINDS, listingPath } from "~/domain/listing-kinds";
import { dialogDurations, messages, successTitles } from "~/domain/messages";
import {
  acknowledgeSuccess,
  answerConfirm,
  asFiles,
  dialogNamed,
  dragTile,
  field,
  folderExists,
  handles,
  imageFolder,
  keyboardMove,
  liveRegion,
  storedSize,
  successDialogDuration,
  type TestImages,
  testImages,
  tileSizes,
  tiles,
} from "./admin-helpers";
import { control } from "./control";
import { expect, openPage, test } from "./fixtures";
import {
  card,
  cardTitles,
  exactly,
  gotoHydrated,
  heading,
  holdRequests,
  httpStatus,
  nav,
  openLive,
  stillSameDocument,
  texts,
  uniqueSuffix,
} from "./helpers";

/** The spec's words for each kind (messages.ts and the pages must produce these). */
const SPEC = {
  properties: {
    /** The navbar link, also the add page's title. */
    addLink: "Add Property",
    addButton: "Add Property",
    added: "Property Added!",
    duplicate: "Property with this address already exists!",
    editTitle: "Edit Property",
    listTitle: "Properties",
  },
  newConstruction: {
    addLink: "Add New Construction",
    addButton: "Add Construction",
    added: "Construction Added!",
    duplicate: "Construction with this address already exists!",
    editTitle: "Edit Construction",
    listTitle: "New Construction",
  },
} as const;

const LIVE = { timeout: 8_000 } as const;
const adminBlock = (page: Page) => page.getByRole("region", { name: "Admin Features" });
const statusText = (page: Page) => page.locator("article .status");
const detailPrice = (page: Page) => page.locator("article .detail-price");
const detailFacts = (page: Page) => page.locator("article .detail-facts");
const submitButton = (page: Page) => page.locator("form.admin-form button[type='submit']");
const progressBar = (page: Page) => page.getByRole("progressbar", { name: "Upload progress" });
const galleryUrls = (page: Page) =>
  page
    .getByTestId("gallery")
    .locator("img")
    .evaluateAll((els) => els.map((el) => el.getAttribute("src")));
const bullets = (page: Page) => texts(page.locator("article > ul > li"));
const draft = (page: Page, collection: string) =>
  page.evaluate((key) => sessionStorage.getItem(key), `draft:${collection}`);

for (const collection of COLLECTIONS) {
  const kind = KINDS[collection];
  const spec = SPEC[collection];
  const offer = kind.hasOffer;
  const api = `/api/listings/${collection}`;

  test.describe(`${kind.noun.toLowerCase()} admin journey`, () => {
    // Each step goes on from where the one before left the listing.
    test.describe.configure({ mode: "serial" });

    const s = uniqueSuffix();
    // A '#' and a '.' in the address: the key drops them (docs/behaviour.md §3 key rule).
    const address = `E2E ${s} Lot #7 Journey St.`;
    const id = listingKey(address);
    const editedAddress = `E2E ${s} Lot 7 Journey Street`;
    const reserveUrl = `https://rentals.example.com/e2e-${s}?week=1`;
    const edited = Array.from({ length: 14 }, (_, i) => `Edited point ${i + 1}`);
    const longText = [...edited, "..Solar roof"].join("\n");
    let images: TestImages;
    let page: Page;
    let watcher: Page;
    /** The stored photo URLs as the journey goes on. */
    let urls: string[] = [];
    const stored = () => control.getListing(collection, id);

    test.beforeAll(async ({ browser, adminAccount }) => {
      images = await testImages();
      page = await openPage(browser, {
        storageState: adminAccount.storageState,
        viewport: { width: 1280, height: 900 },
      });
      // A step that cannot happen fails in seconds, not after the test's whole minute.
      page.context().setDefaultTimeout(10_000);
      await gotoHydrated(page, "/");
      watcher = await openPage(browser);
      await openLive(watcher, kind.route);
    });

    test.afterAll(async () => {
      await page?.context().close();
      await watcher?.context().close();
      await control.removeListing(collection, id);
    });

    test(`adds a ${kind.noun.toLowerCase()} with three photos reordered by mouse and keyboard`, async () => {
      expect(id).toBe(`e2e-${s}-lot-7-journey-st`);
      await expect.poll(() => cardTitles(watcher)).not.toContain(address);
      await nav(page).getByRole("link", { name: spec.addLink, exact: true }).click();
      await expect(page).toHaveURL((url) => url.pathname === kind.addRoute);
      await expect(heading(page)).toHaveText(exactly(spec.addLink));
      await page.getByRole("button", { name: "Clear" }).click();

      // Defaults: Residential, nothing picked; for properties not available. Constructions
      // have no price and no availability.
      await expect(field(page, "Property Type")).toHaveValue("Residential");
      await expect(field(page, "Property Type").locator("option")).toHaveText(
        ["Residential", "Commercial", "Vacation"].map(exactly),
      );
      if (offer) {
        await expect(field(page, "Currently Available")).not.toBeChecked();
      } else {
        for (const label of ["Price", "Currently Available", "Status"]) {
          await expect(field(page, label), label).toHaveCount(0);
        }
      }
      await expect(field(page, "Images")).toHaveAttribute("accept", "image/*");
      await expect(field(page, "Bedrooms")).toHaveAttribute("type", "number");
      await expect(field(page, "Bathrooms")).toHaveAttribute("type", "number");

      await field(page, "Address").fill(address);
      await field(page, "Bedrooms").fill("3");
      await field(page, "Bathrooms").fill("2.5");
      await field(page, "Description").fill("Bright rooms\nNew roof..Big yard");
      await field(page, "Thumbnail Description").fill("Journey starter home");
      await field(page, "Property Type").selectOption("Commercial");
      if (offer) {
        await field(page, "Price").fill("2750");
        await field(page, "Currently Available").check();
      }

      // Picked in two goes: they add up.
      const { red, green, blue } = images;
      await field(page, "Images").setInputFiles(asFiles([red]));
      await field(page, "Images").setInputFiles(asFiles([green, blue]));
      await expect.poll(() => tileSizes(page)).toEqual([red.size, green.size, blue.size]);
      await expect(tiles(page).first().getByText("Thumbnail")).toHaveCount(1);

      // Keyboard: red two places to the right → green, blue, red.
      await keyboardMove(page, 0, "ArrowRight", 2);
      await expect(liveRegion(page)).toHaveText(exactly("Photo 1 was dropped at position 3 of 3."));
      await expect.poll(() => tileSizes(page)).toEqual([green.size, blue.size, red.size]);
      // Mouse: red (last) onto the middle one → green, red, blue...
      await dragTile(page, 2, 1);
      await expect.poll(() => tileSizes(page)).toEqual([green.size, red.size, blue.size]);
      // ... and the first onto the last → red, blue, green.
      await dragTile(page, 0, 2);
      await expect.poll(() => tileSizes(page)).toEqual([red.size, blue.size, green.size]);
      // Keyboard: the second (blue) one place to the left → blue, red, green.
      await keyboardMove(page, 1, "ArrowLeft");
      await expect(liveRegion(page)).toHaveText(exactly("Photo 2 was dropped at position 1 of 3."));
      await expect.poll(() => tileSizes(page)).toEqual([blue.size, red.size, green.size]);
      // The thumbnail badge follows the first photo.
      await expect(tiles(page).first().getByText("Thumbnail")).toHaveCount(1);
      await expect(handles(page).first()).toHaveAttribute(
        "aria-label",
        "Photo 1 (thumbnail): drag to reorder",
      );

      // A removed pick is not uploaded: remove green after confirming, then pick it again.
      await tiles(page).nth(2).getByRole("button", { name: "Remove" }).click();
      await answerConfirm(page, "Yes");
      await expect.poll(() => tileSizes(page)).toEqual([blue.size, red.size]);
      await field(page, "Images").setInputFiles(asFiles([green]));
      await expect.poll(() => tileSizes(page)).toEqual([blue.size, red.size, green.size]);
      // Escape on 'Are you sure?' is a 'Cancel'.
      await tiles(page).nth(0).getByRole("button", { name: "Remove" }).click();
      await expect(dialogNamed(page, messages.confirm)).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(dialogNamed(page, messages.confirm)).toHaveCount(0);
      await expect.poll(() => tileSizes(page)).toEqual([blue.size, red.size, green.size]);

      // While the upload runs: progress bar, 'Saving...' and disabled buttons.
      const release = await holdRequests(page, new RegExp(`${api}$`));
      await page.getByRole("button", { name: spec.addButton }).click();
      await expect(submitButton(page)).toHaveText(exactly("Saving..."));
      await expect(submitButton(page)).toBeDisabled();
      await expect(page.getByRole("button", { name: "Clear" })).toBeDisabled();
      await expect(progressBar(page)).toHaveCount(1);
      release();

      expect(successTitles.added(kind.noun)).toBe(spec.added);
      const shown = await successDialogDuration(page, spec.added);
      expect(shown).toBeGreaterThanOrEqual(dialogDurations.added - 300);
      await expect(page).toHaveURL((url) => url.pathname === listingPath(collection, id));
      await expect(heading(page)).toHaveText(exactly(address));

      const row = await stored();
      expect(row).toMatchObject({
        address,
        bedrooms: 3,
        bathrooms: 2.5,
        description: "Bright rooms\nNew roof..Big yard",
        thumbnail_description: "Journey starter home",
        property_type: "Commercial",
        currently_available: offer ? true : null,
        price: offer ? "2750" : null,
        reserve_url: null,
      });
      urls = row?.image_urls ?? [];
      expect(urls).toHaveLength(3);
      for (const [i, url] of urls.entries()) {
        expect(url).toMatch(
          new RegExp(
            `^/images/${collection}/${encodeURIComponent(encodeURIComponent(id))}/image_\\d+_${i}\\.jpg$`,
          ),
        );
      }
      // Stored in the reordered order; the thumbnail is the first photo.
      expect(await Promise.all(urls.map(storedSize))).toEqual([blue.size, red.size, green.size]);
      expect(row?.thumbnail_image_url).toBe(urls[0]);

      // The detail page: the gallery in that order, the fields, and the admin block.
      await expect.poll(() => galleryUrls(page)).toEqual(urls);
      await expect(detailFacts(page)).toHaveText(exactly("3 Bedrooms | 2.5 Bathrooms"));
      await expect.poll(() => bullets(page)).toEqual(["Bright rooms", "New roof", "Big yard"]);
      if (offer) {
        await expect(detailPrice(page)).toHaveText(exactly("$2,750"));
        await expect(statusText(page)).toHaveText(exactly("Available"));
        // (Featuring: docs/behaviour.md §19.)
        await expect(adminBlock(page).getByRole("button")).toHaveText([
          "Toggle Availability",
          "Feature on home page",
        ]);
      } else {
        // No price, status or toggle for a construction (featuring: docs/behaviour.md §19).
        await expect(page.locator("article .status, article .detail-price")).toHaveCount(0);
        await expect(adminBlock(page).getByRole("button")).toHaveText(["Feature on home page"]);
      }
      await expect(adminBlock(page).getByRole("heading")).toHaveText(exactly("Admin Features"));
      await expect(adminBlock(page).getByRole("link")).toHaveText(["Edit Property", "History"]);
      await expect(adminBlock(page).getByRole("link", { name: "Edit Property" })).toHaveAttribute(
        "href",
        `${kind.editRoute}/${id}`,
      );

      // The draft is gone once added.
      await expect.poll(() => draft(page, collection)).toBeNull();

      // Meanwhile the visitor's list got the card, thumbnail first, without a reload.
      await expect.poll(() => cardTitles(watcher), LIVE).toContain(address);
      const newCard = card(watcher, address);
      await expect(newCard.locator("a")).toHaveAttribute("href", listingPath(collection, id));
      await expect(newCard.locator("img")).toHaveAttribute("src", urls[0] as string);
      await expect(newCard).toContainText("3 Bedrooms | 2.5 Bathrooms");
      await expect(newCard).toContainText("Journey starter home");
      await expect.poll(() => stillSameDocument(watcher)).toBe(true);
    });

    test("adding the same address again alerts and saves nothing", async () => {
      const before = await stored();
      expect(before?.address).toBe(address);
      await gotoHydrated(page, kind.addRoute);
      await page.getByRole("button", { name: "Clear" }).click();
      // Another spelling of the same key: '#' and '.' are dropped, letters lowercased.
      const again = address.replace("#", "").toUpperCase();
      expect(listingKey(again)).toBe(id);
      await field(page, "Address").fill(again);
      await field(page, "Description").fill("Should never be stored");
      await field(page, "Images").setInputFiles(asFiles([images.yellow]));
      await expect(tiles(page)).toHaveCount(1);

      const alerts: string[] = [];
      page.once("dialog", (dialog) => {
        alerts.push(`${dialog.type()}: ${dialog.message()}`);
        void dialog.accept();
      });
      await page.getByRole("button", { name: spec.addButton }).click();
      await expect.poll(() => alerts).toEqual([`alert: ${spec.duplicate}`]);
      expect(messages.duplicateAddress(kind.noun)).toBe(spec.duplicate);
      // Still on the form, nothing saved: the record and its photos are as they were.
      await expect(page).toHaveURL((url) => url.pathname === kind.addRoute);
      await expect(page.getByRole("button", { name: spec.addButton })).toBeEnabled();
      await expect(field(page, "Address")).toHaveValue(again);
      expect(await stored()).toEqual(before);
      const sameAddress = (await control.listSummaries(collection)).filter(
        (l) => l.address.toLowerCase() === address.toLowerCase(),
      );
      expect(sameAddress.map((l) => l.id)).toEqual([id]);
      await page.getByRole("button", { name: "Clear" }).click();
    });

    if (offer) {
      test("'Toggle Availability' flips at once, saves, says 'Updated!' for 3 s; the list follows", async () => {
        await gotoHydrated(page, listingPath(collection, id));
        await expect(statusText(page)).toHaveText(exactly("Available"));
        const toggle = adminBlock(page).getByRole("button", { name: "Toggle Availability" });

        const release = await holdRequests(page, /\/availability$/);
        await toggle.click();
        // Applied in the view before the server answered; the button waits.
        await expect(statusText(page)).toHaveText(exactly("Not Available"));
        await expect(detailPrice(page)).toHaveCount(0);
        await expect(page.getByRole("link", { name: "Apply Now" })).toHaveCount(0);
        await expect(toggle).toBeDisabled();
        expect((await stored())?.currently_available).toBe(true);
        release();

        const shown = await successDialogDuration(page, successTitles.updated);
        expect(shown).toBeGreaterThanOrEqual(dialogDurations.availabilitySuccess - 300);
        await expect(statusText(page)).toHaveText(exactly("Not Available"));
        expect((await stored())?.currently_available).toBe(false);
        await page.unroute(/\/availability$/);

        // The visitor filtering on available properties loses the card, then gets it back.
        await watcher.getByLabel("Only show available properties").check();
        await expect.poll(() => cardTitles(watcher), LIVE).not.toContain(address);
        await toggle.click();
        await expect(statusText(page)).toHaveText(exactly("Available"));
        await expect(dialogNamed(page, successTitles.updated)).toBeVisible();
        await expect.poll(async () => (await stored())?.currently_available).toBe(true);
        await expect.poll(() => cardTitles(watcher), LIVE).toContain(address);
        await watcher.getByLabel("Only show available properties").uncheck();
        await expect.poll(() => stillSameDocument(watcher)).toBe(true);
        // Escape closes a success dialog early.
        await page.keyboard.press("Escape");
        await expect(dialogNamed(page, successTitles.updated)).toHaveCount(0);
      });
    }

    test(`'Edit Property' opens ${kind.editRoute}/{id}: every field, reorder, 'Saved!', the detail page`, async () => {
      const { red, green, blue } = images;
      await gotoHydrated(page, listingPath(collection, id));
      // The admin block is loaded lazily: until it has hydrated, 'Edit Property' is a plain link
      // that loads the edit page from the server, and a choice made there before that page
      // hydrates is undone by hydration (the select of 'Property Type' went back to its stored
      // value in two CI runs). Its buttons are enabled once it has hydrated (decision 0044).
      await expect(adminBlock(page).getByRole("button", { name: /home page$/ })).toBeEnabled();
      await adminBlock(page).getByRole("link", { name: "Edit Property" }).click();
      await expect(page).toHaveURL((url) => url.pathname === `${kind.editRoute}/${id}`);
      await expect(heading(page)).toHaveText(exactly(spec.editTitle));

      // The stored values, the photos in their order.
      await expect(field(page, "Address")).toHaveValue(address);
      await expect(field(page, "Description")).toHaveValue("Bright rooms\nNew roof..Big yard");
      await expect(field(page, "Bedrooms")).toHaveValue("3");
      await expect(field(page, "Bathrooms")).toHaveValue("2.5");
      await expect(field(page, "Property Type")).toHaveValue("Commercial");
      await expect(field(page, "Thumbnail Description")).toHaveValue("Journey starter home");
      await expect.poll(() => tileSizes(page)).toEqual([blue.size, red.size, green.size]);
      if (offer) {
        await expect(field(page, "Price")).toHaveValue("2750");
        await expect(field(page, "Status")).toHaveValue("available");
        await expect(field(page, "Status").locator("option")).toHaveText(
          ["Available", "Not Available"].map(exactly),
        );
      } else {
        for (const label of ["Price", "Status", "Currently Available"]) {
          await expect(field(page, label), label).toHaveCount(0);
        }
      }

      // Reservation URL exists only for a property of type Vacation.
      await expect(field(page, "Reservation URL")).toHaveCount(0);
      await field(page, "Property Type").selectOption("Vacation");
      if (offer) {
        await expect(field(page, "Reservation URL")).toBeVisible();
        await field(page, "Property Type").selectOption("Residential");
        await expect(field(page, "Reservation URL")).toHaveCount(0);
        await field(page, "Property Type").selectOption("Vacation");
      }
      await expect(field(page, "Property Type")).toHaveValue("Vacation");
      // (for a construction, not even for Vacation)
      if (!offer) await expect(field(page, "Reservation URL")).toHaveCount(0);

      // The description grows with its text.
      const description = field(page, "Description");
      const height = () => description.evaluate((el) => el.getBoundingClientRect().height);
      const heightBefore = await height();
      await description.fill(longText);
      await expect.poll(height).toBeGreaterThan(heightBefore + 100);
      await expect
        .poll(() => description.evaluate((el) => el.scrollHeight <= el.clientHeight + 2))
        .toBe(true);

      await field(page, "Address").fill(editedAddress);
      await field(page, "Bedrooms").fill("4");
      await field(page, "Bathrooms").fill("");
      await field(page, "Thumbnail Description").fill("Journey beach house");
      if (offer) {
        await field(page, "Price").fill("Call for rates");
        await field(page, "Status").selectOption({ label: "Not Available" });
        await field(page, "Reservation URL").fill(reserveUrl);
      }
      // Reorder here too: the last (green) to the front with the keyboard → green, blue, red...
      await keyboardMove(page, 2, "ArrowLeft", 2);
      await expect(liveRegion(page)).toHaveText(exactly("Photo 3 was dropped at position 1 of 3."));
      await expect.poll(() => tileSizes(page)).toEqual([green.size, blue.size, red.size]);
      // ... then the last (red) to the front with the mouse → red, green, blue.
      await dragTile(page, 2, 0);
      await expect.poll(() => tileSizes(page)).toEqual([red.size, green.size, blue.size]);

      const saving = new RegExp(`${api}/${id}$`);
      const release = await holdRequests(page, saving);
      await page.getByRole("button", { name: "Save" }).click();
      await expect(submitButton(page)).toHaveText(exactly("Saving..."));
      await expect(submitButton(page)).toBeDisabled();
      await expect(page.getByRole("button", { name: "Delete" })).toBeDisabled();
      release();

      const shown = await successDialogDuration(page, successTitles.saved);
      expect(shown).toBeGreaterThanOrEqual(dialogDurations.saved - 300);
      await expect(page).toHaveURL((url) => url.pathname === listingPath(collection, id));
      await page.unroute(saving);
      await expect(heading(page)).toHaveText(exactly(editedAddress));

      const row = await stored();
      expect(row).toMatchObject({
        address: editedAddress,
        bedrooms: 4,
        bathrooms: null,
        description: longText,
        thumbnail_description: "Journey beach house",
        property_type: "Vacation",
        currently_available: offer ? false : null,
        price: offer ? "Call for rates" : null,
        reserve_url: offer ? reserveUrl : null,
        image_urls: [urls[1], urls[2], urls[0]],
        thumbnail_image_url: urls[1],
      });
      urls = row?.image_urls ?? [];

      // The detail page shows the changes.
      await expect(detailFacts(page)).toHaveText(exactly("4 Bedrooms"));
      await expect.poll(() => bullets(page)).toEqual([...edited, "Solar roof"]);
      await expect.poll(() => galleryUrls(page)).toEqual(urls);
      if (offer) {
        await expect(statusText(page)).toHaveText(exactly("Not Available"));
        // Available again: a Vacation rental offers 'Reserve' with the new URL, and the
        // free-text price.
        await adminBlock(page).getByRole("button", { name: "Toggle Availability" }).click();
        await expect(statusText(page)).toHaveText(exactly("Available"));
        await expect(page.getByRole("link", { name: "Reserve" })).toHaveAttribute(
          "href",
          reserveUrl,
        );
        await expect(detailPrice(page)).toHaveText(exactly("Call for rates"));
        await expect(dialogNamed(page, successTitles.updated)).toBeVisible();
        await page.keyboard.press("Escape");
      }

      // The visitor's card changed with it.
      await expect.poll(() => cardTitles(watcher), LIVE).toContain(editedAddress);
      await expect.poll(() => cardTitles(watcher)).not.toContain(address);
      const changed = card(watcher, editedAddress);
      await expect(changed.locator(".card-text").first()).toHaveText(exactly("4 Bedrooms"));
      await expect(changed).toContainText("Journey beach house");
      await expect(changed.locator("img")).toHaveAttribute("src", urls[0] as string);
      await expect.poll(() => stillSameDocument(watcher)).toBe(true);
    });

    test("edit: adds photos with a progress bar and 'Uploaded!', removes some after 'Are you sure?' with 'Removed!'", async () => {
      const { red, green, blue, yellow } = images;
      await gotoHydrated(page, `${kind.editRoute}/${id}`);
      await expect(tiles(page)).toHaveCount(3);
      await expect(field(page, "Add Images")).toHaveAttribute("accept", "image/*");
      await expect(field(page, "Add Images")).toHaveAttribute("multiple");

      const uploads = new RegExp(`${api}/${id}/images$`);
      const release = await holdRequests(page, uploads);
      await field(page, "Add Images").setInputFiles(asFiles([yellow, red]));
      await expect(progressBar(page)).toBeVisible();
      await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();
      await expect(page.getByRole("button", { name: "Delete" })).toBeDisabled();
      release();
      await acknowledgeSuccess(page, successTitles.uploaded);
      await expect(progressBar(page)).toHaveCount(0);
      await page.unroute(uploads);
      await expect
        .poll(() => tileSizes(page))
        .toEqual([red.size, green.size, blue.size, yellow.size, red.size]);
      // Stored at once, appended, named after their places.
      const afterUpload = (await stored())?.image_urls ?? [];
      expect(afterUpload.slice(0, 3)).toEqual(urls);
      expect(afterUpload).toHaveLength(5);
      expect(afterUpload[3]).toMatch(/\/image_\d+_3\.jpg$/);
      expect(afterUpload[4]).toMatch(/\/image_\d+_4\.jpg$/);
      expect(await Promise.all(afterUpload.slice(3).map(storedSize))).toEqual([
        yellow.size,
        red.size,
      ]);

      // 'Cancel' keeps a photo.
      await tiles(page).first().getByRole("button", { name: "Remove" }).click();
      await answerConfirm(page, "Cancel");
      await expect(tiles(page)).toHaveCount(5);
      expect((await stored())?.image_urls).toEqual(afterUpload);

      // 'Yes' removes it: the second photo (green); the thumbnail stays.
      await tiles(page).nth(1).getByRole("button", { name: "Remove" }).click();
      await answerConfirm(page, "Yes");
      await acknowledgeSuccess(page, successTitles.removed);
      await expect
        .poll(() => tileSizes(page))
        .toEqual([red.size, blue.size, yellow.size, red.size]);
      let row = await stored();
      expect(row?.image_urls).toEqual([afterUpload[0], ...afterUpload.slice(2)]);
      expect(row?.thumbnail_image_url).toBe(afterUpload[0]);
      expect(await httpStatus(afterUpload[1] as string)).toBe(404);

      // Removing the thumbnail makes the next photo the thumbnail, on the visitor's card too.
      await tiles(page).first().getByRole("button", { name: "Remove" }).click();
      await answerConfirm(page, "Yes");
      await acknowledgeSuccess(page, successTitles.removed);
      await expect.poll(() => tileSizes(page)).toEqual([blue.size, yellow.size, red.size]);
      row = await stored();
      expect(row?.image_urls).toEqual(afterUpload.slice(2));
      expect(row?.thumbnail_image_url).toBe(afterUpload[2]);
      expect(await httpStatus(afterUpload[0] as string)).toBe(404);
      urls = row?.image_urls ?? [];
      await expect(card(watcher, editedAddress).locator("img")).toHaveAttribute(
        "src",
        urls[0] as string,
        LIVE,
      );
    });

    test(`'Delete' asks 'Are you sure?', removes record and photos, and goes to ${kind.route}`, async () => {
      await gotoHydrated(page, `${kind.editRoute}/${id}`);
      // Cancel: nothing happens.
      await page.getByRole("button", { name: "Delete" }).click();
      await answerConfirm(page, "Cancel");
      expect(await stored()).not.toBeNull();
      await expect(page).toHaveURL((url) => url.pathname === `${kind.editRoute}/${id}`);

      const deleting = new RegExp(`${api}/${id}$`);
      const release = await holdRequests(page, deleting);
      await page.getByRole("button", { name: "Delete" }).click();
      await answerConfirm(page, "Yes");
      // The form's own button: the confirm dialog's 'Yes' is a .btn-danger too, and may still be
      // in the form for a moment while it closes.
      const deleteButton = page.locator("form.admin-form button.btn-danger[type=button]");
      await expect(deleteButton).toHaveText(exactly("Deleting..."));
      await expect(deleteButton).toBeDisabled();
      await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();
      release();
      await acknowledgeSuccess(page, successTitles.deleted);
      await expect(page).toHaveURL((url) => url.pathname === kind.route);
      await page.unroute(deleting);
      await expect(heading(page)).toHaveText(exactly(spec.listTitle));
      await expect.poll(() => cardTitles(page)).not.toContain(editedAddress);

      expect(await stored()).toBeNull();
      for (const url of urls) expect(await httpStatus(url), url).toBe(404);
      expect(await folderExists(imageFolder(collection, id))).toBe(false);
      expect((await gotoHydrated(page, listingPath(collection, id)))?.status()).toBe(404);

      // Gone from the visitor's list too, still without a reload.
      await expect.poll(() => cardTitles(watcher), LIVE).not.toContain(editedAddress);
      await expect.poll(() => stillSameDocument(watcher)).toBe(true);
    });
  });
}
