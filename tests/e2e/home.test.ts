// Home page (spec §2 Home, §9 featured addresses and card delays).
import { describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import { listingPath } from "~/domain/listing-kinds";
import { useBrowser } from "./fixtures";
import {
  dbListingByAddress,
  dbListings,
  gotoHydrated,
  h1Text,
  hrefs,
  POLL,
  texts,
} from "./helpers";

const FEATURED_CARDS = "section[aria-labelledby='featured-title'] li.card";

describe("home page", () => {
  const b = useBrowser();

  it("shows the hero logo and tagline", async () => {
    const { context, page } = await b.newPage();
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    const logo = page.locator(".hero img");
    await logo.waitFor();
    expect(await logo.getAttribute("src")).toBe(company.logo.src);
    expect(await logo.getAttribute("alt")).toBe(company.logo.alt);
    // The logo really loaded (not a broken image).
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>(".hero img");
      return !!img && img.complete && img.naturalWidth > 0;
    });
    expect(await page.locator(".hero p").textContent()).toBe(company.tagline);
    await context.close();
  });

  it("'Currently Available Properties' goes to /properties?filter=available", async () => {
    const { context, page } = await b.newPage();
    await gotoHydrated(page, "/");
    const button = page.getByRole("link", { name: "Currently Available Properties" });
    expect(await button.getAttribute("href")).toBe("/properties?filter=available");
    await button.click();
    await page.waitForURL((url) => url.pathname === "/properties");
    expect(new URL(page.url()).search).toBe("?filter=available");
    await expect
      .poll(() => page.getByLabel("Only show available properties").isChecked())
      .toBe(true);
    await context.close();
  });

  it("'Featured Properties' shows exactly the three featured addresses", async () => {
    const { context, page } = await b.newPage();
    await page.goto("/");
    expect(await page.locator("#featured-title").textContent()).toBe("Featured Properties");
    const titles = await texts(page, `${FEATURED_CARDS} .card-title`);
    expect(titles).toHaveLength(3);
    expect([...titles].sort()).toEqual([...company.featuredAddresses].sort());
    // Spec §9, literally (the construction's address ends with a space).
    expect(titles).toEqual(
      expect.arrayContaining([
        "3233 4th Street N",
        "409 N Jackson Street",
        "3131 Draper Drive Fairfax, VA ",
      ]),
    );
    // Other listings of the demo content are not featured.
    const others = (await dbListings()).filter(
      (l) => !company.featuredAddresses.includes(l.address),
    );
    expect(others.length).toBeGreaterThan(0);
    for (const other of others) expect(titles).not.toContain(other.address);
    await context.close();
  });

  it("featured cards link to their own kind's detail route", async () => {
    const { context, page } = await b.newPage();
    await gotoHydrated(page, "/");
    const titles = await texts(page, `${FEATURED_CARDS} .card-title`);
    const links = await hrefs(page, `${FEATURED_CARDS} a`);
    expect(links).toHaveLength(3);
    for (const [i, address] of titles.entries()) {
      const row = await dbListingByAddress(address);
      expect(links[i]).toBe(listingPath(row.collection, row.id));
      if (address === "3131 Draper Drive Fairfax, VA ") {
        expect(row.collection).toBe("newConstruction");
        expect(links[i]).toBe(`/new-construction/${encodeURIComponent(row.id)}`);
      } else {
        expect(links[i]).toBe(`/properties/${encodeURIComponent(row.id)}`);
      }
    }
    // Following the construction card opens the construction detail page.
    await page.locator(FEATURED_CARDS, { hasText: "3131 Draper Drive" }).locator("a").click();
    await page.waitForURL((url) => url.pathname.startsWith("/new-construction/"));
    await expect.poll(() => h1Text(page), POLL).toBe("3131 Draper Drive Fairfax, VA ");
    await context.close();
  });

  it("cards fade in with delays of 0.5 s, 0.7 s and 0.9 s", async () => {
    const { context, page } = await b.newPage();
    await page.goto("/");
    const delays = await page
      .locator(FEATURED_CARDS)
      .evaluateAll((els) =>
        els.map((el) => [
          (el as HTMLElement).style.animationDelay,
          getComputedStyle(el).animationDelay,
        ]),
      );
    expect(delays).toEqual([
      ["0.5s", "0.5s"],
      ["0.7s", "0.7s"],
      ["0.9s", "0.9s"],
    ]);
    const names = await page
      .locator(FEATURED_CARDS)
      .evaluateAll((els) => els.map((el) => getComputedStyle(el).animationName));
    expect(names).toEqual(["fade-in", "fade-in", "fade-in"]);
    await context.close();
  });
});
