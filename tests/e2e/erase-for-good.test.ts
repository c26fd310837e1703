// 'Erase for good' (docs/behaviour.md §21, §22) as an admin, in a real browser: a photo
// only the history names, on the history page, and a listing in Recently deleted. Both ask
// 'Are you sure?' (Cancel changes nothing), say 'Deleted!', and leave no copy or variant on disk.
import fs from "node:fs/promises";
import path from "node:path";
import type { Page } from "@playwright/test";
import { listingKey } from "~/domain/listing";
import { listingPath } from "~/domain/listing-kinds";
import { successTitles } from "~/domain/messages";
import { acknowledgeSuccess, answerConfirm, testImages } from "./admin-helpers";
import { violations } from "./axe";
import { expect, test } from "./fixtures";
import { exactly, gotoHydrated, heading, httpStatus, uniqueSuffix } from "./helpers";
import { serverInfo } from "./server-info";

const entries = (page: Page) => page.getByTestId("history-entry");

/** Every stored file (public or in the trash) of a photo and its variants, by its URL. */
async function storedCopies(url: string): Promise<string[]> {
  const root = path.join(serverInfo().dataDir, "images");
  const [, collection = "", folder = "", name = ""] = /^\/images\/([^/]+)\/([^/]+)\/(.+)$/.exec(
    url,
  ) ?? ["", "", "", ""];
  const stem = name.replace(/\.jpg$/, "");
  const found: string[] = [];
  for (const dir of [
    path.join(root, collection, folder),
    path.join(root, ".trash", collection, folder),
  ]) {
    for (const file of await fs.readdir(dir).catch(() => [])) {
      if (file.startsWith(`${stem}.`)) found.push(path.join(dir, file));
    }
  }
  return found.sort();
}

/** A listing's photo URLs (the test fails if it is not stored). */
async function urlsOf(
  control: { getListing(c: "properties", id: string): Promise<{ image_urls: string[] } | null> },
  id: string,
) {
  const listing = await control.getListing("properties", id);
  if (!listing) throw new Error(`not stored: ${id}`);
  return listing.image_urls;
}

async function addWithPhotos(page: Page, address: string, count: number) {
  const images = Object.values(await testImages()).slice(0, count);
  const multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> = {
    data: JSON.stringify({ address }),
  };
  // (Playwright's multipart takes one value per name: the photos are added one by one after.)
  const [first, ...rest] = images;
  if (first)
    multipart.images = { name: first.name, mimeType: first.mimeType, buffer: first.buffer };
  expect((await page.request.post("/api/listings/properties", { multipart })).status()).toBe(201);
  for (const image of rest) {
    const res = await page.request.post(`/api/listings/properties/${listingKey(address)}/images`, {
      multipart: { images: { name: image.name, mimeType: image.mimeType, buffer: image.buffer } },
    });
    expect(res.status()).toBe(200);
  }
}

test("history: a removed photo is erased for good, with every copy", async ({
  adminPage: page,
  control,
}) => {
  const address = `${uniqueSuffix()} Eraser Court`;
  const id = listingKey(address);
  try {
    await gotoHydrated(page, "/");
    await addWithPhotos(page, address, 2);
    const [kept, removed] = (await urlsOf(control, id)) as [string, string];
    const gone = await page.request.delete(`/api/listings/properties/${id}/images`, {
      data: { url: removed },
    });
    expect(gone.status()).toBe(200);
    expect(await httpStatus(removed)).toBe(404);
    expect((await storedCopies(removed)).length).toBeGreaterThan(1);

    await gotoHydrated(page, `${listingPath("properties", id)}/history`);
    const photos = page.getByRole("region", { name: "Photos only the history keeps" });
    const erase = photos.getByRole("button", { name: "Erase for good: Photo 1 of the history" });
    await expect(photos.getByTestId("history-photo")).toHaveCount(1);
    // Staff see the photo (from the private trash) before they erase it.
    await expect
      .poll(() => photos.locator("img").evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    expect(await violations(page)).toEqual([]);

    await erase.click();
    await answerConfirm(page, "Cancel");
    await expect(photos.getByTestId("history-photo")).toHaveCount(1);
    expect((await storedCopies(removed)).length).toBeGreaterThan(1);

    await erase.click();
    await answerConfirm(page, "Yes");
    await acknowledgeSuccess(page, successTitles.deleted);
    await expect(page.locator("main").getByRole("status")).toHaveText(
      "The photo is erased for good.",
    );
    await expect(photos).toHaveCount(0);
    await expect(entries(page).nth(0).locator("h2")).toContainText("Photo erased for good, ");
    await expect(entries(page).nth(0).locator("li")).toHaveText(["1 photo erased for good"]);
    await expect.poll(() => storedCopies(removed)).toEqual([]);
    expect(await httpStatus(kept)).toBe(200);
  } finally {
    await control.removeListing("properties", id);
  }
});

test("Recently deleted: a listing is erased for good, with its photos", async ({
  adminPage: page,
  control,
}) => {
  const address = `${uniqueSuffix()} Vanish Road`;
  const id = listingKey(address);
  await gotoHydrated(page, "/");
  await addWithPhotos(page, address, 1);
  const [photo] = (await urlsOf(control, id)) as [string];
  expect(await control.removeListing("properties", id)).toBe(true);
  expect((await storedCopies(photo)).length).toBeGreaterThan(1);

  await gotoHydrated(page, "/admin/deleted");
  await expect(heading(page)).toHaveText(exactly("Recently deleted"));
  const row = page.getByTestId("deleted-entry").filter({ hasText: address });
  const erase = row.getByRole("button", { name: `Erase ${address} for good` });
  await expect(row).toHaveCount(1);
  expect(await violations(page)).toEqual([]);

  await erase.click();
  await answerConfirm(page, "Cancel");
  await expect(row).toHaveCount(1);

  await erase.click();
  await answerConfirm(page, "Yes");
  await acknowledgeSuccess(page, successTitles.deleted);
  await expect(row).toHaveCount(0);
  await expect(page.locator("main").getByRole("status")).toHaveText(
    `${address} is erased for good.`,
  );
  await expect.poll(() => storedCopies(photo)).toEqual([]);
  expect(await httpStatus(`${listingPath("properties", id)}/history`)).toBe(404);
});
