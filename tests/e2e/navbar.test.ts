// Navigation bar (docs/behaviour.md §2 Navigation bar, §9 logo width and xl breakpoint).
import type { Page } from "@playwright/test";
import { company } from "~/domain/company";
import { PUBLIC_NAV } from "~/features/layout/navbar";
import { expect, test } from "./fixtures";
import { exactly, gotoHydrated, heading, nav } from "./helpers";

const LABELS = ["Home", "Properties", "New Construction", "About", "Contact", "Rental Application"];
const ROUTES = [
  "/",
  "/properties",
  "/new-construction",
  "/about",
  "/contact",
  "/rental-application",
];

const navLink = (page: Page, label: string) =>
  nav(page).getByRole("link", { name: label, exact: true });
const toggle = (page: Page) => nav(page).getByRole("button", { name: "Toggle navigation" });

/** Each public link's visibility, in the spec's order. */
async function visibleLinks(page: Page) {
  const result: boolean[] = [];
  for (const label of LABELS) result.push(await navLink(page, label).isVisible());
  return result;
}
const all = (visible: boolean) => LABELS.map(() => visible);

test.describe("navbar", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("has the six public links to the spec's routes", async ({ page }) => {
    expect(PUBLIC_NAV.map((i) => i.label)).toEqual(LABELS);
    expect(PUBLIC_NAV.map((i) => i.to)).toEqual(ROUTES);
    await page.goto("/about");
    for (const [i, label] of LABELS.entries()) {
      await expect(navLink(page, label)).toHaveAttribute("href", ROUTES[i] as string);
    }
    // The current page is marked.
    await expect(navLink(page, "About")).toContainClass("active");
    await expect(navLink(page, "About")).toHaveAttribute("aria-current", "page");
    await expect(nav(page)).toHaveCSS("position", "sticky");
  });

  test.describe("at 390 px", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test("the links hide behind 'Toggle navigation' and close after a choice", async ({ page }) => {
      await gotoHydrated(page, "/");
      await expect(toggle(page)).toBeVisible();
      await expect(toggle(page)).toHaveAttribute("aria-expanded", "false");
      await expect.poll(() => visibleLinks(page)).toEqual(all(false));

      await toggle(page).click();
      await expect(toggle(page)).toHaveAttribute("aria-expanded", "true");
      await expect(toggle(page)).toHaveAttribute("aria-controls", /.+/);
      const controls = await toggle(page).getAttribute("aria-controls");
      await expect(page.locator(`[id="${controls}"]`)).toBeVisible();
      await expect.poll(() => visibleLinks(page)).toEqual(all(true));

      await navLink(page, "About").click();
      await expect(page).toHaveURL((url) => url.pathname === "/about");
      await expect(heading(page)).toHaveText(exactly("About Us"));
      await expect(toggle(page)).toHaveAttribute("aria-expanded", "false");
      await expect.poll(() => visibleLinks(page)).toEqual(all(false));

      // Open, then close with the toggle itself.
      await toggle(page).click();
      await expect(navLink(page, "Contact")).toBeVisible();
      await toggle(page).click();
      await expect(toggle(page)).toHaveAttribute("aria-expanded", "false");
      await expect(navLink(page, "Contact")).toBeHidden();

      // Choosing the logo closes an open menu as well.
      await toggle(page).click();
      await nav(page).getByRole("link", { name: company.logo.alt }).click();
      await expect(page).toHaveURL((url) => url.pathname === "/");
      await expect(toggle(page)).toHaveAttribute("aria-expanded", "false");
      await expect(navLink(page, "Home")).toBeHidden();
    });
  });

  test("at 1280 px the links are visible without the toggle; collapses below 1200 px (xl)", async ({
    page,
  }) => {
    await gotoHydrated(page, "/");
    await expect(toggle(page)).toBeHidden();
    await expect.poll(() => visibleLinks(page)).toEqual(all(true));
    await navLink(page, "Contact").click();
    await expect(page).toHaveURL((url) => url.pathname === "/contact");
    await expect(heading(page)).toHaveText(exactly("Contact Us"));
    await expect.poll(() => visibleLinks(page)).toEqual(all(true));

    await page.setViewportSize({ width: 1200, height: 800 });
    await expect(toggle(page)).toBeHidden();
    await expect(navLink(page, "Home")).toBeVisible();
    await page.setViewportSize({ width: 1199, height: 800 });
    await expect(toggle(page)).toBeVisible();
    await expect(navLink(page, "Home")).toBeHidden();
  });

  test("the logo links to / and is at most 80 px wide", async ({ page }) => {
    await gotoHydrated(page, "/contact");
    const brand = nav(page).getByRole("link", { name: company.logo.alt });
    await expect(brand).toHaveAttribute("href", "/");
    const logo = brand.locator("img");
    await expect(logo).toHaveAttribute("src", company.logo.src);
    await expect(logo).toHaveCSS("max-width", "80px");
    const width = async () => (await logo.boundingBox())?.width ?? 0;
    await expect.poll(width).toBeGreaterThan(0);
    await expect.poll(width).toBeLessThanOrEqual(80);
    await brand.click();
    await expect(page).toHaveURL((url) => url.pathname === "/");
  });
});
