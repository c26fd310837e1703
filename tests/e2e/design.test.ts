// The visual design's promises (issue 12; docs/decisions/0046-design-tokens-from-company-content.md):
// brand colours from the company's content, a legible company name in the navbar.
import { company } from "~/domain/company";
import { expect, test } from "./fixtures";
import { gotoHydrated, nav } from "./helpers";

/** "#16325c" as the browser reports a computed colour. */
function rgb(hex: string) {
  const h = hex.replace("#", "");
  const full = h.length === 3 ? [...h].map((c) => c + c).join("") : h;
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

test.describe("brand", () => {
  test("the company's colours are custom properties on :root and colour the primary button", async ({
    page,
  }) => {
    await gotoHydrated(page, "/");
    const root = page.locator("html");
    await expect
      .poll(() =>
        root.evaluate((el) => getComputedStyle(el).getPropertyValue("--brand-primary").trim()),
      )
      .toBe(company.brandColors.primary);
    await expect
      .poll(() =>
        root.evaluate((el) => getComputedStyle(el).getPropertyValue("--brand-accent").trim()),
      )
      .toBe(company.brandColors.accent);
    const cta = page.getByRole("link", { name: "Currently Available Properties" });
    await expect(cta).toHaveCSS("background-color", rgb(company.brandColors.primary));
    await expect(page.locator(".navbar")).toHaveCSS(
      "border-bottom-color",
      rgb(company.brandColors.accent),
    );
  });

  for (const width of [1400, 390]) {
    test(`the navbar shows the company name legibly beside the logo at ${width} px`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 844 });
      await gotoHydrated(page, "/");
      const brand = nav(page).getByRole("link", { name: company.logo.alt });
      const name = brand.getByText(company.name, { exact: true });
      await expect(name).toBeVisible();
      const size = await name.evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));
      expect(size).toBeGreaterThanOrEqual(16);
      const logoBox = await brand.locator("img").boundingBox();
      const nameBox = await name.boundingBox();
      if (!logoBox || !nameBox) throw new Error("brand not laid out");
      // Beside: to the right of the logo, vertically overlapping it.
      expect(nameBox.x).toBeGreaterThanOrEqual(logoBox.x + logoBox.width);
      expect(nameBox.y).toBeLessThan(logoBox.y + logoBox.height);
      expect(nameBox.y + nameBox.height).toBeGreaterThan(logoBox.y);
    });
  }

  test("a keyboard focus is clearly visible", async ({ page }) => {
    await gotoHydrated(page, "/about");
    await page.keyboard.press("Tab"); // skip link
    await page.keyboard.press("Tab"); // the brand link
    const focused = page.locator(":focus");
    await expect(focused).toHaveCSS("outline-style", "solid");
    await expect(focused).toHaveCSS("outline-width", "3px");
  });
});
