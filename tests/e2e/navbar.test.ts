// Navigation bar (spec §2 Navigation bar, §9 logo width and xl breakpoint).
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import { PUBLIC_NAV } from "~/features/layout/navbar";
import { useBrowser } from "./fixtures";
import { gotoHydrated, h1Text, POLL } from "./helpers";

const LABELS = ["Home", "Properties", "New Construction", "About", "Contact", "Rental Application"];
const ROUTES = [
  "/",
  "/properties",
  "/new-construction",
  "/about",
  "/contact",
  "/rental-application",
];

const nav = (page: Page) => page.getByRole("navigation", { name: "Main" });
const navLink = (page: Page, label: string) =>
  nav(page).getByRole("link", { name: label, exact: true });
const toggle = (page: Page) => nav(page).getByRole("button", { name: "Toggle navigation" });

async function visibleLinks(page: Page) {
  const result: boolean[] = [];
  for (const label of LABELS) result.push(await navLink(page, label).isVisible());
  return result;
}

describe("navbar", () => {
  const b = useBrowser();

  it("has the six public links to the spec's routes", async () => {
    expect(PUBLIC_NAV.map((i) => i.label)).toEqual(LABELS);
    expect(PUBLIC_NAV.map((i) => i.to)).toEqual(ROUTES);
    const { context, page } = await b.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto("/about");
    for (const [i, label] of LABELS.entries()) {
      expect(await navLink(page, label).getAttribute("href")).toBe(ROUTES[i]);
    }
    // The current page is marked.
    expect(await navLink(page, "About").getAttribute("class")).toContain("active");
    expect(await navLink(page, "About").getAttribute("aria-current")).toBe("page");
    expect(await nav(page).evaluate((el) => getComputedStyle(el).position)).toBe("sticky");
    await context.close();
  });

  it("at 390 px the links hide behind 'Toggle navigation' and close after a choice", async () => {
    const { context, page } = await b.newPage({ viewport: { width: 390, height: 844 } });
    await gotoHydrated(page, "/");
    expect(await toggle(page).isVisible()).toBe(true);
    expect(await toggle(page).getAttribute("aria-expanded")).toBe("false");
    expect(await visibleLinks(page)).toEqual(LABELS.map(() => false));

    await toggle(page).click();
    expect(await toggle(page).getAttribute("aria-expanded")).toBe("true");
    const controls = await toggle(page).getAttribute("aria-controls");
    expect(controls).toBeTruthy();
    expect(await page.locator(`[id="${controls}"]`).isVisible()).toBe(true);
    await expect.poll(() => visibleLinks(page), POLL).toEqual(LABELS.map(() => true));

    await navLink(page, "About").click();
    await page.waitForURL((url) => url.pathname === "/about");
    await expect.poll(() => h1Text(page), POLL).toBe("About Us");
    expect(await toggle(page).getAttribute("aria-expanded")).toBe("false");
    expect(await visibleLinks(page)).toEqual(LABELS.map(() => false));

    // Open, then close with the toggle itself.
    await toggle(page).click();
    await expect.poll(() => navLink(page, "Contact").isVisible(), POLL).toBe(true);
    await toggle(page).click();
    expect(await toggle(page).getAttribute("aria-expanded")).toBe("false");
    expect(await navLink(page, "Contact").isVisible()).toBe(false);

    // Choosing the logo closes an open menu as well.
    await toggle(page).click();
    await nav(page).getByRole("link", { name: company.logo.alt }).click();
    await page.waitForURL((url) => url.pathname === "/");
    expect(await toggle(page).getAttribute("aria-expanded")).toBe("false");
    expect(await navLink(page, "Home").isVisible()).toBe(false);
    await context.close();
  });

  it("at 1280 px the links are visible without the toggle; collapses below 1200 px (xl)", async () => {
    const { context, page } = await b.newPage({ viewport: { width: 1280, height: 800 } });
    await gotoHydrated(page, "/");
    expect(await toggle(page).isVisible()).toBe(false);
    expect(await visibleLinks(page)).toEqual(LABELS.map(() => true));
    await navLink(page, "Contact").click();
    await page.waitForURL((url) => url.pathname === "/contact");
    await expect.poll(() => h1Text(page), POLL).toBe("Contact Us");
    expect(await visibleLinks(page)).toEqual(LABELS.map(() => true));

    await page.setViewportSize({ width: 1200, height: 800 });
    expect(await toggle(page).isVisible()).toBe(false);
    expect(await navLink(page, "Home").isVisible()).toBe(true);
    await page.setViewportSize({ width: 1199, height: 800 });
    expect(await toggle(page).isVisible()).toBe(true);
    expect(await navLink(page, "Home").isVisible()).toBe(false);
    await context.close();
  });

  it("the logo links to / and is at most 80 px wide", async () => {
    const { context, page } = await b.newPage({ viewport: { width: 1280, height: 800 } });
    await gotoHydrated(page, "/contact");
    const brand = nav(page).getByRole("link", { name: company.logo.alt });
    expect(await brand.getAttribute("href")).toBe("/");
    const logo = brand.locator("img");
    expect(await logo.getAttribute("src")).toBe(company.logo.src);
    expect(await logo.evaluate((el) => getComputedStyle(el).maxWidth)).toBe("80px");
    const box = await logo.boundingBox();
    expect(box?.width).toBeGreaterThan(0);
    expect(box?.width).toBeLessThanOrEqual(80);
    await brand.click();
    await page.waitForURL((url) => url.pathname === "/");
    await context.close();
  });
});
