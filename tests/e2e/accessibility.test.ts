// axe-core finds no violations on the public pages.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import { listingPath } from "~/domain/listing-kinds";
import { useBrowser } from "./fixtures";
import { dbListingByAddress, gotoHydrated, waitForAnimations } from "./helpers";

async function violations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => n.target.join(" ")),
  }));
}

describe("accessibility (axe)", () => {
  const b = useBrowser();
  const paths: Record<string, string> = {
    home: "/",
    about: "/about",
    contact: "/contact",
    properties: "/properties",
    "new construction": "/new-construction",
    "rental application": "/rental-application",
    "rental application with address": "/rental-application?address=3233%204th%20Street%20N",
    "not found": "/no-such-page",
    "unknown property (error dialog)": "/properties/does-not-exist",
  };

  beforeAll(async () => {
    const house = await dbListingByAddress(company.featuredAddresses[0] as string);
    const construction = await dbListingByAddress(company.featuredAddresses[2] as string);
    paths["property detail"] = listingPath("properties", house.id);
    paths["construction detail"] = listingPath("newConstruction", construction.id);
  });

  const names = [
    "home",
    "about",
    "contact",
    "properties",
    "new construction",
    "rental application",
    "rental application with address",
    "property detail",
    "construction detail",
    "not found",
    "unknown property (error dialog)",
  ];

  for (const name of names) {
    it(`${name} has no violations`, async () => {
      const path = paths[name] as string;
      const { context, page } = await b.newPage();
      await gotoHydrated(page, path, "load");
      await waitForAnimations(page);
      expect(await violations(page), path).toEqual([]);
      await context.close();
    });
  }

  it("the mobile navbar, opened, has no violations", async () => {
    const { context, page } = await b.newPage({ viewport: { width: 390, height: 844 } });
    await gotoHydrated(page, "/", "load");
    await page.getByRole("button", { name: "Toggle navigation" }).click();
    await waitForAnimations(page);
    expect(await violations(page)).toEqual([]);
    await context.close();
  });

  it("the open lightbox has no violations", async () => {
    const { context, page } = await b.newPage();
    await gotoHydrated(page, paths["property detail"] as string, "load");
    await page.getByTestId("gallery").locator("button").first().click();
    await page.getByRole("dialog", { name: "Lightbox" }).waitFor();
    await waitForAnimations(page);
    expect(await violations(page)).toEqual([]);
    await context.close();
  });
});
