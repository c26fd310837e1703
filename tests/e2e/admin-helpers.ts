// Building blocks of the admin journeys (add, reorder, dialogs, stored images). Not a test file.
import fs from "node:fs/promises";
import path from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";
import sharp from "sharp";
import { errorFooter } from "~/domain/company";
import type { Collection } from "~/domain/listing-kinds";
import { dialogOpenMs } from "./dialog-times";
import { exactly } from "./helpers";
import { serverInfo, siteURL } from "./server-info";

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
export type TestImages = Awaited<ReturnType<typeof testImages>>;

export const asFiles = (images: TestImage[]) =>
  images.map(({ name, mimeType, buffer }) => ({ name, mimeType, buffer }));

/** The sortable photo tiles of an add or edit form, in order. */
export const tiles = (page: Page) => page.getByTestId("sortable-image");
export const handles = (page: Page) => tiles(page).locator(".drag-handle");

/**
 * "{w}x{h}" of every tile's picture, in order; "loading" for one not loaded yet. Poll it
 * (`expect.poll(() => tileSizes(page)).toEqual(...)`): tiles come and go asynchronously.
 */
export function tileSizes(page: Page): Promise<string[]> {
  return tiles(page)
    .locator("img")
    .evaluateAll((els) =>
      els.map((el) => {
        const img = el as HTMLImageElement;
        return img.complete && img.naturalWidth > 0
          ? `${img.naturalWidth}x${img.naturalHeight}`
          : "loading";
      }),
    );
}

/** The drag-and-drop library's announcements for screen readers. */
export const liveRegion = (page: Page) => page.locator("[id^='DndLiveRegion']");

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
  await expect(liveRegion(page)).toContainText("was dropped");
  // After a pointer drag the library swallows clicks for a moment (so the drop is not also a
  // click); a person never clicks that fast. Wait until a probe click gets through again.
  await expect
    .poll(() =>
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
    )
    .toBe(true);
}

/**
 * Moves tile `from` with the keyboard only: focus its handle, Space picks it up, the arrow key
 * moves it `times` places, Space drops it. Afterwards the live region holds what a screen
 * reader heard last (assert on liveRegion(page)).
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
  const live = liveRegion(page);
  const idle = (await live.count()) > 0 ? await live.textContent() : null;
  await page.keyboard.press("Space");
  await expect(handle).toHaveAttribute("aria-pressed", "true");
  // The pick-up is announced ('Picked up photo…', at once replaced by where it is over).
  await expect(live).toHaveText(/^(Picked up photo|Photo \d+ is over position)/);
  if (idle) await expect(live).not.toHaveText(exactly(idle));
  // The keyboard sensor starts listening for arrows from a timer queued at the pick-up, before
  // the announcement rendered: one more turn of the page's task queue and it listens. A key lost
  // after that is a bug, so no key is pressed twice.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  for (let i = 0; i < times; i++) {
    const before = await live.textContent();
    await page.keyboard.press(key);
    // The library announces each move; wait for it before the next key.
    await expect(live).not.toHaveText(exactly(before ?? ""));
  }
  await page.keyboard.press("Space");
  await expect(live).toContainText("was dropped");
}

/** The open message dialog titled `title`. */
export const dialogNamed = (page: Page, title: string) =>
  page.locator("dialog.message-dialog[open]").filter({
    has: page.locator("h2", { hasText: exactly(title) }),
  });

const isModal = (dialog: Locator) => dialog.evaluate((el) => el.matches(":modal"));

/** Waits for a success dialog and returns how long (ms) it stayed before closing by itself. */
export async function successDialogDuration(page: Page, title: string, maxMs = 8_000) {
  const dialog = dialogNamed(page, title);
  await dialog.waitFor();
  const element = await dialog.elementHandle();
  await expect.poll(() => isModal(dialog)).toBe(true);
  await expect(dialog.locator("footer")).toHaveCount(0);
  await dialog.waitFor({ state: "detached", timeout: maxMs });
  // By the page's clock (dialog-times.ts): noticing it late would shorten the time measured here.
  if (!element) throw new Error(`the dialog '${title}' went away before it could be measured`);
  return dialogOpenMs(element);
}

/** Waits for a success dialog that stays until answered, and answers it with OK. */
export async function acknowledgeSuccess(page: Page, title: string) {
  const dialog = dialogNamed(page, title);
  await expect(dialog).toBeVisible();
  await expect.poll(() => isModal(dialog)).toBe(true);
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect(dialog).toHaveCount(0);
}

/** Checks an error dialog's title, text and the catalogue footer, then closes it with OK. */
export async function expectErrorDialog(
  page: Page,
  title: string,
  text: string,
  /** The failed request's id: 'Reference: {id}' below the footer (decisions 0034, 0058). */
  reference?: string,
) {
  const dialog = dialogNamed(page, title);
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute("data-variant", "error");
  await expect(dialog.locator("p")).toHaveText(exactly(text));
  expect(errorFooter()).toBe("If the problem persists, show this message to Daniel Reyes.");
  await expect(dialog.locator("footer")).toHaveText(exactly(errorFooter()));
  if (reference !== undefined) {
    await expect(dialog.locator(".dialog-reference")).toHaveText(
      exactly(`Reference: ${reference}`),
    );
  }
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect(dialog).toHaveCount(0);
}

/** Answers the 'Are you sure?' dialog with Yes or Cancel. */
export async function answerConfirm(page: Page, answer: "Yes" | "Cancel") {
  const dialog = dialogNamed(page, "Are you sure?");
  await expect(dialog).toBeVisible();
  await expect.poll(() => isModal(dialog)).toBe(true);
  await dialog.getByRole("button", { name: answer, exact: true }).click();
  await expect(dialog).toHaveCount(0);
}

/** "{w}x{h}" of a stored photo, fetched over HTTP like a browser. */
export async function storedSize(url: string) {
  const res = await fetch(siteURL(url));
  expect(res.status, url).toBe(200);
  const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
  expect(meta.format, url).toBe("jpeg");
  return `${meta.width}x${meta.height}`;
}

/** The folder holding a listing's photos in the test server's data directory. */
export function imageFolder(collection: Collection, id: string) {
  return path.join(serverInfo().dataDir, "images", collection, encodeURIComponent(id));
}

export async function folderExists(folder: string) {
  return fs
    .stat(folder)
    .then(() => true)
    .catch(() => false);
}

/** A form control by its exact label. */
export const field = (scope: Page | Locator, label: string) =>
  scope.getByLabel(label, { exact: true });
