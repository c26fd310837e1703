// Unknown records and unknown paths (docs/behaviour.md §2 construction detail, §8 'Detail: no record for id').
import type { Page } from "@playwright/test";
import { company, errorFooter } from "~/domain/company";
import { COLLECTIONS, KINDS } from "~/domain/listing-kinds";
import { messages } from "~/domain/messages";
import { expect, test } from "./fixtures";
import { exactly, fetchHtml, gotoHydrated, heading } from "./helpers";

const isModal = (page: Page) =>
  page.evaluate(() => document.querySelector("dialog")?.matches(":modal") ?? false);

/** Waits for the dialog to turn modal, then lets queued events run (none may close it). */
async function waitForStableModal(page: Page) {
  await expect.poll(() => isModal(page)).toBe(true);
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
}

test.describe("unknown records and pages", () => {
  for (const collection of COLLECTIONS) {
    const path = `${KINDS[collection].route}/does-not-exist`;

    test(`${path}: 404, 'Error' dialog, OK goes to /properties`, async ({ page }) => {
      const raw = await fetchHtml(path);
      expect(raw.status).toBe(404);
      // Readable before JavaScript: the dialog is server-rendered open.
      expect(raw.html).toContain(messages.noData);

      const res = await gotoHydrated(page, path);
      expect(res?.status()).toBe(404);
      const dialog = page.getByRole("dialog", { name: "Error" });
      await expect(dialog.locator("h2")).toHaveText(exactly(messages.errorTitle));
      await expect(dialog.locator("p")).toHaveText(exactly("No property data available"));
      await expect(dialog.locator("footer")).toHaveText(
        exactly(`If the problem persists, show this message to ${company.errorContactName}.`),
      );
      expect(errorFooter()).toBe(
        `If the problem persists, show this message to ${company.errorContactName}.`,
      );
      // It becomes a real modal (focus trapped, page behind inert) and stays until answered.
      await waitForStableModal(page);
      await expect(page).toHaveURL((url) => url.pathname === path);
      await expect.poll(() => dialog.evaluate((el) => el.matches(":modal"))).toBe(true);

      await dialog.getByRole("button", { name: "OK" }).click();
      await expect(page).toHaveURL((url) => url.pathname === "/properties" && url.search === "");
      await expect(heading(page)).toHaveText(exactly(KINDS.properties.listTitle));
      await expect(page.getByRole("dialog")).toHaveCount(0);
    });
  }

  test("Escape closes the dialog and also goes to /properties", async ({ page }) => {
    await gotoHydrated(page, "/properties/does-not-exist");
    await page.getByRole("dialog", { name: "Error" }).waitFor();
    await waitForStableModal(page);
    await expect(page).toHaveURL((url) => url.pathname === "/properties/does-not-exist");
    await page.keyboard.press("Escape");
    await expect(page).toHaveURL((url) => url.pathname === "/properties");
  });

  test("an unknown path answers 404 with a 'Page not found' page", async ({ page }) => {
    const raw = await fetchHtml("/no-such-page");
    expect(raw.status).toBe(404);
    expect(raw.html).toContain("<h1>Page not found</h1>");

    const res = await gotoHydrated(page, "/no-such-page");
    expect(res?.status()).toBe(404);
    await expect(heading(page)).toHaveText(exactly("Page not found"));
    await expect(page).toHaveTitle(exactly(`Page not found | ${company.name}`));
    // The navbar is still there, and the page offers a way on.
    await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(1);
    await page.getByRole("link", { name: "Browse properties" }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/properties");
    await expect(heading(page)).toHaveText(exactly(KINDS.properties.listTitle));
  });

  test("deeper unknown paths are 404 too", async () => {
    for (const path of ["/properties/a/b", "/about/x"]) {
      const raw = await fetchHtml(path);
      expect(raw.status, path).toBe(404);
      expect(raw.html).toContain("Page not found");
    }
  });
});
