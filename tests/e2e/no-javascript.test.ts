// What search engines and slow phones get before (or without) JavaScript: the detail page's
// HTML already holds the listing, and its first photo is fetched at once in the right size.
import { company } from "~/domain/company";
import { formatPrice } from "~/domain/listing-format";
import { expect, test } from "./fixtures";
import { demoListing, escapeRegExp, exactly } from "./helpers";

test.describe("detail page without JavaScript", () => {
  test.use({
    javaScriptEnabled: false,
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1,
  });

  test("shows the address, price, description and first photo from the HTML alone", async ({
    page,
  }) => {
    const house = await demoListing(company.featuredAddresses[0] as string);
    expect(house.image_urls.length).toBeGreaterThan(1);
    expect(house.currently_available).toBe(true);
    const photoRequests: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "image") photoRequests.push(new URL(r.url()).pathname);
    });
    const response = await page.goto(`/properties/${house.id}`);
    expect(response?.status()).toBe(200);
    // There, but not run.
    await expect.poll(() => page.locator("script").count()).toBeGreaterThan(0);

    await expect(page.locator("h1")).toHaveText(exactly(house.address));
    const article = page.locator("article");
    await expect(article).toContainText(formatPrice(house.price as string));
    await expect(article).toContainText("Hardwood floors throughout"); // a line of the description
    await expect(article).toContainText("Available");
    // The form whose code loads on demand is in the HTML and shown: React sends a boundary that
    // far down hidden for a script to show, unless told not to (app/entry.server.tsx).
    await expect(page.getByRole("heading", { name: "Ask about this listing" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible();

    // The first photo: preloaded with high priority, responsive, not lazy; the others lazy.
    const first = page.locator("[data-testid=gallery] img").first();
    await expect(first).toHaveAttribute("src", house.image_urls[0] as string);
    await expect(first).toHaveAttribute("loading", "eager");
    await expect(first).toHaveAttribute("fetchpriority", "high");
    const stem = (house.image_urls[0] as string).replace(/\.jpg$/, "");
    const preload = page.locator("link[rel=preload][as=image][imagesrcset]");
    await expect(preload).toHaveAttribute("fetchpriority", "high");
    await expect(preload).toHaveAttribute(
      "imagesrcset",
      new RegExp(escapeRegExp(`${stem}.w400.webp 400w`)),
    );
    await expect(page.locator("[data-testid=gallery] img").nth(1)).toHaveAttribute(
      "loading",
      "lazy",
    );
    // A phone-width window fetches a small WebP variant of it, never the stored original.
    await expect
      .poll(() => photoRequests.filter((p) => p.startsWith(stem)))
      .toEqual([expect.stringMatching(/\.w(400|800)\.webp$/)]);
    await expect
      .poll(() => first.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
  });
});
