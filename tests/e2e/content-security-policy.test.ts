// Every public and admin page, the lightbox, the admin forms' photo previews, the dialogs and
// the sign-in popup run under the strict Content-Security-Policy (docs/decisions/0029) without a
// single violation reported by Chromium.
import type { BrowserContext, Page } from "@playwright/test";
import { company } from "~/domain/company";
import { listingPath } from "~/domain/listing-kinds";
import { asFiles, field, testImages, tiles } from "./admin-helpers";
import { newUser } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { demoListing, gotoHydrated, lightboxReady, uniqueSuffix } from "./helpers";

/** Collects every violation any page of the context reports (event and console message). */
async function recordViolations(context: BrowserContext) {
  const seen: string[] = [];
  await context.exposeBinding("__cspViolation", ({ page }, text: string) => {
    seen.push(`${page.url()}: ${text}`);
  });
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = (window as unknown as { __cspViolation: (t: string) => void }).__cspViolation;
      report(
        `${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`,
      );
    });
  });
  context.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.push(`console: ${message.text()}`);
  });
  return seen;
}

async function featuredPath(index: number) {
  const listing = await demoListing(company.featuredAddresses[index] as string);
  return listingPath(listing.collection, listing.id);
}

async function visit(page: Page, path: string) {
  await gotoHydrated(page, path, "load");
}

test("the recorder sees a violation: a script injected into the page, its hash not listed, is blocked", async ({
  page,
}) => {
  const seen = await recordViolations(page.context());
  // The server's own page and headers, with an inline script slipped in (as an injection would).
  await page.route("**/about", async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(
      "<body>",
      "<body><script>window.__ran = true;</script>",
    );
    await route.fulfill({ response, body: html });
  });
  await visit(page, "/about");
  await expect.poll(() => seen.length).toBeGreaterThan(0);
  expect(seen[0]).toContain("script-src");
  expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran)).toBeFalsy();
});

test("public pages, error pages and the lightbox report no violation", async ({ page }) => {
  const seen = await recordViolations(page.context());
  for (const path of [
    "/",
    "/properties",
    "/properties?filter=available",
    "/new-construction",
    "/about",
    "/contact",
    "/rental-application",
    "/rental-application?address=3233%204th%20Street%20N",
    await featuredPath(2),
    "/no-such-page",
    "/properties/does-not-exist",
  ]) {
    await visit(page, path);
  }
  await visit(page, await featuredPath(0));
  await page.getByTestId("gallery").locator("button").first().click();
  await expect(page.getByRole("dialog", { name: "Lightbox" })).toBeVisible();
  await lightboxReady(page);
  await page.getByRole("button", { name: "Next image" }).click();
  await page.getByRole("button", { name: "Close lightbox" }).click();
  // A client-side navigation loads route code on demand.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About" }).click();
  await expect(page).toHaveURL(/\/about$/);
  expect(seen).toEqual([]);
});

test("the sign-in popup and every admin page, form preview and dialog report no violation", async ({
  newPage,
  signIn,
  seedListing,
}) => {
  const page = await newPage({ viewport: { width: 1280, height: 900 } });
  const seen = await recordViolations(page.context());
  await signIn(page, newUser("csp-admin", "Cass Admin"), { admin: true });
  const images = await testImages();
  const house = await seedListing("properties", { address: `E2E ${uniqueSuffix()} CSP House` });
  const build = await seedListing("newConstruction", {
    address: `E2E ${uniqueSuffix()} CSP Build`,
  });

  for (const route of ["/addproperty", "/addnewconstruction"]) {
    await visit(page, route);
    // Picked photos are previewed from blob: URLs.
    await field(page, "Images").setInputFiles(asFiles([images.red, images.blue]));
    await expect(tiles(page)).toHaveCount(2);
    await page.getByRole("button", { name: "Clear" }).click();
  }
  await visit(page, `/editproperties/${house.id}`);
  await page.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("button", { name: "Cancel", exact: true }).click();
  await visit(page, `/edit-construction/${build.id}`);
  await visit(page, "/admin/staff");
  await visit(page, listingPath("properties", house.id));
  await expect(page.getByRole("button", { name: "Toggle Availability" })).toBeVisible();
  expect(seen).toEqual([]);
});
