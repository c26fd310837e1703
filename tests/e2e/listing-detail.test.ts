// Detail pages /properties/{id} and /new-construction/{id} (docs/behaviour.md §2 detail, Lightbox; §8; §9).
import type { Page } from "@playwright/test";
import { company } from "~/domain/company";
import { listingPath } from "~/domain/listing-kinds";
import { messages } from "~/domain/messages";
import { expect, test } from "./fixtures";
import {
  demoListing,
  exactly,
  fetchHtml,
  gotoHydrated,
  heading,
  holdRequests,
  httpStatus,
  lightboxReady,
  uniqueSuffix,
} from "./helpers";

const FEATURED_HOUSE = company.featuredAddresses[0] as string; // "3233 4th Street N"
const FEATURED_CONSTRUCTION = company.featuredAddresses[2] as string;
const FEATURED_BULLETS = [
  "Renovated four-bedroom colonial",
  "Hardwood floors throughout",
  "Updated kitchen with gas range",
  "Fenced back yard and off-street parking",
  "Ten minutes' walk to the Metro",
];

const facts = (page: Page) => page.locator("article .detail-facts");
const price = (page: Page) => page.locator("article .detail-price");
const status = (page: Page) => page.locator("article .status");
const bullets = (page: Page) => page.locator("article > ul > li");
const applyNow = (page: Page) => page.getByRole("link", { name: "Apply Now" });
const reserve = (page: Page) => page.getByRole("link", { name: "Reserve" });

test.describe("detail pages", () => {
  test.describe("server rendering", () => {
    test("the raw HTML already contains the address and the description bullets", async () => {
      const house = await demoListing(FEATURED_HOUSE);
      const { status, html } = await fetchHtml(listingPath("properties", house.id));
      expect(status).toBe(200);
      expect(html).toContain(`<h1>${FEATURED_HOUSE}</h1>`);
      for (const bullet of FEATURED_BULLETS) {
        expect(html).toContain(`<li>${bullet.replace("'", "&#x27;")}</li>`);
      }
      expect(html).toContain("4 Bedrooms | 3 Bathrooms");
      expect(html).toContain("$3,200");
    });

    test("construction detail HTML too", async () => {
      const construction = await demoListing(FEATURED_CONSTRUCTION);
      const { status, html } = await fetchHtml(listingPath("newConstruction", construction.id));
      expect(status).toBe(200);
      expect(html).toContain("<h1>3131 Draper Drive Fairfax, VA </h1>");
      expect(html).toContain("<li>Chef&#x27;s kitchen with island</li>");
      expect(html).toContain("<li>Primary suite with walk-in closet</li>");
    });
  });

  test.describe("gallery and lightbox", () => {
    const columns = (page: Page) =>
      page
        .getByTestId("gallery")
        .evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(" ").length);

    test("has 3 columns at 1000 px and 2 at 800 px (switching at 900 px)", async ({ newPage }) => {
      const house = await demoListing(FEATURED_HOUSE);
      const wide = await newPage({ viewport: { width: 1000, height: 800 } });
      await wide.goto(listingPath("properties", house.id));
      await expect.poll(() => columns(wide)).toBe(3);
      await wide.setViewportSize({ width: 900, height: 800 });
      await expect.poll(() => columns(wide)).toBe(3);
      await wide.setViewportSize({ width: 899, height: 800 });
      await expect.poll(() => columns(wide)).toBe(2);

      const narrow = await newPage({ viewport: { width: 800, height: 800 } });
      await narrow.goto(listingPath("properties", house.id));
      await expect.poll(() => columns(narrow)).toBe(2);
    });

    test.describe("at 1280 px", () => {
      test.use({ viewport: { width: 1280, height: 900 } });

      test("a photo opens the lightbox; next and previous wrap around", async ({ page }) => {
        const house = await demoListing(FEATURED_HOUSE);
        expect(house.image_urls.length).toBe(3);
        await gotoHydrated(page, listingPath("properties", house.id));
        const photos = page.getByTestId("gallery").locator("button");
        await expect(photos).toHaveCount(3);
        await expect
          .poll(() =>
            page
              .getByTestId("gallery")
              .locator("img")
              .evaluateAll((els) => els.map((el) => el.getAttribute("src"))),
          )
          .toEqual(house.image_urls);

        const current = page.locator(".yarl__slide_current img").first();
        const lightbox = page.getByRole("dialog", { name: "Lightbox" });

        // Open the last photo.
        await photos.nth(2).click();
        await expect(lightbox).toBeVisible();
        await expect(current).toHaveAttribute("src", house.image_urls[2] as string);
        for (const name of [
          "Next image",
          "Previous image",
          "Close lightbox",
          "Zoom in",
          "Zoom out",
        ]) {
          await expect(page.getByRole("button", { name }), name).toHaveCount(1);
        }

        // On the last image, 'Next image' shows the first one again...
        await lightboxReady(page);
        await page.getByRole("button", { name: "Next image" }).click();
        await expect(current).toHaveAttribute("src", house.image_urls[0] as string);
        // ... and 'Previous image' on the first goes back to the last.
        await page.getByRole("button", { name: "Previous image" }).click();
        await expect(current).toHaveAttribute("src", house.image_urls[2] as string);
        await page.getByRole("button", { name: "Previous image" }).click();
        await expect(current).toHaveAttribute("src", house.image_urls[1] as string);

        // Zoom: at zoom 0 only 'Zoom in' works; after zooming in, 'Zoom out' does.
        const zoomOut = page.getByRole("button", { name: "Zoom out" });
        const zoomIn = page.getByRole("button", { name: "Zoom in" });
        await expect(zoomOut).toBeDisabled();
        await zoomIn.click();
        await expect(zoomOut).toBeEnabled();

        await page.getByRole("button", { name: "Close lightbox" }).click();
        await expect(lightbox).toHaveCount(0);
      });
    });

    test("a picture that fails to load shows 'This image failed to load'", async ({
      page,
      seedListing,
    }) => {
      const s = uniqueSuffix();
      const image = `/images/properties/e2e-missing-${s}/image_1_0.jpg`;
      const broken = await seedListing("properties", {
        address: `E2E ${s} Broken Photo Way`,
        image_urls: [image],
        property_type: "Commercial",
        currently_available: true,
        price: "900",
      });
      expect(await httpStatus(image)).toBe(404);
      await gotoHydrated(page, listingPath("properties", broken.id));
      await page.getByTestId("gallery").locator("button").first().click();
      const error = page.locator(".yarl__slide_current").getByText(messages.imageLoadFailed);
      await expect(error).toHaveText(exactly("This image failed to load"));
    });

    test("shows 'Loading...' while a detail page is on its way", async ({ page }) => {
      await gotoHydrated(page, "/properties");
      const release = await holdRequests(page, /\/properties\/[^/]+\.data/);
      await page.locator("li.card", { hasText: FEATURED_HOUSE }).locator("a").click();
      const loading = page.getByRole("status");
      await expect(loading).toHaveText(exactly("Loading..."));
      release();
      await expect(heading(page)).toHaveText(exactly(FEATURED_HOUSE));
      await expect(loading).toHaveText(exactly(""));
    });

    test("a listing without images says 'No images available'", async ({ page, seedListing }) => {
      const bare = await seedListing("properties", { address: `E2E ${uniqueSuffix()} Bare Lane` });
      await page.goto(listingPath("properties", bare.id));
      await expect(page.locator("article p.empty")).toHaveText(exactly("No images available"));
      await expect(page.getByTestId("gallery")).toHaveCount(0);
    });
  });

  test.describe("facts, description, price, status and actions", () => {
    test("available residential property with a digits price", async ({ page }) => {
      const house = await demoListing(FEATURED_HOUSE);
      const res = await gotoHydrated(page, listingPath("properties", house.id));
      expect(res?.status()).toBe(200);
      await expect(heading(page)).toHaveText(exactly(FEATURED_HOUSE));
      await expect(facts(page)).toHaveText(exactly("4 Bedrooms | 3 Bathrooms"));
      await expect(bullets(page)).toHaveText(FEATURED_BULLETS.map(exactly));
      await expect(price(page)).toHaveText(exactly("$3,200"));
      await expect(status(page)).toHaveText(exactly("Available"));
      await expect(applyNow(page)).toHaveAttribute(
        "href",
        "/rental-application?address=3233%204th%20Street%20N",
      );
      await expect(reserve(page)).toHaveCount(0);
    });

    test("bullets split at line breaks and runs of 2+ dots; prices with decimals round; Apply Now encodes", async ({
      page,
      seedListing,
    }) => {
      const special = await seedListing("properties", {
        id: `e2e-detail-${uniqueSuffix()}-special`,
        address: `E2E ${uniqueSuffix()} Oak & Elm Court #3`,
        bedrooms: 2,
        bathrooms: null,
        price: "1234.56",
        property_type: "Residential",
        currently_available: true,
        description:
          "Sunny corner unit. Quiet street\r\nNew windows....Gas heat\n\n..Pets considered",
      });
      await gotoHydrated(page, listingPath("properties", special.id));
      await expect(heading(page)).toHaveText(exactly(special.address));
      // A single dot does not split; '....' and a leading '..' do; blank parts are dropped.
      await expect(bullets(page)).toHaveText(
        ["Sunny corner unit. Quiet street", "New windows", "Gas heat", "Pets considered"].map(
          exactly,
        ),
      );
      // Only the bedrooms part, no separator.
      await expect(facts(page)).toHaveText(exactly("2 Bedrooms"));
      await expect(price(page)).toHaveText(exactly("$1,235"));
      const expectedHref = `/rental-application?address=${encodeURIComponent(special.address)}`;
      expect(expectedHref).toContain("%26");
      expect(expectedHref).toContain("%23");
      await expect(applyNow(page)).toHaveAttribute("href", expectedHref);
    });

    test("free-text prices are shown as is", async ({ page }) => {
      const row = await demoListing("1021 N Kenmore Street");
      expect(row.price).toBe("Call for pricing");
      await page.goto(listingPath("properties", row.id));
      await expect(price(page)).toHaveText(exactly("Call for pricing"));
      await expect(status(page)).toHaveText(exactly("Available"));
    });

    test("only bathrooms: '{n} Bathrooms' alone; commercial available shows Apply Now", async ({
      page,
    }) => {
      const row = await demoListing("4100 Chain Bridge Road Suite 200");
      await page.goto(listingPath("properties", row.id));
      await expect(facts(page)).toHaveText(exactly("2 Bathrooms"));
      await expect(price(page)).toHaveText(exactly("$4,500"));
      await expect(applyNow(page)).toHaveAttribute(
        "href",
        `/rental-application?address=${encodeURIComponent(row.address)}`,
      );
    });

    test("not available: price hidden, 'Not Available', no Apply Now", async ({
      page,
      seedListing,
    }) => {
      const offMarket = await seedListing("properties", {
        address: `E2E ${uniqueSuffix()} Off Market Lane`,
        bedrooms: 3,
        bathrooms: 1,
        property_type: "Commercial",
        currently_available: false,
        price: "7777",
      });
      await page.goto(listingPath("properties", offMarket.id));
      await expect(heading(page)).toHaveText(exactly(offMarket.address));
      await expect(facts(page)).toHaveText(exactly("3 Bedrooms | 1 Bathrooms"));
      await expect(status(page)).toHaveText(exactly("Not Available"));
      await expect(page.locator(".detail-price")).toHaveCount(0);
      await expect(page.locator("article")).not.toContainText("7,777");
      await expect(applyNow(page)).toHaveCount(0);
      await expect(reserve(page)).toHaveCount(0);

      // The demo's unavailable featured house hides its price too.
      const jackson = await demoListing("409 N Jackson Street");
      await page.goto(listingPath("properties", jackson.id));
      await expect(status(page)).toHaveText(exactly("Not Available"));
      await expect(page.locator("article")).not.toContainText("2,950");
    });

    test("an unavailable listing without bedrooms or bathrooms has no facts line", async ({
      page,
    }) => {
      const row = await demoListing("10560 Main Street");
      await page.goto(listingPath("properties", row.id));
      await expect(page.locator("article p.empty")).toHaveText(exactly("No images available"));
      await expect(page.locator(".detail-facts")).toHaveCount(0);
      await expect(bullets(page)).toHaveText(
        ["Street-level retail space", "High foot traffic"].map(exactly),
      );
    });

    test("available vacation rental shows 'Reserve' opening the reserve URL in a new tab", async ({
      page,
    }) => {
      const row = await demoListing("1175 Ocean Trail Corolla, NC");
      expect(row.reserve_url).toBeTruthy();
      await page.goto(listingPath("properties", row.id));
      await expect(reserve(page)).toHaveAttribute("href", row.reserve_url as string);
      await expect(reserve(page)).toHaveAttribute("target", "_blank");
      await expect(applyNow(page)).toHaveCount(0);
      await expect(status(page)).toHaveText(exactly("Available"));

      // Not available: no Reserve either.
      const closed = await demoListing("865 Lighthouse Drive Corolla, NC");
      await page.goto(listingPath("properties", closed.id));
      await expect(status(page)).toHaveText(exactly("Not Available"));
      await expect(reserve(page)).toHaveCount(0);
    });

    test("construction detail: gallery, address, facts and bullets but no price, status or apply", async ({
      page,
    }) => {
      const construction = await demoListing(FEATURED_CONSTRUCTION);
      const res = await gotoHydrated(page, listingPath("newConstruction", construction.id));
      expect(res?.status()).toBe(200);
      await expect(heading(page)).toHaveText(exactly("3131 Draper Drive Fairfax, VA "));
      await expect(page.getByTestId("gallery").locator("img")).toHaveCount(
        construction.image_urls.length,
      );
      await expect(facts(page)).toHaveText(exactly("5 Bedrooms | 4.5 Bathrooms"));
      await expect(bullets(page)).toHaveText(
        [
          "New five-bedroom craftsman",
          "Chef's kitchen with island",
          "Primary suite with walk-in closet",
          "Three-car garage",
        ].map(exactly),
      );
      await expect(page.locator(".detail-price, .status")).toHaveCount(0);
      await expect(page.locator("article")).not.toHaveText(/Available|\$/);
      await expect(page.getByRole("link", { name: /Apply Now|Reserve/ })).toHaveCount(0);
    });
  });
});
