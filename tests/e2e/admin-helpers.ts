// Building blocks of the admin journeys (add, reorder, dialogs, stored images). Not a test file.
import fs from "node:fs/promises";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import sharp from "sharp";
import { expect, inject } from "vitest";
import { errorFooter } from "~/domain/company";
import type { Collection } from "~/domain/listing-kinds";
import { baseURL, sql } from "./fixtures";
import { gotoHydrated, POLL, texts } from "./helpers";

export interface TestImage {
  name: string;
  mimeType: string;
  buffer: Buffer;
  /** "{width}x{height}": how a test recognises the photo in the form, the gallery and storage. */
  size: string;
}

async function solid(
  name: string,
  width: number,
  height: number,
  background: string,
  format: "jpeg" | "png",
): Promise<TestImage> {
  const image = sharp({ create: { width, height, channels: 3, background } });
  const buffer = await (format === "png" ? image.png() : image.jpeg()).toBuffer();
  return { name, mimeType: `image/${format}`, buffer, size: `${width}x${height}` };
}

/** Four real photos of distinct sizes (and colours), JPEG and PNG. */
export async function testImages() {
  return {
    red: await solid("red.jpg", 300, 200, "#c0392b", "jpeg"),
    green: await solid("green.png", 240, 160, "#27ae60", "png"),
    blue: await solid("blue.jpg", 360, 240, "#2e86de", "jpeg"),
    yellow: await solid("yellow.jpg", 420, 280, "#f1c40f", "jpeg"),
  };
}

export const asFiles = (images: TestImage[]) =>
  images.map(({ name, mimeType, buffer }) => ({ name, mimeType, buffer }));

/** The sortable photo tiles of an add or edit form, in order. */
export const tiles = (page: Page) => page.getByTestId("sortable-image");
export const handles = (page: Page) => tiles(page).locator(".drag-handle");

/** "{w}x{h}" of every tile's picture, in order (waits until all have loaded). */
export async function tileSizes(page: Page): Promise<string[]> {
  const imgs = tiles(page).locator("img");
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll("[data-testid='sortable-image'] img")].every(
        (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
      ),
    undefined,
    { timeout: POLL.timeout },
  );
  return imgs.evaluateAll((els) =>
    els.map(
      (el) => `${(el as HTMLImageElement).naturalWidth}x${(el as HTMLImageElement).naturalHeight}`,
    ),
  );
}

/** Drags tile `from` onto tile `to` with the mouse (pointer events, as a person would). */
export async function dragTile(page: Page, from: number, to: number) {
  await handles(page).nth(to).scrollIntoViewIfNeeded();
  await handles(page).nth(from).scrollIntoViewIfNeeded();
  const a = await handles(page).nth(from).boundingBox();
  const b = await handles(page).nth(to).boundingBox();
  if (!a || !b) throw new Error("tile not visible");
  const start = { x: a.x + a.width / 2, y: a.y + a.height / 2 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  // Past the 4 px activation distance first, then across to the target.
  await page.mouse.move(start.x + 12, start.y, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 20 });
  await page.mouse.up();
  await expect
    .poll(() => page.locator("[id^='DndLiveRegion']").textContent(), POLL)
    .toContain("was dropped");
  // After a pointer drag the library swallows clicks for a moment (so the drop is not also a
  // click); a person never clicks that fast. Wait until a probe click gets through again.
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          let received = false;
          const probe = () => {
            received = true;
          };
          document.body.addEventListener("click", probe);
          document.body.dispatchEvent(new MouseEvent("click", { bubbles: true }));
          document.body.removeEventListener("click", probe);
          return received;
        }),
      POLL,
    )
    .toBe(true);
  return page.locator("[id^='DndLiveRegion']").textContent();
}

/**
 * Moves tile `from` with the keyboard only: focus its handle, Space picks it up, the arrow key
 * moves it `times` places, Space drops it.
 */
export async function keyboardMove(
  page: Page,
  from: number,
  key: "ArrowLeft" | "ArrowRight",
  times = 1,
) {
  // A person typing has the page in front; a background tab's timers are throttled, and the
  // library starts listening for arrow keys from a timer after the pick-up.
  await page.bringToFront();
  const handle = handles(page).nth(from);
  await handle.focus();
  await page.keyboard.press("Space");
  await expect.poll(() => handle.getAttribute("aria-pressed"), POLL).toBe("true");
  const live = page.locator("[id^='DndLiveRegion']");
  for (let i = 0; i < times; i++) {
    const before = await live.textContent();
    // The library announces each move; wait for it before the next key. A key pressed before
    // that timer ran is not seen at all (nothing moves, nothing is announced): press it again.
    for (let attempt = 1; ; attempt++) {
      await page.keyboard.press(key);
      const moved = await expect
        .poll(() => live.textContent(), { timeout: 2_000, interval: 100 })
        .not.toBe(before)
        .then(
          () => true,
          (error: unknown) => {
            if (attempt === 3) throw error;
            return false;
          },
        );
      if (moved) break;
    }
  }
  await page.keyboard.press("Space");
  await expect.poll(() => live.textContent(), POLL).toContain("was dropped");
  // What a screen reader heard last (positions, not internal ids).
  return live.textContent();
}

/** The open message dialog titled `title`. */
export const dialogNamed = (page: Page, title: string) =>
  page.locator("dialog.message-dialog[open]").filter({
    has: page.locator("h2", { hasText: new RegExp(`^${escapeRegExp(title)}$`) }),
  });

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Waits for a success dialog and returns how long (ms) it stayed before closing by itself. */
export async function successDialogDuration(page: Page, title: string, maxMs = 8_000) {
  const dialog = dialogNamed(page, title);
  await dialog.waitFor({ timeout: POLL.timeout });
  const shownAt = Date.now();
  expect(await dialog.evaluate((el) => el.matches(":modal"))).toBe(true);
  expect(await dialog.locator("footer").count()).toBe(0);
  await dialog.waitFor({ state: "detached", timeout: maxMs });
  return Date.now() - shownAt;
}

/** Waits for a success dialog that stays until answered, and answers it with OK. */
export async function acknowledgeSuccess(page: Page, title: string) {
  const dialog = dialogNamed(page, title);
  await dialog.waitFor({ timeout: POLL.timeout });
  expect(await dialog.evaluate((el) => el.matches(":modal"))).toBe(true);
  await dialog.getByRole("button", { name: "OK" }).click();
  await dialog.waitFor({ state: "detached", timeout: POLL.timeout });
}

/** Checks an error dialog's title, text and the catalogue footer, then closes it with OK. */
export async function expectErrorDialog(page: Page, title: string, text: string) {
  const dialog = dialogNamed(page, title);
  await dialog.waitFor({ timeout: POLL.timeout });
  expect(await dialog.getAttribute("data-variant")).toBe("error");
  expect(await dialog.locator("p").textContent()).toBe(text);
  expect(await dialog.locator("footer").textContent()).toBe(errorFooter());
  expect(await dialog.locator("footer").textContent()).toBe(
    "If the problem persists, show this message to Daniel Reyes.",
  );
  await dialog.getByRole("button", { name: "OK" }).click();
  await dialog.waitFor({ state: "detached", timeout: POLL.timeout });
}

/** Answers the 'Are you sure?' dialog with Yes or Cancel. */
export async function answerConfirm(page: Page, answer: "Yes" | "Cancel") {
  const dialog = dialogNamed(page, "Are you sure?");
  await dialog.waitFor({ timeout: POLL.timeout });
  expect(await dialog.evaluate((el) => el.matches(":modal"))).toBe(true);
  await dialog.getByRole("button", { name: answer, exact: true }).click();
  await dialog.waitFor({ state: "detached", timeout: POLL.timeout });
}

/** "{w}x{h}" of a stored photo, fetched over HTTP like a browser. */
export async function storedSize(url: string) {
  const res = await fetch(new URL(url, baseURL()));
  expect(res.status, url).toBe(200);
  const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
  expect(meta.format, url).toBe("jpeg");
  return `${meta.width}x${meta.height}`;
}

export async function httpStatus(url: string) {
  const res = await fetch(new URL(url, baseURL()));
  await res.arrayBuffer();
  return res.status;
}

/** The folder holding a listing's photos in the test server's data directory. */
export function imageFolder(collection: Collection, id: string) {
  return path.join(inject("dataDir"), "images", collection, encodeURIComponent(id));
}

export async function folderExists(folder: string) {
  return fs
    .stat(folder)
    .then(() => true)
    .catch(() => false);
}

export interface StoredListing {
  id: string;
  address: string;
  bedrooms: number | null;
  bathrooms: number | null;
  description: string;
  image_urls: string[];
  thumbnail_image_url: string | null;
  thumbnail_description: string;
  property_type: string;
  currently_available: boolean | null;
  price: string | null;
  reserve_url: string | null;
}

/** The stored record (or undefined), every field the forms touch. */
export async function storedListing(collection: Collection, id: string) {
  const rows = await sql<StoredListing>(
    `SELECT id, address, bedrooms, bathrooms, description, image_urls, thumbnail_image_url,
            thumbnail_description, property_type, currently_available, price, reserve_url
     FROM listings WHERE collection = $1 AND id = $2`,
    [collection, id],
  );
  return rows[0];
}

/** Opens a page and waits until its live stream is connected, so no change can slip past it. */
export async function openLive(page: Page, url: string) {
  const stream = page.waitForResponse((r) => new URL(r.url()).pathname === "/live");
  await gotoHydrated(page, url);
  expect((await stream).status()).toBe(200);
  await page.evaluate(() => {
    (window as unknown as { __marker: string }).__marker = "still-here";
  });
}

/** True while the page is the same document openLive marked (no reload happened). */
export const notReloaded = (page: Page) =>
  page.evaluate(() => (window as unknown as { __marker?: string }).__marker === "still-here");

export const cardTitles = (page: Page) => texts(page, "ul.card-grid li.card .card-title");
export const card = (page: Page, address: string) =>
  page.locator("li.card").filter({
    has: page.locator(".card-title", { hasText: new RegExp(`^${escapeRegExp(address)}$`) }),
  });

/** A form control by its exact label. */
export const field = (scope: Page | Locator, label: string) =>
  scope.getByLabel(label, { exact: true });
