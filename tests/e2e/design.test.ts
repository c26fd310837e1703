// The visual design's promises (docs/decisions/0046-design-tokens-from-company-content.md):
// brand colours from the company's content, a legible company name in the navbar; cards with
// price and status in a grid without empty columns
// (docs/decisions/0047-listing-presentation-and-detail-layout.md).
import { company } from "~/domain/company";
import { listingPath } from "~/domain/listing-kinds";
import { expect, test } from "./fixtures";
import { card, demoListing, gotoHydrated, nav, waitForAnimations } from "./helpers";

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

test.describe("cards", () => {
  test("property cards show the formatted price when available and a status badge", async ({
    page,
    seedListing,
  }) => {
    const suffix = Date.now().toString(36);
    await seedListing("properties", {
      address: `12 Card Price Lane ${suffix}`,
      price: "2950.5",
      currently_available: true,
    });
    await seedListing("properties", {
      address: `14 Card Price Lane ${suffix}`,
      price: "Call us",
      currently_available: true,
    });
    await seedListing("properties", {
      address: `16 Card Price Lane ${suffix}`,
      price: "4000",
      currently_available: false,
    });
    await gotoHydrated(page, "/properties");
    const available = card(page, `12 Card Price Lane ${suffix}`);
    await expect(available.locator(".card-price")).toHaveText("$2,951");
    await expect(available.locator(".status")).toHaveText("Available");
    await expect(card(page, `14 Card Price Lane ${suffix}`).locator(".card-price")).toHaveText(
      "Call us",
    );
    const unavailable = card(page, `16 Card Price Lane ${suffix}`);
    await expect(unavailable.locator(".status")).toHaveText("Not Available");
    // The price is shown only when available, as on the detail page.
    await expect(unavailable.locator(".card-price")).toHaveCount(0);
  });

  test("construction cards have neither price nor status", async ({ page }) => {
    await gotoHydrated(page, "/new-construction");
    await expect(page.locator("li.card").first()).toBeVisible();
    await expect(page.locator("li.card .status")).toHaveCount(0);
    await expect(page.locator("li.card .card-price")).toHaveCount(0);
  });

  test("three featured cards on a wide screen leave no empty column and have equal heights", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await gotoHydrated(page, "/", "load");
    await waitForAnimations(page);
    const grid = page.locator("section[aria-labelledby='featured-title'] ul.card-grid");
    const cards = grid.locator("li.card");
    await expect(cards).toHaveCount(3);
    const gridBox = await grid.boundingBox();
    const boxes = await cards.evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      }),
    );
    if (!gridBox) throw new Error("grid not laid out");
    // One row, centred: the space left and right of the row differs by at most a pixel or two.
    expect(new Set(boxes.map((b) => Math.round(b.y))).size).toBe(1);
    const first = boxes[0] as (typeof boxes)[number];
    const last = boxes[boxes.length - 1] as (typeof boxes)[number];
    const left = first.x - gridBox.x;
    const right = gridBox.x + gridBox.width - (last.x + last.width);
    expect(Math.abs(left - right)).toBeLessThanOrEqual(2);
    // Equal heights.
    expect(
      Math.max(...boxes.map((b) => b.height)) - Math.min(...boxes.map((b) => b.height)),
    ).toBeLessThanOrEqual(1);
  });

  test("a card shows a visible focus and hover state", async ({ page }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await gotoHydrated(page, "/properties", "load");
    const first = page.locator("li.card").first();
    const shadowBefore = await first.evaluate((el) => getComputedStyle(el).boxShadow);
    await first.locator("a").focus();
    await expect(first).toHaveCSS("outline-style", "solid");
    await first.locator("a").blur();
    await first.hover();
    await expect
      .poll(() => first.evaluate((el) => getComputedStyle(el).boxShadow))
      .not.toBe(shadowBefore);
  });
});

test.describe("detail pages", () => {
  const house = company.featuredAddresses[0] as string;
  const construction = company.featuredAddresses[2] as string;

  async function box(locator: import("@playwright/test").Locator) {
    const b = await locator.boundingBox();
    if (!b) throw new Error("not laid out");
    return b;
  }

  test("at 1400×900 the gallery is above two columns; price and 'Apply Now' show without scrolling", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    const listing = await demoListing(house);
    await gotoHydrated(page, listingPath("properties", listing.id), "load");
    const gallery = await box(page.getByTestId("gallery"));
    const panel = await box(page.getByTestId("offer-panel"));
    const title = await box(page.locator("article h1"));
    const firstBullet = await box(page.locator("article > ul > li").first());
    expect(gallery.y + gallery.height).toBeLessThanOrEqual(panel.y);
    expect(gallery.y + gallery.height).toBeLessThanOrEqual(title.y);
    // Description on the left, the panel on the right.
    expect(panel.x).toBeGreaterThan(firstBullet.x + firstBullet.width);
    expect(panel.x).toBeGreaterThan(700);
    for (const what of [
      page.locator("article .detail-price"),
      page.getByRole("link", { name: "Apply Now" }),
    ]) {
      const b = await box(what);
      expect(b.y).toBeGreaterThanOrEqual(0);
      expect(b.y + b.height).toBeLessThanOrEqual(900);
    }
    // The property manager's phone and e-mail.
    const manager = company.contacts.find((c) => c.role === "Property Manager");
    const panelLinks = page.getByTestId("offer-panel").getByRole("link");
    await expect(panelLinks.filter({ hasText: manager?.email ?? "" })).toHaveAttribute(
      "href",
      new RegExp(`^mailto:${manager?.email}`),
    );
    await expect(panelLinks.filter({ hasText: manager?.phone ?? "" })).toHaveAttribute(
      "href",
      `tel:${manager?.phone}`,
    );
  });

  test("the panel stays in view while a long description scrolls past", async ({
    page,
    seedListing,
  }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    const long = Array.from({ length: 60 }, (_, i) => `Feature number ${i + 1}`).join("\n");
    const listing = await seedListing("properties", {
      address: `5 Long Description Court ${Date.now().toString(36)}`,
      description: long,
      price: "2100",
      currently_available: true,
    });
    await gotoHydrated(page, listingPath("properties", listing.id), "load");
    await page.locator("article > ul > li").nth(40).scrollIntoViewIfNeeded();
    await expect
      .poll(async () => {
        const b = await box(page.getByRole("link", { name: "Apply Now" }));
        return b.y >= 0 && b.y + b.height <= 900;
      })
      .toBe(true);
  });

  test("at 1400×900 with nine photos the price and 'Apply Now' still show without scrolling", async ({
    page,
    seedListing,
  }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    const demo = await demoListing(house);
    const photo = demo.image_urls[0] as string;
    const listing = await seedListing("properties", {
      address: `7 Many Photos Way ${Date.now().toString(36)}`,
      image_urls: Array.from({ length: 9 }, (_, i) => `${photo}?n=${i}`),
      price: "2500",
      currently_available: true,
    });
    await gotoHydrated(page, listingPath("properties", listing.id), "load");
    await expect(page.getByTestId("gallery").locator("button")).toHaveCount(9);
    for (const what of [
      page.locator("article .detail-price"),
      page.getByRole("link", { name: "Apply Now" }),
    ]) {
      const b = await box(what);
      expect(b.y + b.height).toBeLessThanOrEqual(900);
    }
  });

  test("at 390×844 price and 'Apply Now' come right after the bedroom line, before the description", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const listing = await demoListing(house);
    await gotoHydrated(page, listingPath("properties", listing.id), "load");
    const facts = await box(page.locator("article .detail-facts"));
    const price = await box(page.locator("article .detail-price"));
    const apply = await box(page.getByRole("link", { name: "Apply Now" }));
    const firstBullet = await box(page.locator("article > ul > li").first());
    expect(price.y).toBeGreaterThanOrEqual(facts.y + facts.height);
    expect(apply.y + apply.height).toBeLessThanOrEqual(firstBullet.y);
    expect(apply.y + apply.height).toBeLessThanOrEqual(844);
  });

  test("a construction detail page offers the company's e-mail and phone", async ({ page }) => {
    const listing = await demoListing(construction);
    await gotoHydrated(page, listingPath("newConstruction", listing.id));
    const panel = page.getByTestId("offer-panel");
    await expect(panel.getByRole("link", { name: company.office.email })).toHaveAttribute(
      "href",
      new RegExp(`^mailto:${company.office.email}\\?subject=`),
    );
    await expect(panel.getByRole("link", { name: company.office.phone })).toHaveAttribute(
      "href",
      `tel:${company.office.phone}`,
    );
    // Still no price, status or apply link (spec §2).
    await expect(page.locator("article .detail-price, article .status")).toHaveCount(0);
    await expect(page.getByRole("link", { name: /Apply Now|Reserve/ })).toHaveCount(0);
  });
});

test.describe("footer and contact page", () => {
  for (const path of ["/", "/about", "/properties", "/contact", "/no-such-page"]) {
    test(`the footer of ${path} has the office phone and e-mail as links, the address and the fair-housing statement`, async ({
      page,
    }) => {
      await page.goto(path);
      const footer = page.locator("footer.site-footer");
      await expect(footer.getByRole("link", { name: company.office.phone })).toHaveAttribute(
        "href",
        `tel:${company.office.phone}`,
      );
      await expect(footer.getByRole("link", { name: company.office.email })).toHaveAttribute(
        "href",
        `mailto:${company.office.email}`,
      );
      await expect(footer).toContainText(company.office.address ?? "");
      await expect(footer.getByText("Equal Housing Opportunity", { exact: true })).toBeVisible();
    });
  }

  test("the contact page's links look like links; it shows the office address and hours", async ({
    page,
  }) => {
    await gotoHydrated(page, "/contact");
    const mail = page.locator("main li.card a[href^='mailto:']").first();
    await expect(mail).toHaveCSS("text-decoration-line", "underline");
    await expect(mail).toHaveCSS("color", rgb(company.brandColors.primary));
    const office = page.getByRole("region", { name: "Our Office" });
    await expect(office).toContainText(company.office.address ?? "");
    await expect(office).toContainText(company.office.hours ?? "");
  });
});
