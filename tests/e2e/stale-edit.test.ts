// Two staff editing one listing: the second, stale save is refused with a clear dialog instead
// of overwriting; one editor's own photo changes never make their own save stale.
import { listingPath } from "~/domain/listing-kinds";
import { addedMessages, messages, successTitles } from "~/domain/messages";
import {
  acknowledgeSuccess,
  answerConfirm,
  asFiles,
  dialogNamed,
  expectErrorDialog,
  field,
  keyboardMove,
  storedSize,
  testImages,
  tileSizes,
  tiles,
} from "./admin-helpers";
import { newUser } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { gotoHydrated, uniqueSuffix } from "./helpers";

test.use({ viewport: { width: 1280, height: 900 } });

test("two staff open one property; the second save is refused with the stale dialog and keeps the first", async ({
  adminPage: first,
  newPage,
  signIn,
  seedListing,
  control,
}) => {
  const house = await seedListing("properties", {
    address: `E2E ${uniqueSuffix()} Stale House`,
    description: "As listed",
    price: "1800",
  });
  const second = await newPage();
  await signIn(second, newUser("stale-second", "Sam Second"), { admin: true });
  await gotoHydrated(first, `/editproperties/${house.id}`);
  await gotoHydrated(second, `/editproperties/${house.id}`);

  await field(first, "Description").fill("Fran's words");
  await first.getByRole("button", { name: "Save" }).click();
  await expect(dialogNamed(first, successTitles.saved)).toBeVisible();
  await expect(first).toHaveURL((url) => url.pathname === listingPath("properties", house.id));
  await expect
    .poll(async () => (await control.getListing("properties", house.id))?.description)
    .toBe("Fran's words");

  await field(second, "Description").fill("Sam's words");
  await second.getByRole("button", { name: "Save" }).click();
  expect(addedMessages.staleEdit("Property")).toBe(
    "This property was changed by someone else since you opened it. Reload to see the changes.",
  );
  await expectErrorDialog(second, messages.errorTitle, addedMessages.staleEdit("Property"));
  // Nothing overwritten; the second editor's typing is still in the form, ready to save again.
  expect((await control.getListing("properties", house.id))?.description).toBe("Fran's words");
  await expect(second).toHaveURL((url) => url.pathname === `/editproperties/${house.id}`);
  await expect(field(second, "Description")).toHaveValue("Sam's words");
  await expect(second.getByRole("button", { name: "Save" })).toBeEnabled();
});

test("one editor uploading, removing and reordering photos, then saving, is never refused", async ({
  adminPage: page,
  seedListing,
  control,
}) => {
  const images = await testImages();
  const house = await seedListing("properties", {
    address: `E2E ${uniqueSuffix()} Own Changes`,
    description: "As listed",
  });
  await gotoHydrated(page, `/editproperties/${house.id}`);
  await expect(field(page, "Description")).toHaveValue("As listed");

  await field(page, "Add Images").setInputFiles(asFiles([images.red, images.blue]));
  await acknowledgeSuccess(page, successTitles.uploaded);
  await expect(tiles(page)).toHaveCount(2);
  await tiles(page).first().getByRole("button", { name: "Remove" }).click();
  await answerConfirm(page, "Yes");
  await acknowledgeSuccess(page, successTitles.removed);
  await expect(tiles(page)).toHaveCount(1);
  await field(page, "Add Images").setInputFiles(asFiles([images.yellow]));
  await acknowledgeSuccess(page, successTitles.uploaded);
  await expect.poll(() => tileSizes(page)).toEqual([images.blue.size, images.yellow.size]);
  await keyboardMove(page, 1, "ArrowLeft");
  await expect.poll(() => tileSizes(page)).toEqual([images.yellow.size, images.blue.size]);

  await field(page, "Description").fill("Words after my own photo changes");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(dialogNamed(page, successTitles.saved)).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === listingPath("properties", house.id));
  await expect
    .poll(async () => (await control.getListing("properties", house.id))?.description)
    .toBe("Words after my own photo changes");
  const stored = await control.getListing("properties", house.id);
  expect(await Promise.all((stored?.image_urls ?? []).map(storedSize))).toEqual([
    images.yellow.size,
    images.blue.size,
  ]);
});

test("a construction changed by someone else meanwhile: 'This construction was changed …'", async ({
  adminPage: page,
  seedListing,
  control,
}) => {
  const build = await seedListing("newConstruction", {
    address: `E2E ${uniqueSuffix()} Stale Build`,
    description: "As listed",
  });
  await gotoHydrated(page, `/edit-construction/${build.id}`);
  await expect(field(page, "Description")).toHaveValue("As listed");
  // A colleague's save, made meanwhile through the app's own update.
  await control.updateListing("newConstruction", build.id, { description: "Changed elsewhere" });
  await field(page, "Description").fill("My construction words");
  await page.getByRole("button", { name: "Save" }).click();
  expect(addedMessages.staleEdit("Construction")).toBe(
    "This construction was changed by someone else since you opened it. Reload to see the changes.",
  );
  await expectErrorDialog(page, messages.errorTitle, addedMessages.staleEdit("Construction"));
  expect((await control.getListing("newConstruction", build.id))?.description).toBe(
    "Changed elsewhere",
  );
});
