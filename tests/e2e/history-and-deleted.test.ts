// Change history and Recently deleted (docs/behaviour.md §21, §22) as an admin, in a real
// browser: the 'History' link, entries newest first, 'Restore this version'; the spec's delete
// flow unchanged, then 'Restore' from /admin/deleted with the same id and photos, and the
// duplicate-address refusal; the 404 for everyone else; axe on both screens.
import type { Page } from "@playwright/test";
import { listingKey } from "~/domain/listing";
import { listingPath } from "~/domain/listing-kinds";
import { messages, successTitles } from "~/domain/messages";
import {
  acknowledgeSuccess,
  answerConfirm,
  dialogNamed,
  expectErrorDialog,
  field,
  successDialogDuration,
  testImages,
} from "./admin-helpers";
import { newUser, userMenuButton } from "./auth-helpers";
import { AXE_POLL, violations } from "./axe";
import { expect, test } from "./fixtures";
import { exactly, gotoHydrated, heading, httpStatus, nav, uniqueSuffix } from "./helpers";

const entries = (page: Page) => page.getByTestId("history-entry");
const adminBlock = (page: Page) => page.getByRole("region", { name: "Admin Features" });

test("history: every change listed newest first, and an earlier version restored", async ({
  adminPage: page,
  adminAccount,
  seedListing,
}) => {
  const listing = await seedListing("properties", {
    address: `${uniqueSuffix()} Ledger Lane`,
    price: "1000",
  });
  await gotoHydrated(page, listingPath("properties", listing.id));
  await adminBlock(page).getByRole("link", { name: "History" }).click();
  await expect(page).toHaveURL(new RegExp(`/properties/${listing.id}/history$`));
  await expect(heading(page)).toHaveText(exactly("History"));
  await expect(page.getByText("No changes have been recorded yet.")).toBeVisible();

  await gotoHydrated(page, `/editproperties/${listing.id}`);
  await field(page, "Price").fill("1500");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await successDialogDuration(page, successTitles.saved);

  await gotoHydrated(page, `${listingPath("properties", listing.id)}/history`);
  await expect(entries(page)).toHaveCount(2);
  await expect(entries(page).nth(0).locator("h2")).toContainText("Saved, ");
  await expect(entries(page).nth(0)).toContainText(
    `By ${adminAccount.user.name} (${adminAccount.user.email})`,
  );
  await expect(entries(page).nth(0).locator("li")).toHaveText(["Price: 1000 → 1500"]);
  await expect(entries(page).nth(1).locator("h2")).toContainText(
    "State before the first recorded change",
  );
  await expect.poll(() => violations(page), AXE_POLL).toEqual([]);

  await entries(page).nth(1).getByRole("button", { name: "Restore this version" }).click();
  await answerConfirm(page, "Yes");
  await expect(page.getByRole("status").filter({ hasText: "is restored." })).toBeVisible();
  await expect(entries(page)).toHaveCount(3);
  await expect(entries(page).nth(0).locator("h2")).toContainText("An earlier version restored");
  await expect(entries(page).nth(0).locator("li")).toHaveText(["Price: 1500 → 1000"]);
  await gotoHydrated(page, listingPath("properties", listing.id));
  await expect(page.locator("article .detail-price")).toHaveText("$1,000");
});

test("a construction's history is at /new-construction/{id}/history", async ({
  adminPage: page,
  seedListing,
}) => {
  const listing = await seedListing("newConstruction", { address: `${uniqueSuffix()} Frame Row` });
  await gotoHydrated(page, listingPath("newConstruction", listing.id));
  await adminBlock(page).getByRole("link", { name: "History" }).click();
  await expect(page).toHaveURL(new RegExp(`/new-construction/${listing.id}/history$`));
  await expect(heading(page)).toHaveText(exactly("History"));
});

test("delete as the spec says, then 'Restore' from Recently deleted; a reused address is refused", async ({
  adminPage: page,
  adminAccount,
  control,
}) => {
  const address = `${uniqueSuffix()} Phoenix Street`;
  const id = listingKey(address);
  const { red } = await testImages();
  const add = (a: string) =>
    page.request.post("/api/listings/properties", {
      multipart: {
        data: JSON.stringify({ address: a }),
        images: { name: red.name, mimeType: red.mimeType, buffer: red.buffer },
      },
    });
  try {
    await gotoHydrated(page, "/");
    expect((await add(address)).status()).toBe(201);
    const photo = (await control.getListing("properties", id))?.image_urls[0] as string;

    // The spec's delete flow, unchanged.
    await gotoHydrated(page, `/editproperties/${id}`);
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await answerConfirm(page, "Yes");
    await acknowledgeSuccess(page, successTitles.deleted);
    await expect(page).toHaveURL(/\/properties$/);
    expect(await httpStatus(listingPath("properties", id))).toBe(404);
    expect(await httpStatus(photo)).toBe(404);

    // Recently deleted, from the user menu.
    await userMenuButton(page, adminAccount.user).click();
    await nav(page).getByRole("link", { name: "Recently deleted" }).click();
    await expect(heading(page)).toHaveText(exactly("Recently deleted"));
    const row = page.getByTestId("deleted-entry").filter({ hasText: address });
    await expect(row).toHaveCount(1);
    await expect.poll(() => violations(page), AXE_POLL).toEqual([]);
    await row.getByRole("button", { name: `Restore ${address}` }).click();
    const status = page.locator("main").getByRole("status");
    await expect(status).toContainText(`${address} is restored`);
    await expect(row).toHaveCount(0);
    await status.getByRole("link", { name: "see it" }).click();
    await expect(page).toHaveURL(new RegExp(`${listingPath("properties", id)}$`));
    await expect(heading(page)).toHaveText(exactly(address));
    expect(await httpStatus(photo)).toBe(200);

    // Deleted again, and the address taken meanwhile: the restore is refused.
    expect(await control.removeListing("properties", id)).toBe(true);
    expect((await add(address)).status()).toBe(201);
    await gotoHydrated(page, "/admin/deleted");
    await row.getByRole("button", { name: `Restore ${address}` }).click();
    await expectErrorDialog(page, messages.errorTitle, messages.duplicateAddress("Property"));
    await expect(row).toHaveCount(1);
  } finally {
    await control.removeListing("properties", id);
  }
});

test("a live reload while 'Deleted!' is open keeps the dialog, and OK goes to the list", async ({
  adminPage: page,
  control,
  seedListing,
}) => {
  // Any live reload (a lead arriving, the server listening again) ran the deleted listing's
  // edit loader again: its 404 replaced the page and the open dialog with 'Page not found'.
  const listing = await seedListing("properties", {
    address: `${uniqueSuffix()} Reload Road`,
    property_type: "Residential",
  });
  await gotoHydrated(page, `/editproperties/${listing.id}`);
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await answerConfirm(page, "Yes");
  const dialog = dialogNamed(page, successTitles.deleted);
  await expect(dialog).toBeVisible();
  // The reload: the admin's live stream asks the page to load its data again.
  const reloaded = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith(".data"));
  await control.resyncLive();
  await reloaded;
  await expect(heading(page)).toHaveText(exactly("Edit Property"));
  await acknowledgeSuccess(page, successTitles.deleted);
  await expect(page).toHaveURL(/\/properties$/);
});

test("history and Recently deleted are the ordinary 404 for others", async ({
  page,
  newPage,
  signIn,
  seedListing,
}) => {
  const listing = await seedListing("properties", { address: `${uniqueSuffix()} Private Way` });
  const paths = ["/admin/deleted", `${listingPath("properties", listing.id)}/history`];
  for (const path of paths) expect((await page.request.get(path)).status(), path).toBe(404);
  const member = await newPage();
  const user = newUser("history-member", "Hal Member");
  await signIn(member, user);
  for (const path of paths) {
    const res = await member.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(heading(member)).toHaveText(exactly("Page not found"));
  }
  await gotoHydrated(member, listingPath("properties", listing.id));
  await expect(member.getByRole("link", { name: "History" })).toHaveCount(0);
});
