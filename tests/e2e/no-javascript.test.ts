// What search engines and slow phones get before (or without) JavaScript: the detail page's
// HTML already holds the listing, and its first photo is fetched at once in the right size.
import { describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import { formatPrice } from "~/domain/listing-format";
import { useBrowser } from "./fixtures";
import { type DbListing, dbListingByAddress } from "./helpers";

describe("detail page without JavaScript", () => {
  const b = useBrowser();

  it("shows the address, price, description and first photo from the HTML alone", async () => {
    const house: DbListing = await dbListingByAddress(company.featuredAddresses[0] as string);
    expect(house.image_urls.length).toBeGreaterThan(1);
    expect(house.currently_available).toBe(true);
    const { context, page } = await b.newPage({
      javaScriptEnabled: false,
      viewport: { width: 412, height: 823 },
      deviceScaleFactor: 1,
    });
    const photoRequests: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "image") photoRequests.push(new URL(r.url()).pathname);
    });
    const response = await page.goto(`/properties/${house.id}`);
    expect(response?.status()).toBe(200);
    expect(await page.locator("script").count()).toBeGreaterThan(0); // there, but not run

    await expect.poll(() => page.locator("h1").textContent()).toBe(house.address);
    const text = (await page.locator("article").textContent()) ?? "";
    expect(text).toContain(formatPrice(house.price as string));
    expect(text).toContain("Hardwood floors throughout"); // a line of the description
    expect(text).toContain("Available");

    // The first photo: preloaded with high priority, responsive, not lazy; the others lazy.
    const first = page.locator("[data-testid=gallery] img").first();
    expect(await first.getAttribute("src")).toBe(house.image_urls[0]);
    expect(await first.getAttribute("loading")).toBe("eager");
    expect(await first.getAttribute("fetchpriority")).toBe("high");
    const stem = (house.image_urls[0] as string).replace(/\.jpg$/, "");
    const preload = page.locator("link[rel=preload][as=image][imagesrcset]");
    expect(await preload.getAttribute("fetchpriority")).toBe("high");
    expect(await preload.getAttribute("imagesrcset")).toContain(`${stem}.w400.webp 400w`);
    expect(await page.locator("[data-testid=gallery] img").nth(1).getAttribute("loading")).toBe(
      "lazy",
    );
    // A phone-width window fetches a small WebP variant of it, never the stored original.
    await expect
      .poll(() => photoRequests.filter((p) => p.startsWith(stem)))
      .toEqual([expect.stringMatching(/\.w(400|800)\.webp$/)]);
    expect(await first.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await context.close();
  });
});
