// Detail pages /properties/{id} and /new-construction/{id} (spec §2 detail, Lightbox; §8; §9).
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import { listingPath } from "~/domain/listing-kinds";
import { messages } from "~/domain/messages";
import { baseURL, useBrowser } from "./fixtures";
import {
  type DbListing,
  dbListingByAddress,
  deleteRow,
  fetchHtml,
  gotoHydrated,
  h1Text,
  holdRequests,
  insertRow,
  POLL,
  texts,
  uniqueSuffix,
} from "./helpers";

const FEATURED_HOUSE = company.featuredAddresses[0] as string; // "3233 4th Street N"
const FEATURED_BULLETS = [
  "Renovated four-bedroom colonial",
  "Hardwood floors throughout",
  "Updated kitchen with gas range",
  "Fenced back yard and off-street parking",
  "Ten minutes' walk to the Metro",
];

const s = uniqueSuffix();
const special = {
  id: `e2e-detail-${s}-special`,
  address: `E2E ${s} Oak & Elm Court #3`,
  description: "Sunny corner unit. Quiet street\r\nNew windows....Gas heat\n\n..Pets considered",
};
const broken = {
  id: `e2e-detail-${s}-broken`,
  address: `E2E ${s} Broken Photo Way`,
  image: `/images/properties/e2e-missing-${s}/image_1_0.jpg`,
};
const offMarket = { id: `e2e-detail-${s}-off`, address: `E2E ${s} Off Market Lane` };

const detailText = (page: Page, selector: string) =>
  page
    .locator(`article ${selector}`)
    .count()
    .then((n) => (n ? page.locator(`article ${selector}`).first().textContent() : null));

const bullets = (page: Page) => texts(page, "article > ul > li");

describe("detail pages", () => {
  const b = useBrowser();
  let house: DbListing;
  let construction: DbListing;

  beforeAll(async () => {
    house = await dbListingByAddress(FEATURED_HOUSE);
    construction = await dbListingByAddress(company.featuredAddresses[2] as string);
    await insertRow(special.id, {
      address: special.address,
      bedrooms: 2,
      bathrooms: null,
      price: "1234.56",
      property_type: "Residential",
      currently_available: true,
      description: special.description,
    });
    await insertRow(broken.id, {
      address: broken.address,
      image_urls: [broken.image],
      property_type: "Commercial",
      currently_available: true,
      price: "900",
    });
    await insertRow(offMarket.id, {
      address: offMarket.address,
      bedrooms: 3,
      bathrooms: 1,
      property_type: "Commercial",
      currently_available: false,
      price: "7777",
    });
  });

  afterAll(async () => {
    for (const id of [special.id, broken.id, offMarket.id]) await deleteRow("properties", id);
  });

  describe("server rendering", () => {
    it("the raw HTML already contains the address and the description bullets", async () => {
      const { status, html } = await fetchHtml(listingPath("properties", house.id));
      expect(status).toBe(200);
      expect(html).toContain(`<h1>${FEATURED_HOUSE}</h1>`);
      for (const bullet of FEATURED_BULLETS) {
        expect(html).toContain(`<li>${bullet.replace("'", "&#x27;")}</li>`);
      }
      expect(html).toContain("4 Bedrooms | 3 Bathrooms");
      expect(html).toContain("$3,200");
    });

    it("construction detail HTML too", async () => {
      const { status, html } = await fetchHtml(listingPath("newConstruction", construction.id));
      expect(status).toBe(200);
      expect(html).toContain("<h1>3131 Draper Drive Fairfax, VA </h1>");
      expect(html).toContain("<li>Chef&#x27;s kitchen with island</li>");
      expect(html).toContain("<li>Primary suite with walk-in closet</li>");
    });
  });

  describe("gallery and lightbox", () => {
    const columns = (page: Page) =>
      page
        .getByTestId("gallery")
        .evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(" ").length);

    it("has 3 columns at 1000 px and 2 at 800 px (switching at 900 px)", async () => {
      const wide = await b.newPage({ viewport: { width: 1000, height: 800 } });
      await wide.page.goto(listingPath("properties", house.id));
      expect(await columns(wide.page)).toBe(3);
      await wide.page.setViewportSize({ width: 900, height: 800 });
      expect(await columns(wide.page)).toBe(3);
      await wide.page.setViewportSize({ width: 899, height: 800 });
      expect(await columns(wide.page)).toBe(2);
      await wide.context.close();

      const narrow = await b.newPage({ viewport: { width: 800, height: 800 } });
      await narrow.page.goto(listingPath("properties", house.id));
      expect(await columns(narrow.page)).toBe(2);
      await narrow.context.close();
    });

    it("a photo opens the lightbox; next and previous wrap around", async () => {
      expect(house.image_urls.length).toBe(3);
      const { context, page } = await b.newPage({ viewport: { width: 1280, height: 900 } });
      await gotoHydrated(page, listingPath("properties", house.id));
      const photos = page.getByTestId("gallery").locator("button");
      expect(await photos.count()).toBe(3);
      expect(
        await page
          .getByTestId("gallery")
          .locator("img")
          .evaluateAll((els) => els.map((el) => el.getAttribute("src"))),
      ).toEqual(house.image_urls);

      const currentSrc = () => page.locator(".yarl__slide_current img").first().getAttribute("src");
      const lightbox = page.getByRole("dialog", { name: "Lightbox" });

      // Open the last photo.
      await photos.nth(2).click();
      await lightbox.waitFor();
      await expect.poll(currentSrc, POLL).toBe(house.image_urls[2]);
      for (const name of [
        "Next image",
        "Previous image",
        "Close lightbox",
        "Zoom in",
        "Zoom out",
      ]) {
        expect(await page.getByRole("button", { name }).count(), name).toBe(1);
      }

      // On the last image, 'Next image' shows the first one again...
      await page.getByRole("button", { name: "Next image" }).click();
      await expect.poll(currentSrc, POLL).toBe(house.image_urls[0]);
      // ... and 'Previous image' on the first goes back to the last.
      await page.getByRole("button", { name: "Previous image" }).click();
      await expect.poll(currentSrc, POLL).toBe(house.image_urls[2]);
      await page.getByRole("button", { name: "Previous image" }).click();
      await expect.poll(currentSrc, POLL).toBe(house.image_urls[1]);

      // Zoom: at zoom 0 only 'Zoom in' works; after zooming in, 'Zoom out' does.
      const zoomOut = page.getByRole("button", { name: "Zoom out" });
      const zoomIn = page.getByRole("button", { name: "Zoom in" });
      await expect.poll(() => zoomOut.isDisabled(), POLL).toBe(true);
      await zoomIn.click();
      await expect.poll(() => zoomOut.isDisabled(), POLL).toBe(false);

      await page.getByRole("button", { name: "Close lightbox" }).click();
      await expect.poll(() => lightbox.count(), POLL).toBe(0);
      await context.close();
    });

    it("a picture that fails to load shows 'This image failed to load'", async () => {
      const missing = await fetch(new URL(broken.image, baseURL()));
      expect(missing.status).toBe(404);
      const { context, page } = await b.newPage();
      await gotoHydrated(page, listingPath("properties", broken.id));
      await page.getByTestId("gallery").locator("button").first().click();
      const error = page.locator(".yarl__slide_current").getByText(messages.imageLoadFailed);
      await error.waitFor({ timeout: 5_000 });
      expect(await error.textContent()).toBe("This image failed to load");
      await context.close();
    });

    it("shows 'Loading...' while a detail page is on its way", async () => {
      const { context, page } = await b.newPage();
      await gotoHydrated(page, "/properties");
      const release = await holdRequests(page, /\/properties\/[^/]+\.data/);
      await page.locator("li.card", { hasText: FEATURED_HOUSE }).locator("a").click();
      const status = page.getByRole("status");
      await expect.poll(() => status.textContent(), POLL).toBe("Loading...");
      release();
      await expect.poll(() => h1Text(page), POLL).toBe(FEATURED_HOUSE);
      expect(await status.textContent()).toBe("");
      await context.close();
    });

    it("a listing without images says 'No images available'", async () => {
      const { context, page } = await b.newPage();
      await page.goto(listingPath("properties", special.id));
      expect(await page.locator("article p.empty").textContent()).toBe("No images available");
      expect(await page.getByTestId("gallery").count()).toBe(0);
      await context.close();
    });
  });

  describe("facts, description, price, status and actions", () => {
    it("available residential property with a digits price", async () => {
      const { context, page } = await b.newPage();
      const res = await gotoHydrated(page, listingPath("properties", house.id));
      expect(res?.status()).toBe(200);
      expect(await h1Text(page)).toBe(FEATURED_HOUSE);
      expect(await detailText(page, ".detail-facts")).toBe("4 Bedrooms | 3 Bathrooms");
      expect(await bullets(page)).toEqual(FEATURED_BULLETS);
      expect(await detailText(page, ".detail-price")).toBe("$3,200");
      expect(await detailText(page, ".status")).toBe("Available");
      const apply = page.getByRole("link", { name: "Apply Now" });
      expect(await apply.getAttribute("href")).toBe(
        "/rental-application?address=3233%204th%20Street%20N",
      );
      expect(await page.getByRole("link", { name: "Reserve" }).count()).toBe(0);
      await context.close();
    });

    it("bullets split at line breaks and runs of 2+ dots; prices with decimals round; Apply Now encodes", async () => {
      const { context, page } = await b.newPage();
      await gotoHydrated(page, listingPath("properties", special.id));
      expect(await h1Text(page)).toBe(special.address);
      // A single dot does not split; '....' and a leading '..' do; blank parts are dropped.
      expect(await bullets(page)).toEqual([
        "Sunny corner unit. Quiet street",
        "New windows",
        "Gas heat",
        "Pets considered",
      ]);
      // Only the bedrooms part, no separator.
      expect(await detailText(page, ".detail-facts")).toBe("2 Bedrooms");
      expect(await detailText(page, ".detail-price")).toBe("$1,235");
      const href = await page.getByRole("link", { name: "Apply Now" }).getAttribute("href");
      expect(href).toBe(`/rental-application?address=${encodeURIComponent(special.address)}`);
      expect(href).toContain("%26");
      expect(href).toContain("%23");
      await context.close();
    });

    it("free-text prices are shown as is", async () => {
      const row = await dbListingByAddress("1021 N Kenmore Street");
      expect(row.price).toBe("Call for pricing");
      const { context, page } = await b.newPage();
      await page.goto(listingPath("properties", row.id));
      expect(await detailText(page, ".detail-price")).toBe("Call for pricing");
      expect(await detailText(page, ".status")).toBe("Available");
      await context.close();
    });

    it("only bathrooms: '{n} Bathrooms' alone; commercial available shows Apply Now", async () => {
      const row = await dbListingByAddress("4100 Chain Bridge Road Suite 200");
      const { context, page } = await b.newPage();
      await page.goto(listingPath("properties", row.id));
      expect(await detailText(page, ".detail-facts")).toBe("2 Bathrooms");
      expect(await detailText(page, ".detail-price")).toBe("$4,500");
      expect(await page.getByRole("link", { name: "Apply Now" }).getAttribute("href")).toBe(
        `/rental-application?address=${encodeURIComponent(row.address)}`,
      );
      await context.close();
    });

    it("not available: price hidden, 'Not Available', no Apply Now", async () => {
      const { context, page } = await b.newPage();
      await page.goto(listingPath("properties", offMarket.id));
      expect(await h1Text(page)).toBe(offMarket.address);
      expect(await detailText(page, ".detail-facts")).toBe("3 Bedrooms | 1 Bathrooms");
      expect(await detailText(page, ".status")).toBe("Not Available");
      expect(await page.locator(".detail-price").count()).toBe(0);
      expect(await page.locator("article").textContent()).not.toContain("7,777");
      expect(await page.getByRole("link", { name: "Apply Now" }).count()).toBe(0);
      expect(await page.getByRole("link", { name: "Reserve" }).count()).toBe(0);

      // The demo's unavailable featured house hides its price too.
      const jackson = await dbListingByAddress("409 N Jackson Street");
      await page.goto(listingPath("properties", jackson.id));
      expect(await detailText(page, ".status")).toBe("Not Available");
      expect(await page.locator("article").textContent()).not.toContain("2,950");
      await context.close();
    });

    it("an unavailable listing without bedrooms or bathrooms has no facts line", async () => {
      const row = await dbListingByAddress("10560 Main Street");
      const { context, page } = await b.newPage();
      await page.goto(listingPath("properties", row.id));
      expect(await page.locator(".detail-facts").count()).toBe(0);
      expect(await page.locator("article p.empty").textContent()).toBe("No images available");
      expect(await bullets(page)).toEqual(["Street-level retail space", "High foot traffic"]);
      await context.close();
    });

    it("available vacation rental shows 'Reserve' opening the reserve URL in a new tab", async () => {
      const row = await dbListingByAddress("1175 Ocean Trail Corolla, NC");
      expect(row.reserve_url).toBeTruthy();
      const { context, page } = await b.newPage();
      await page.goto(listingPath("properties", row.id));
      const reserve = page.getByRole("link", { name: "Reserve" });
      expect(await reserve.getAttribute("href")).toBe(row.reserve_url);
      expect(await reserve.getAttribute("target")).toBe("_blank");
      expect(await page.getByRole("link", { name: "Apply Now" }).count()).toBe(0);
      expect(await detailText(page, ".status")).toBe("Available");

      // Not available: no Reserve either.
      const closed = await dbListingByAddress("865 Lighthouse Drive Corolla, NC");
      await page.goto(listingPath("properties", closed.id));
      expect(await detailText(page, ".status")).toBe("Not Available");
      expect(await page.getByRole("link", { name: "Reserve" }).count()).toBe(0);
      await context.close();
    });

    it("construction detail: gallery, address, facts and bullets but no price, status or apply", async () => {
      const { context, page } = await b.newPage();
      const res = await gotoHydrated(page, listingPath("newConstruction", construction.id));
      expect(res?.status()).toBe(200);
      expect(await h1Text(page)).toBe("3131 Draper Drive Fairfax, VA ");
      expect(await page.getByTestId("gallery").locator("img").count()).toBe(
        construction.image_urls.length,
      );
      expect(await detailText(page, ".detail-facts")).toBe("5 Bedrooms | 4.5 Bathrooms");
      expect(await bullets(page)).toEqual([
        "New five-bedroom craftsman",
        "Chef's kitchen with island",
        "Primary suite with walk-in closet",
        "Three-car garage",
      ]);
      expect(await page.locator(".detail-price, .status").count()).toBe(0);
      const article = (await page.locator("article").textContent()) ?? "";
      expect(article).not.toMatch(/Available|\$/);
      expect(await page.getByRole("link", { name: /Apply Now|Reserve/ }).count()).toBe(0);
      await context.close();
    });
  });
});
