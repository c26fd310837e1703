// Home page (docs/behaviour.md §2 Home, §9 featured addresses and card delays).
import { company } from "~/domain/company";
import { listingPath } from "~/domain/listing-kinds";
import { expect, test } from "./fixtures";
import { demoListing, exactly, gotoHydrated, heading, hrefs, texts } from "./helpers";

const FEATURED_CARDS = "section[aria-labelledby='featured-title'] li.card";

test.describe("home page", () => {
  test("shows the hero logo and tagline", async ({ page }) => {
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    const logo = page.locator(".hero img");
    await expect(logo).toHaveAttribute("src", company.logo.src);
    await expect(logo).toHaveAttribute("alt", company.logo.alt);
    // The logo really loaded (not a broken image).
    await expect
      .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    await expect(page.locator(".hero p")).toHaveText(exactly(company.tagline));
  });

  test("'Currently Available Properties' goes to /properties?filter=available", async ({
    page,
  }) => {
    await gotoHydrated(page, "/");
    const button = page.getByRole("link", { name: "Currently Available Properties" });
    await expect(button).toHaveAttribute("href", "/properties?filter=available");
    await button.click();
    await expect(page).toHaveURL(
      (url) => url.pathname === "/properties" && url.search === "?filter=available",
    );
    await expect(page.getByLabel("Only show available properties")).toBeChecked();
  });

  test("'Featured Properties' shows exactly the three featured addresses", async ({
    page,
    control,
  }) => {
    await page.goto("/");
    await expect(page.locator("#featured-title")).toHaveText(exactly("Featured Properties"));
    const titles = page.locator(`${FEATURED_CARDS} .card-title`);
    await expect(titles).toHaveCount(3);
    await expect
      .poll(async () => (await texts(titles)).sort())
      .toEqual([...company.featuredAddresses].sort());
    // docs/behaviour.md §9, literally (the construction's address ends with a space).
    await expect
      .poll(() => texts(titles))
      .toEqual(
        expect.arrayContaining([
          "3233 4th Street N",
          "409 N Jackson Street",
          "3131 Draper Drive Fairfax, VA ",
        ]),
      );
    // Other listings of the demo content are not featured.
    const others = (await control.listSummaries()).filter(
      (l) => !company.featuredAddresses.includes(l.address),
    );
    expect(others.length).toBeGreaterThan(0);
    const shown = await texts(titles);
    for (const other of others) expect(shown).not.toContain(other.address);
  });

  test("featured cards link to their own kind's detail route", async ({ page }) => {
    await gotoHydrated(page, "/");
    const links = page.locator(`${FEATURED_CARDS} a`);
    await expect(links).toHaveCount(3);
    const titles = await texts(page.locator(`${FEATURED_CARDS} .card-title`));
    const expected: string[] = [];
    for (const address of titles) {
      const row = await demoListing(address);
      expected.push(listingPath(row.collection, row.id));
      if (address === "3131 Draper Drive Fairfax, VA ") {
        expect(row.collection).toBe("newConstruction");
        expect(listingPath(row.collection, row.id)).toBe(
          `/new-construction/${encodeURIComponent(row.id)}`,
        );
      } else {
        expect(listingPath(row.collection, row.id)).toBe(
          `/properties/${encodeURIComponent(row.id)}`,
        );
      }
    }
    await expect.poll(() => hrefs(links)).toEqual(expected);
    // Following the construction card opens the construction detail page.
    await page.locator(FEATURED_CARDS, { hasText: "3131 Draper Drive" }).locator("a").click();
    await expect(page).toHaveURL((url) => url.pathname.startsWith("/new-construction/"));
    await expect(heading(page)).toHaveText(exactly("3131 Draper Drive Fairfax, VA "));
  });

  test("cards fade in with delays of 0.5 s, 0.7 s and 0.9 s", async ({ page }) => {
    await page.goto("/");
    const cards = page.locator(FEATURED_CARDS);
    await expect
      .poll(() =>
        cards.evaluateAll((els) =>
          els.map((el) => [
            (el as HTMLElement).style.animationDelay,
            getComputedStyle(el).animationDelay,
          ]),
        ),
      )
      .toEqual([
        ["0.5s", "0.5s"],
        ["0.7s", "0.7s"],
        ["0.9s", "0.9s"],
      ]);
    await expect
      .poll(() => cards.evaluateAll((els) => els.map((el) => getComputedStyle(el).animationName)))
      .toEqual(["fade-in", "fade-in", "fade-in"]);
  });
});
