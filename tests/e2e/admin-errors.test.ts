// The admin screens' error dialogs (docs/behaviour.md §8, character for character, with the footer), and that
// a failed step leaves the data as it was (issue: nothing lost or orphaned). Both kinds.
import { company } from "~/domain/company";
import type { Listing } from "~/domain/listing";
import { listingKey } from "~/domain/listing";
import { COLLECTIONS, KINDS, listingPath } from "~/domain/listing-kinds";
import { addedMessages, messages } from "~/domain/messages";
import {
  answerConfirm,
  asFiles,
  dialogNamed,
  expectErrorDialog,
  field,
  folderExists,
  imageFolder,
  testImages,
  tiles,
} from "./admin-helpers";
import { expect, type SeedFields, test } from "./fixtures";
import { exactly, gotoHydrated, heading, uniqueSuffix } from "./helpers";

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

/** How the spec's messages name each kind, and what the edit page is titled. */
const SPEC = {
  properties: { noun: "property", notFound: "Property not found.", editTitle: "Edit Property" },
  newConstruction: {
    noun: "construction",
    notFound: "Construction not found.",
    editTitle: "Edit Construction",
  },
} as const;

test.use({ viewport: { width: 1280, height: 900 } });

for (const collection of COLLECTIONS) {
  const kind = KINDS[collection];
  const { noun, notFound, editTitle } = SPEC[collection];
  const api = `/api/listings/${collection}`;
  const seedFields = (s: string): SeedFields =>
    kind.hasOffer
      ? {
          address: `E2E ${s} Error House`,
          bedrooms: 2,
          price: "1500",
          currently_available: true,
        }
      : { address: `E2E ${s} Error Build` };
  const editPath = (listing: Listing) => `${kind.editRoute}/${listing.id}`;

  test.describe(`${noun} error dialogs`, () => {
    test(`add: the picker takes images only; an upload that is no image fails with 'Failed to add ${noun}. …' and stores nothing; so does a server failure`, async ({
      adminPage: page,
      control,
    }) => {
      const images = await testImages();
      const address = `E2E ${uniqueSuffix()} Failed Add Way`;
      const id = listingKey(address);
      await gotoHydrated(page, kind.addRoute);
      await page.getByRole("button", { name: "Clear" }).click();
      await field(page, "Address").fill(address);
      await field(page, "Images").setInputFiles([
        { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") },
      ]);
      await expect(tiles(page)).toHaveCount(0);
      // A good photo first, then the impostor: the good one must not stay behind either.
      await field(page, "Images").setInputFiles([...asFiles([images.red]), fakeJpeg]);
      await expect(tiles(page)).toHaveCount(2);

      const submit = page.locator("form.admin-form button[type='submit']");
      await submit.click();
      await expectErrorDialog(
        page,
        messages.errorTitle,
        `Failed to add ${noun}. Please try again. Error: ${NOT_AN_IMAGE}`,
      );
      expect(await control.getListing(collection, id)).toBeNull();
      expect(await folderExists(imageFolder(collection, id))).toBe(false);
      // The form is intact, ready for another try.
      await expect(page).toHaveURL((url) => url.pathname === kind.addRoute);
      await expect(field(page, "Address")).toHaveValue(address);
      await expect(tiles(page)).toHaveCount(2);
      await expect(submit).toBeEnabled();

      // Another try, without the impostor, meets a server failure: its message is shown.
      await tiles(page).nth(1).getByRole("button", { name: "Remove" }).click();
      await answerConfirm(page, "Yes");
      await expect(tiles(page)).toHaveCount(1);
      await page.route(new RegExp(`${api}$`), (route) => route.fulfill(boom));
      await submit.click();
      await expectErrorDialog(
        page,
        messages.errorTitle,
        `Failed to add ${noun}. Please try again. Error: boom`,
      );
      expect(await control.getListing(collection, id)).toBeNull();
      await page.getByRole("button", { name: "Clear" }).click();
    });

    test("edit: a photo that is no image, a failed removal and a photo already gone each say so and change nothing", async ({
      adminPage: page,
      seedListing,
      control,
    }) => {
      const listing = await seedListing(collection, seedFields(uniqueSuffix()));
      await gotoHydrated(page, editPath(listing));
      // An upload that is no image: 'Failed to add images. …', nothing stored.
      await field(page, "Add Images").setInputFiles([fakeJpeg]);
      await expectErrorDialog(
        page,
        messages.errorTitle,
        `Failed to add images. Please try again. Error: ${NOT_AN_IMAGE}`,
      );
      await expect(tiles(page)).toHaveCount(0);
      expect(await control.getListing(collection, listing.id)).toEqual(listing);
      expect(await folderExists(imageFolder(collection, listing.id))).toBe(false);
      await expect(page.getByRole("button", { name: "Save" })).toBeEnabled();

      // A removal the server fails: 'Error deleting image. …', the photo stays.
      const images = await testImages();
      await field(page, "Add Images").setInputFiles(asFiles([images.green]));
      await dialogNamed(page, "Uploaded!").getByRole("button", { name: "OK" }).click();
      await expect(tiles(page)).toHaveCount(1);
      const withPhoto = await control.getListing(collection, listing.id);
      expect(withPhoto?.image_urls).toHaveLength(1);
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
      await expect(tiles(page)).toHaveCount(1);
      expect(await control.getListing(collection, listing.id)).toEqual(withPhoto);
      await page.unroute(/\/images$/);

      // Another admin's change (no mock): the photo leaves the record while this form shows it.
      await control.setImages(collection, listing.id, []);
      await tiles(page).first().getByRole("button", { name: "Remove" }).click();
      await answerConfirm(page, "Yes");
      await expectErrorDialog(
        page,
        messages.errorTitle,
        "Error: That image is not part of this listing.",
      );
    });

    test(`edit: a refused save says 'Failed to save ${noun}. …' and stays on the form; so does a server failure`, async ({
      adminPage: page,
      seedListing,
      control,
    }) => {
      const listing = await seedListing(collection, seedFields(uniqueSuffix()));
      await gotoHydrated(page, editPath(listing));
      // The server's validation (no mock): bedrooms are limited to 0..1000.
      await field(page, "Bedrooms").fill("5000");
      await field(page, "Thumbnail Description").fill("must not be stored");
      await page.getByRole("button", { name: "Save" }).click();
      await expectErrorDialog(
        page,
        messages.errorTitle,
        `Failed to save ${noun}. Please try again. Error: The bedrooms must be a number from 0 to 1000.`,
      );
      await expect(page).toHaveURL((url) => url.pathname === editPath(listing));
      await expect(field(page, "Bedrooms")).toHaveValue("5000");
      expect(await control.getListing(collection, listing.id)).toEqual(listing);

      // A server failure on save.
      await field(page, "Bedrooms").fill("3");
      await page.route(new RegExp(`${api}/${listing.id}$`), (route) => route.fulfill(boom));
      await page.getByRole("button", { name: "Save" }).click();
      await expectErrorDialog(
        page,
        messages.errorTitle,
        `Failed to save ${noun}. Please try again. Error: boom`,
      );
      await expect(page).toHaveURL((url) => url.pathname === editPath(listing));
      expect(await control.getListing(collection, listing.id)).toEqual(listing);
    });

    test(`edit: a failed delete says 'Failed to delete ${noun}. …'; a missing record '${notFound}'`, async ({
      adminPage: page,
      seedListing,
      control,
    }) => {
      const listing = await seedListing(collection, seedFields(uniqueSuffix()));
      await gotoHydrated(page, editPath(listing));
      const deleting = new RegExp(`${api}/${listing.id}$`);
      await page.route(deleting, (route) => route.fulfill(boom));
      await page.getByRole("button", { name: "Delete" }).click();
      await answerConfirm(page, "Yes");
      // After the dialog the form reloads its record.
      const reloaded = page.waitForResponse((r) => r.url().includes(`${editPath(listing)}.data`));
      await expectErrorDialog(
        page,
        messages.errorTitle,
        `Failed to delete ${noun}. Please try again. Error: boom`,
      );
      expect((await reloaded).status()).toBe(200);
      await page.unroute(deleting);
      expect(await control.getListing(collection, listing.id)).not.toBeNull();
      await expect(page).toHaveURL((url) => url.pathname === editPath(listing));

      // Someone else deleted it meanwhile.
      await control.removeListing(collection, listing.id);
      await page.getByRole("button", { name: "Delete" }).click();
      await answerConfirm(page, "Yes");
      expect(messages.notFoundOnDelete(kind.noun)).toBe(notFound);
      await expectErrorDialog(page, messages.errorTitle, notFound);
      // Nothing is left to edit: on to the list.
      await expect(page).toHaveURL((url) => url.pathname === kind.route);
    });

    test(`edit: when the record cannot be read, 'Failed to fetch ${noun} details. …', then the detail page`, async ({
      adminPage: page,
      seedListing,
      control,
    }) => {
      const listing = await seedListing(collection, seedFields(uniqueSuffix()));
      // A real read failure, which the app itself never causes: the listings table is briefly
      // unreachable (out-of-band SQL; the tests run one at a time, so only this one sees it).
      await control.outOfBandSql("ALTER TABLE listings RENAME TO listings_offline");
      let status: number | undefined;
      try {
        status = (await gotoHydrated(page, editPath(listing)))?.status();
      } finally {
        await control.outOfBandSql("ALTER TABLE listings_offline RENAME TO listings");
      }
      expect(status).toBe(503);
      await expect(heading(page)).toHaveText(exactly(editTitle));
      const dialog = dialogNamed(page, messages.errorTitle);
      await expect(dialog).toBeVisible();
      await expect.poll(() => dialog.evaluate((el) => el.matches(":modal"))).toBe(true);
      await expect(dialog.locator("p")).toHaveText(
        exactly(
          `Failed to fetch ${noun} details. Please try again. Error: The listing could not be read from the database.`,
        ),
      );
      expect(messages.fetchFailed(kind.noun, "x")).toBe(
        `Failed to fetch ${noun} details. Please try again. Error: x`,
      );
      await expect(dialog.locator("footer")).toHaveText(
        exactly(`If the problem persists, show this message to ${company.errorContactName}.`),
      );
      await expect(page.locator("form.admin-form")).toHaveCount(0);
      await dialog.getByRole("button", { name: "OK" }).click();
      await expect(page).toHaveURL((url) => url.pathname === listingPath(collection, listing.id));
      await expect(heading(page)).toHaveText(exactly(listing.address));
    });
  });
}

test.describe("availability save failure", () => {
  test("reverts the view and shows 'Failed to Update' with the catalogue text and footer", async ({
    adminPage: page,
    seedListing,
    control,
  }) => {
    const listing = await seedListing("properties", {
      address: `E2E ${uniqueSuffix()} Toggle Failure Court`,
      currently_available: true,
      price: "1999",
    });
    await gotoHydrated(page, listingPath("properties", listing.id));
    const status = page.locator("article .status");
    const toggle = page
      .getByRole("region", { name: "Admin Features" })
      .getByRole("button", { name: "Toggle Availability" });
    await expect(status).toHaveText(exactly("Available"));
    // The server fails, after a while (so the view's change can be seen first).
    const requests: { method: string; body: unknown }[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/availability$/, async (route) => {
      requests.push({ method: route.request().method(), body: route.request().postDataJSON() });
      await gate;
      await route.fulfill(boom);
    });
    await toggle.click();
    await expect(status).toHaveText(exactly("Not Available"));
    release();

    expect(messages.availabilityFailedTitle).toBe("Failed to Update");
    await expectErrorDialog(
      page,
      "Failed to Update",
      "Could not update property availability in the database. Please try again. Error: boom",
    );
    expect(messages.availabilityFailed("boom")).toBe(
      "Could not update property availability in the database. Please try again. Error: boom",
    );
    expect(requests).toEqual([{ method: "PATCH", body: { currently_available: false } }]);
    await expect(status).toHaveText(exactly("Available"));
    await expect(page.locator("article .detail-price")).toHaveText(exactly("$1,999"));
    await expect(toggle).toBeEnabled();
    expect((await control.getListing("properties", listing.id))?.currently_available).toBe(true);
  });
});

test.describe("a server fault", () => {
  test("shows the failed request's id below the footer, for staff to quote", async ({
    adminPage: page,
    seedListing,
    control,
  }) => {
    const listing = await seedListing("properties", {
      address: `E2E ${uniqueSuffix()} Reference Court`,
      currently_available: true,
    });
    await gotoHydrated(page, listingPath("properties", listing.id));
    // A real failure on the server (out-of-band SQL; the tests run one at a time).
    await control.outOfBandSql("ALTER TABLE listings RENAME TO listings_offline");
    let requestId: string | null = null;
    try {
      const answer = page.waitForResponse(/\/availability$/);
      await page
        .getByRole("region", { name: "Admin Features" })
        .getByRole("button", { name: "Toggle Availability" })
        .click();
      const response = await answer;
      expect(response.status()).toBe(500);
      requestId = await response.headerValue("x-request-id");
    } finally {
      await control.outOfBandSql("ALTER TABLE listings_offline RENAME TO listings");
    }
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const dialog = dialogNamed(page, "Failed to Update");
    await expect(dialog).toBeVisible();
    await expect(dialog.locator("footer")).toHaveText(
      exactly(`If the problem persists, show this message to ${company.errorContactName}.`),
    );
    await expect(dialog.locator(".dialog-reference")).toHaveText(
      exactly(`Reference: ${requestId}`),
    );
    await dialog.getByRole("button", { name: "OK" }).click();
    await expect(dialog).toHaveCount(0);
  });
});

/** A server fault as the one error handler answers it, with the request id `reference`. */
const fault = (reference: string) => ({
  status: 500,
  contentType: "application/json",
  headers: { "X-Request-Id": reference },
  body: JSON.stringify({ error: FAULT, requestId: reference }),
});
const FAULT = "Something went wrong on the server.";

// Every admin error dialog is made by dialogs.failed() (docs/decisions/0058-one-error-model.md):
// these four screens showed no reference before.
test.describe("every admin error dialog shows the failed request's reference", () => {
  test("featuring a listing", async ({ adminPage: page, seedListing }) => {
    const listing = await seedListing("properties", {
      address: `E2E ${uniqueSuffix()} Featured Failure Lane`,
    });
    await gotoHydrated(page, listingPath("properties", listing.id));
    await page.route(/\/featured$/, (route) => route.fulfill(fault("ref-featured")));
    await page
      .getByRole("region", { name: "Admin Features" })
      .getByRole("button", { name: "Feature on home page" })
      .click();
    await expectErrorDialog(
      page,
      messages.availabilityFailedTitle,
      addedMessages.featuredFailed(FAULT),
      "ref-featured",
    );
  });

  test("saving the site settings", async ({ adminPage: page }) => {
    await gotoHydrated(page, "/admin/site");
    await page.route(/\/api\/site$/, (route) =>
      route.request().method() === "PUT" ? route.fulfill(fault("ref-settings")) : route.continue(),
    );
    await page.getByRole("button", { name: "Save settings" }).click();
    await expectErrorDialog(
      page,
      messages.errorTitle,
      addedMessages.settingsSaveFailed(FAULT),
      "ref-settings",
    );
  });

  test("history: 'Erase for good' and 'Restore this version'", async ({
    adminPage: page,
    control,
  }) => {
    const address = `E2E ${uniqueSuffix()} History Failure Row`;
    const id = listingKey(address);
    const { red, green } = await testImages();
    try {
      await gotoHydrated(page, "/");
      const added = await page.request.post(`/api/listings/properties`, {
        multipart: {
          data: JSON.stringify({ address }),
          images: { name: red.name, mimeType: red.mimeType, buffer: red.buffer },
        },
      });
      expect(added.status()).toBe(201);
      const more = await page.request.post(`/api/listings/properties/${id}/images`, {
        multipart: { images: { name: green.name, mimeType: green.mimeType, buffer: green.buffer } },
      });
      expect(more.status()).toBe(200);
      const [, removed] = (await control.getListing("properties", id))?.image_urls ?? [];
      const gone = await page.request.delete(`/api/listings/properties/${id}/images`, {
        data: { url: removed },
      });
      expect(gone.status()).toBe(200);

      await gotoHydrated(page, `${listingPath("properties", id)}/history`);
      await page.route(/\/history\/photos$/, (route) => route.fulfill(fault("ref-erase-photo")));
      await page
        .getByRole("region", { name: "Photos only the history keeps" })
        .getByRole("button", { name: "Erase for good: Photo 1 of the history" })
        .click();
      await answerConfirm(page, "Yes");
      await expectErrorDialog(page, messages.errorTitle, FAULT, "ref-erase-photo");

      await page.route(/\/history\/\d+\/restore$/, (route) =>
        route.fulfill(fault("ref-restore-version")),
      );
      await page
        .getByTestId("history-entry")
        .last()
        .getByRole("button", { name: "Restore this version" })
        .click();
      await answerConfirm(page, "Yes");
      await expectErrorDialog(page, messages.errorTitle, FAULT, "ref-restore-version");
    } finally {
      await control.removeListing("properties", id);
    }
  });

  test("Recently deleted: 'Erase for good', and 'Restore' refused by the server itself", async ({
    adminPage: page,
    seedListing,
    control,
  }) => {
    const address = `E2E ${uniqueSuffix()} Deleted Failure Road`;
    const listing = await seedListing("properties", { address });
    expect(await control.removeListing("properties", listing.id)).toBe(true);
    await gotoHydrated(page, "/admin/deleted");
    const row = page.getByTestId("deleted-entry").filter({ hasText: address });
    await expect(row).toHaveCount(1);

    await page.route(/\/api\/deleted\/\d+$/, (route) => route.fulfill(fault("ref-erase-entry")));
    await row.getByRole("button", { name: `Erase ${address} for good` }).click();
    await answerConfirm(page, "Yes");
    await expectErrorDialog(page, messages.errorTitle, FAULT, "ref-erase-entry");
    await expect(row).toHaveCount(1);

    // The address taken meanwhile (no mock): the server's own refusal, with its own request id.
    await seedListing("properties", { address });
    const answer = page.waitForResponse(/\/api\/deleted\/\d+\/restore$/);
    await row.getByRole("button", { name: `Restore ${address}` }).click();
    const response = await answer;
    expect(response.status()).toBe(409);
    const requestId = await response.headerValue("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    await expectErrorDialog(
      page,
      messages.errorTitle,
      messages.duplicateAddress("Property"),
      requestId ?? "",
    );
    await expect(row).toHaveCount(1);
  });
});
