// Unknown records and unknown paths (spec §2 construction detail, §8 'Detail: no record for id').
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { company, errorFooter } from "~/domain/company";
import { KINDS } from "~/domain/listing-kinds";
import { messages } from "~/domain/messages";
import { useBrowser } from "./fixtures";
import { fetchHtml, gotoHydrated, h1Text, POLL } from "./helpers";

/** Waits for the dialog to turn modal, then lets queued events run (none may close it). */
async function waitForStableModal(page: Page) {
  await page.waitForFunction(() => document.querySelector("dialog")?.matches(":modal"));
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
}

describe("unknown records and pages", () => {
  const b = useBrowser();

  for (const path of ["/properties/does-not-exist", "/new-construction/does-not-exist"]) {
    it(`${path}: 404, 'Error' dialog, OK goes to /properties`, async () => {
      const raw = await fetchHtml(path);
      expect(raw.status).toBe(404);
      // Readable before JavaScript: the dialog is server-rendered open.
      expect(raw.html).toContain(messages.noData);

      const { context, page } = await b.newPage();
      const res = await gotoHydrated(page, path);
      expect(res?.status()).toBe(404);
      const dialog = page.getByRole("dialog", { name: "Error" });
      await dialog.waitFor();
      expect(await dialog.locator("h2").textContent()).toBe(messages.errorTitle);
      expect(await dialog.locator("p").textContent()).toBe("No property data available");
      expect(await dialog.locator("footer").textContent()).toBe(
        `If the problem persists, show this message to ${company.errorContactName}.`,
      );
      expect(errorFooter()).toBe(
        `If the problem persists, show this message to ${company.errorContactName}.`,
      );
      // It becomes a real modal (focus trapped, page behind inert) and stays until answered.
      await waitForStableModal(page);
      expect(new URL(page.url()).pathname).toBe(path);
      expect(await dialog.evaluate((el) => el.matches(":modal"))).toBe(true);

      await dialog.getByRole("button", { name: "OK" }).click();
      await page.waitForURL((url) => url.pathname === "/properties" && url.search === "");
      await expect.poll(() => h1Text(page), POLL).toBe(KINDS.properties.listTitle);
      expect(await page.getByRole("dialog").count()).toBe(0);
      await context.close();
    });
  }

  it("Escape closes the dialog and also goes to /properties", async () => {
    const { context, page } = await b.newPage();
    await gotoHydrated(page, "/properties/does-not-exist");
    await page.getByRole("dialog", { name: "Error" }).waitFor();
    await waitForStableModal(page);
    expect(new URL(page.url()).pathname).toBe("/properties/does-not-exist");
    await page.keyboard.press("Escape");
    await page.waitForURL((url) => url.pathname === "/properties");
    await context.close();
  });

  it("an unknown path answers 404 with a 'Page not found' page", async () => {
    const raw = await fetchHtml("/no-such-page");
    expect(raw.status).toBe(404);
    expect(raw.html).toContain("<h1>Page not found</h1>");

    const { context, page } = await b.newPage();
    const res = await gotoHydrated(page, "/no-such-page");
    expect(res?.status()).toBe(404);
    expect(await h1Text(page)).toBe("Page not found");
    expect(await page.title()).toBe(`Page not found | ${company.name}`);
    // The navbar is still there, and the page offers a way on.
    expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(1);
    await page.getByRole("link", { name: "Browse properties" }).click();
    await page.waitForURL((url) => url.pathname === "/properties");
    await expect.poll(() => h1Text(page), POLL).toBe(KINDS.properties.listTitle);
    await context.close();
  });

  it("deeper unknown paths are 404 too", async () => {
    for (const path of ["/properties/a/b", "/about/x"]) {
      const raw = await fetchHtml(path);
      expect(raw.status, path).toBe(404);
      expect(raw.html).toContain("Page not found");
    }
  });
});
