// Two staff editing one listing: the second, stale save is refused with a clear dialog instead
// of overwriting; one editor's own photo changes never make their own save stale.
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorFooter } from "~/domain/company";
import { listingPath } from "~/domain/listing-kinds";
import { addedMessages, messages, successTitles } from "~/domain/messages";
import {
  acknowledgeSuccess,
  answerConfirm,
  asFiles,
  dialogNamed,
  field,
  keyboardMove,
  storedListing,
  storedSize,
  testImages,
  tileSizes,
  tiles,
} from "./admin-helpers";
import { newUser, removeAdmin, signedInPage } from "./auth-fixtures";
import { sql, useBrowser } from "./fixtures";
import { deleteRow, gotoHydrated, insertRow, POLL, uniqueSuffix } from "./helpers";

describe("stale edits", () => {
  const b = useBrowser();
  const first = newUser("stale-first", "Fran First");
  const second = newUser("stale-second", "Sam Second");
  const s = uniqueSuffix();
  const house = { id: `e2e-stale-${s}-house`, address: `E2E ${s} Stale House` };
  const build = { id: `e2e-stale-${s}-build`, address: `E2E ${s} Stale Build` };
  let images: Awaited<ReturnType<typeof testImages>>;
  let a: { context: BrowserContext; page: Page };
  let bb: { context: BrowserContext; page: Page };

  beforeAll(async () => {
    images = await testImages();
    const viewport = { viewport: { width: 1280, height: 900 } };
    a = await signedInPage(() => b.newPage(viewport), first, { admin: true });
    bb = await signedInPage(() => b.newPage(viewport), second, { admin: true });
    for (const ctx of [a, bb]) ctx.context.setDefaultTimeout(10_000);
    await insertRow(house.id, { address: house.address, description: "As listed", price: "1800" });
    await insertRow(build.id, {
      address: build.address,
      collection: "newConstruction",
      description: "As listed",
    });
  });

  afterAll(async () => {
    await a?.context.close();
    await bb?.context.close();
    await deleteRow("properties", house.id);
    await deleteRow("newConstruction", build.id);
    await removeAdmin(first.email);
    await removeAdmin(second.email);
  });

  /** The open error dialog's text and footer, once it is there. */
  async function expectStaleDialog(page: Page, text: string) {
    const dialog = dialogNamed(page, messages.errorTitle);
    await dialog.waitFor({ timeout: POLL.timeout });
    await expect.poll(() => dialog.getAttribute("data-variant"), POLL).toBe("error");
    await expect.poll(() => dialog.locator("p").textContent(), POLL).toBe(text);
    await expect.poll(() => dialog.locator("footer").textContent(), POLL).toBe(errorFooter());
    await dialog.getByRole("button", { name: "OK" }).click();
    await dialog.waitFor({ state: "detached", timeout: POLL.timeout });
  }

  it("two staff open one property; the second save is refused with the stale dialog and keeps the first", async () => {
    await gotoHydrated(a.page, `/editproperties/${house.id}`);
    await gotoHydrated(bb.page, `/editproperties/${house.id}`);

    await field(a.page, "Description").fill("Fran's words");
    await a.page.getByRole("button", { name: "Save" }).click();
    await dialogNamed(a.page, successTitles.saved).waitFor({ timeout: POLL.timeout });
    await a.page.waitForURL((url) => url.pathname === listingPath("properties", house.id));
    await expect
      .poll(async () => (await storedListing("properties", house.id))?.description, POLL)
      .toBe("Fran's words");

    await field(bb.page, "Description").fill("Sam's words");
    await bb.page.getByRole("button", { name: "Save" }).click();
    await expectStaleDialog(
      bb.page,
      "This property was changed by someone else since you opened it. Reload to see the changes.",
    );
    expect(addedMessages.staleEdit("Property")).toBe(
      "This property was changed by someone else since you opened it. Reload to see the changes.",
    );
    // Nothing overwritten; the second editor's typing is still in the form.
    await expect
      .poll(async () => (await storedListing("properties", house.id))?.description, POLL)
      .toBe("Fran's words");
    await expect
      .poll(() => new URL(bb.page.url()).pathname, POLL)
      .toBe(`/editproperties/${house.id}`);
    await expect.poll(() => field(bb.page, "Description").inputValue(), POLL).toBe("Sam's words");
    await expect
      .poll(() => bb.page.getByRole("button", { name: "Save" }).isEnabled(), POLL)
      .toBe(true);
  });

  it("one editor uploading, removing and reordering photos, then saving, is never refused", async () => {
    await gotoHydrated(bb.page, `/editproperties/${house.id}`);
    await expect.poll(() => field(bb.page, "Description").inputValue(), POLL).toBe("Fran's words");

    await field(bb.page, "Add Images").setInputFiles(asFiles([images.red, images.blue]));
    await acknowledgeSuccess(bb.page, successTitles.uploaded);
    await expect.poll(() => tiles(bb.page).count(), POLL).toBe(2);
    await tiles(bb.page).first().getByRole("button", { name: "Remove" }).click();
    await answerConfirm(bb.page, "Yes");
    await acknowledgeSuccess(bb.page, successTitles.removed);
    await expect.poll(() => tiles(bb.page).count(), POLL).toBe(1);
    await field(bb.page, "Add Images").setInputFiles(asFiles([images.yellow]));
    await acknowledgeSuccess(bb.page, successTitles.uploaded);
    await expect.poll(() => tiles(bb.page).count(), POLL).toBe(2);
    await expect
      .poll(() => tileSizes(bb.page), POLL)
      .toEqual([images.blue.size, images.yellow.size]);
    await keyboardMove(bb.page, 1, "ArrowLeft");
    await expect
      .poll(() => tileSizes(bb.page), POLL)
      .toEqual([images.yellow.size, images.blue.size]);

    await field(bb.page, "Description").fill("Sam's words, after a reload");
    await bb.page.getByRole("button", { name: "Save" }).click();
    await dialogNamed(bb.page, successTitles.saved).waitFor({ timeout: POLL.timeout });
    await bb.page.waitForURL((url) => url.pathname === listingPath("properties", house.id));
    await expect
      .poll(async () => (await storedListing("properties", house.id))?.description, POLL)
      .toBe("Sam's words, after a reload");
    await expect
      .poll(async () => {
        const stored = await storedListing("properties", house.id);
        return Promise.all((stored?.image_urls ?? []).map(storedSize));
      }, POLL)
      .toEqual([images.yellow.size, images.blue.size]);
  });

  it("a construction changed by someone else meanwhile: 'This construction was changed …'", async () => {
    await gotoHydrated(a.page, `/edit-construction/${build.id}`);
    // A colleague's change from elsewhere (here: straight in the database).
    await sql(
      "UPDATE listings SET description = 'Changed elsewhere' WHERE collection = 'newConstruction' AND id = $1",
      [build.id],
    );
    await field(a.page, "Description").fill("Fran's construction words");
    await a.page.getByRole("button", { name: "Save" }).click();
    await expectStaleDialog(
      a.page,
      "This construction was changed by someone else since you opened it. Reload to see the changes.",
    );
    await expect
      .poll(async () => (await storedListing("newConstruction", build.id))?.description, POLL)
      .toBe("Changed elsewhere");
  });
});
