// Photo captions (docs/behaviour.md §20) as an admin: a 'Caption' per photo in the add and edit
// forms, following its photo through reordering; the detail page's alternative texts and the
// caption under the photo in the lightbox; axe on the form with captions.
import type { Page } from "@playwright/test";
import { listingKey } from "~/domain/listing";
import { listingPath } from "~/domain/listing-kinds";
import {
  asFiles,
  field,
  keyboardMove,
  successDialogDuration,
  testImages,
  tiles,
} from "./admin-helpers";
import { AXE_POLL, violations } from "./axe";
import { expect, test } from "./fixtures";
import { gotoHydrated, lightboxReady, uniqueSuffix } from "./helpers";

const caption = (page: Page, n: number) => field(tiles(page).nth(n), "Caption");
const galleryAlts = (page: Page) =>
  page
    .getByTestId("gallery")
    .locator("img")
    .evaluateAll((els) => els.map((el) => el.getAttribute("alt")));

test("captions are written in the forms, follow their photos and describe them", async ({
  adminPage: page,
  control,
}) => {
  const address = `${uniqueSuffix()} Caption Way`;
  const id = listingKey(address);
  try {
    await gotoHydrated(page, "/addproperty");
    await page.getByRole("button", { name: "Clear" }).click();
    await field(page, "Address").fill(address);
    const images = await testImages();
    await field(page, "Images").setInputFiles(asFiles([images.red, images.green]));
    await expect(tiles(page)).toHaveCount(2);
    await caption(page, 0).fill("Front porch");
    await expect.poll(() => violations(page), AXE_POLL).toEqual([]);
    // The captioned photo moves to second place; its caption goes with it.
    await keyboardMove(page, 0, "ArrowRight");
    await expect(caption(page, 0)).toHaveValue("");
    await expect(caption(page, 1)).toHaveValue("Front porch");
    await page.getByRole("button", { name: "Add Property", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${listingPath("properties", id)}$`), {
      timeout: 15_000,
    });
    await expect.poll(() => galleryAlts(page)).toEqual([`Photo 1 of ${address}`, "Front porch"]);

    // The lightbox: the caption as alternative text and under the photo; none without one.
    await page.getByTestId("gallery").locator("button").nth(1).click();
    const current = page.locator(".yarl__slide_current");
    await expect(current.locator("img").first()).toHaveAttribute("alt", "Front porch");
    await expect(current.locator(".lightbox-caption")).toHaveText("Front porch");
    await lightboxReady(page);
    await page.getByRole("button", { name: "Next image" }).click();
    await expect(current.locator("img").first()).toHaveAttribute("alt", `Photo 1 of ${address}`);
    await expect(current.locator(".lightbox-caption")).toHaveCount(0);
    await page.getByRole("button", { name: "Close lightbox" }).click();

    // Edit: caption the other photo, swap them, save.
    await gotoHydrated(page, `/editproperties/${id}`);
    await expect(caption(page, 1)).toHaveValue("Front porch");
    await caption(page, 0).fill("Garden");
    await keyboardMove(page, 1, "ArrowLeft");
    await expect(caption(page, 0)).toHaveValue("Front porch");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await successDialogDuration(page, "Saved!");
    await expect(page).toHaveURL(new RegExp(`${listingPath("properties", id)}$`));
    await expect.poll(() => galleryAlts(page)).toEqual(["Front porch", "Garden"]);
    const stored = await control.getListing("properties", id);
    expect(Object.values(stored?.image_captions ?? {}).sort()).toEqual(["Front porch", "Garden"]);
  } finally {
    await control.removeListing("properties", id);
  }
});
