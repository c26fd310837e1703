// /rental-application (docs/behaviour.md §2): steps, the bundled fillable PDF and 'Return to {address}'.
import fs from "node:fs/promises";
import { PDFDocument, PDFName, PDFTextField } from "pdf-lib";
import { company } from "~/domain/company";
import { listingPath } from "~/domain/listing-kinds";
import { expect, test } from "./fixtures";
import { demoListing, exactly, gotoHydrated, heading } from "./helpers";
import { siteURL } from "./server-info";

/** A real PDF with an interactive form (AcroForm) that has fields to fill in. */
async function expectFillablePdf(bytes: Buffer) {
  expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  expect(bytes.toString("latin1").trimEnd().endsWith("%%EOF")).toBe(true);
  const pdf = await PDFDocument.load(bytes);
  // The catalog may sit in a compressed object stream, so look it up rather than grep for it.
  expect(pdf.catalog.has(PDFName.of("AcroForm"))).toBe(true);
  const fields = pdf.getForm().getFields();
  expect(fields.length).toBeGreaterThan(5);
  expect(fields.every((f) => f instanceof PDFTextField)).toBe(true);
  expect(pdf.getPageCount()).toBeGreaterThan(0);
}

test.describe("/rental-application", () => {
  test("shows 'How to Apply' with three steps and no return button without an address", async ({
    page,
  }) => {
    await gotoHydrated(page, "/rental-application");
    await expect(heading(page)).toHaveText(exactly("How to Apply"));
    const steps = page.locator("ol.steps > li");
    await expect(steps).toHaveCount(3);
    for (const [i, step] of company.application.steps.entries()) {
      await expect(steps.nth(i)).toContainText(step);
    }
    await expect(steps.nth(0)).toHaveText(/download/i);
    await expect(steps.nth(1)).toContainText("accurate information");
    await expect(steps.nth(2)).toContainText("landlord or property manager");
    await expect(page.getByRole("button", { name: /^Return to/ })).toHaveCount(0);
  });

  test("the PDF link serves a real, fillable PDF", async ({ page }) => {
    await gotoHydrated(page, "/rental-application");
    const link = page.getByRole("link", { name: /Download the application/ });
    await expect(link).toHaveAttribute("href", /\.pdf$/);
    await expect(link).toHaveAttribute("download");
    const href = (await link.getAttribute("href")) ?? "";

    const res = await fetch(siteURL(href));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/pdf/);
    await expectFillablePdf(Buffer.from(await res.arrayBuffer()));

    // Clicking it in the browser downloads the same file.
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    await expectFillablePdf(await fs.readFile(await download.path()));
  });

  test("'Return to {address}' goes back one step in history (from Apply Now)", async ({ page }) => {
    const house = await demoListing(company.featuredAddresses[0] as string);
    const detailPath = listingPath("properties", house.id);
    await gotoHydrated(page, detailPath);
    await page.getByRole("link", { name: "Apply Now" }).click();
    await expect(page).toHaveURL(
      (url) =>
        url.pathname === "/rental-application" && url.searchParams.get("address") === house.address,
    );
    await expect(heading(page)).toHaveText(exactly("How to Apply"));

    const back = page.getByRole("button", { name: `Return to ${house.address}` });
    await expect(back).toHaveText(exactly("Return to 3233 4th Street N"));
    await back.click();
    await expect(page).toHaveURL((url) => url.pathname === detailPath && url.search === "");
    await expect(heading(page)).toHaveText(exactly(house.address));
  });

  test("decodes the address parameter for the return button", async ({ page }) => {
    await gotoHydrated(page, "/properties");
    const address = "12 Oak & Elm Court #3";
    await gotoHydrated(page, `/rental-application?address=${encodeURIComponent(address)}`);
    await page.getByRole("button", { name: `Return to ${address}` }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/properties");
  });
});
