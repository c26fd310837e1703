// /rental-application (spec §2): steps, the bundled fillable PDF and 'Return to {address}'.
import fs from "node:fs/promises";
import { PDFDocument, PDFName, PDFTextField } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import { listingPath } from "~/domain/listing-kinds";
import { baseURL, useBrowser } from "./fixtures";
import { dbListingByAddress, gotoHydrated, h1Text, POLL, texts } from "./helpers";

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

describe("/rental-application", () => {
  const b = useBrowser();

  it("shows 'How to Apply' with three steps and no return button without an address", async () => {
    const { context, page } = await b.newPage();
    await gotoHydrated(page, "/rental-application");
    expect(await h1Text(page)).toBe("How to Apply");
    const steps = await texts(page, "ol.steps > li");
    expect(steps).toHaveLength(3);
    for (const [i, step] of company.application.steps.entries()) {
      expect(steps[i]).toContain(step);
    }
    expect(steps[0]).toMatch(/download/i);
    expect(steps[1]).toContain("accurate information");
    expect(steps[2]).toContain("landlord or property manager");
    expect(await page.getByRole("button", { name: /^Return to/ }).count()).toBe(0);
    await context.close();
  });

  it("the PDF link serves a real, fillable PDF", async () => {
    const { context, page } = await b.newPage();
    await gotoHydrated(page, "/rental-application");
    const link = page.getByRole("link", { name: /Download the application/ });
    const href = (await link.getAttribute("href")) ?? "";
    expect(href).toMatch(/\.pdf$/);
    expect(await link.getAttribute("download")).not.toBeNull();

    const res = await fetch(new URL(href, baseURL()));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/pdf/);
    await expectFillablePdf(Buffer.from(await res.arrayBuffer()));

    // Clicking it in the browser downloads the same file.
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    await expectFillablePdf(await fs.readFile(await download.path()));
    await context.close();
  });

  it("'Return to {address}' goes back one step in history (from Apply Now)", async () => {
    const house = await dbListingByAddress(company.featuredAddresses[0] as string);
    const detailPath = listingPath("properties", house.id);
    const { context, page } = await b.newPage();
    await gotoHydrated(page, detailPath);
    await page.getByRole("link", { name: "Apply Now" }).click();
    await page.waitForURL((url) => url.pathname === "/rental-application");
    expect(new URL(page.url()).searchParams.get("address")).toBe(house.address);
    await expect.poll(() => h1Text(page), POLL).toBe("How to Apply");

    const back = page.getByRole("button", { name: `Return to ${house.address}` });
    expect(await back.textContent()).toBe("Return to 3233 4th Street N");
    await back.click();
    await page.waitForURL((url) => url.pathname === detailPath);
    expect(new URL(page.url()).search).toBe("");
    await expect.poll(() => h1Text(page), POLL).toBe(house.address);
    await context.close();
  });

  it("decodes the address parameter for the return button", async () => {
    const { context, page } = await b.newPage();
    await gotoHydrated(page, "/properties");
    const address = "12 Oak & Elm Court #3";
    await gotoHydrated(page, `/rental-application?address=${encodeURIComponent(address)}`);
    await page.getByRole("button", { name: `Return to ${address}` }).click();
    await page.waitForURL((url) => url.pathname === "/properties");
    await context.close();
  });
});
