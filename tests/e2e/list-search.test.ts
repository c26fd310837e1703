// Search on the list pages (docs/decisions/0060-list-search.md): the new filters, the
// count line, links that carry a search, the first HTML already filtered by the tab's stored
// search, pages of 24 cards with 'Show more', 'Clear filters', and all of it without JavaScript.
// Every test seeds listings carrying a word of its own and searches for it, so the shared
// database's other listings never change what a test sees.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { exactly, fetchHtml, gotoHydrated, heading, texts, uniqueSuffix } from "./helpers";
import { siteURL } from "./server-info";

const CARD_TITLES = "ul.card-grid li.card .card-title";
const shown = (page: Page) => texts(page.locator(CARD_TITLES));
const count = (page: Page) => page.locator("p.match-count");
const word = () => `zq${uniqueSuffix()}`;

test.describe("/properties search", () => {
  test("each filter applies at once, says how many match, keeps the URL and is stored", async ({
    page,
    seedListing,
  }) => {
    const w = word();
    await seedListing("properties", {
      address: `1 Alder Way ${w}`,
      description: w,
      bedrooms: 1,
      bathrooms: 1,
      price: "1200",
      pets: "cats",
      available_from: "2027-03-01",
    });
    await seedListing("properties", {
      address: `2 Birch Way ${w}`,
      description: w,
      bedrooms: 3,
      bathrooms: 2,
      price: "2400",
      pets: "cats-and-dogs",
    });
    await seedListing("properties", {
      address: `3 Cedar Way ${w}`,
      description: w,
      bedrooms: 4,
      bathrooms: 3,
      price: "Call for pricing",
      pets: "none",
      available_from: "2027-01-10",
      currently_available: false,
    });
    await gotoHydrated(page, "/properties");
    await page.getByLabel("Search", { exact: true }).fill(w);
    await expect(count(page)).toHaveText(exactly("3 properties"));
    await expect(page).toHaveURL((url) => url.pathname === "/properties" && url.search === "");

    await page.getByLabel("Bedrooms").selectOption({ label: "3+" });
    await expect(count(page)).toHaveText(exactly("2 properties"));
    await page.getByLabel("Bathrooms").selectOption({ label: "3+" });
    await expect(count(page)).toHaveText(exactly("1 property"));
    await expect.poll(() => shown(page)).toEqual([`3 Cedar Way ${w}`]);
    await page.getByLabel("Bathrooms").selectOption({ label: "Any" });
    await page.getByLabel("Bedrooms").selectOption({ label: "Any" });
    await expect(count(page)).toHaveText(exactly("3 properties"));

    // A rent filter leaves out a listing without a rent ('Call for pricing').
    await page.getByLabel("Min rent").fill("1000");
    await expect(count(page)).toHaveText(exactly("2 properties"));
    await page.getByLabel("Max rent").fill("2000");
    await expect.poll(() => shown(page)).toEqual([`1 Alder Way ${w}`]);
    await page.getByLabel("Min rent").fill("");
    await page.getByLabel("Max rent").fill("");
    await expect(count(page)).toHaveText(exactly("3 properties"));

    await page.getByLabel("Pets").selectOption({ label: "Dogs allowed" });
    await expect.poll(() => shown(page)).toEqual([`2 Birch Way ${w}`]);
    await page.getByLabel("Pets").selectOption({ label: "Cats allowed" });
    await expect
      .poll(async () => (await shown(page)).sort())
      .toEqual([`1 Alder Way ${w}`, `2 Birch Way ${w}`]);
    await page.getByLabel("Pets").selectOption({ label: "Any" });

    // Available by: a date, or available now without one.
    await page.getByLabel("Available by").fill("2027-02-01");
    await expect
      .poll(async () => (await shown(page)).sort())
      .toEqual([`2 Birch Way ${w}`, `3 Cedar Way ${w}`]);
    await page.getByLabel("Available by").fill("");

    await page.getByLabel("Sort").selectOption({ label: "Rent: high to low" });
    await expect
      .poll(() => shown(page))
      .toEqual([`2 Birch Way ${w}`, `1 Alder Way ${w}`, `3 Cedar Way ${w}`]);
    await page.getByLabel("Sort").selectOption({ label: "Rent: low to high" });
    await expect
      .poll(() => shown(page))
      .toEqual([`1 Alder Way ${w}`, `2 Birch Way ${w}`, `3 Cedar Way ${w}`]);
    await page.getByLabel("Sort").selectOption({ label: "Most bedrooms" });
    await expect
      .poll(() => shown(page))
      .toEqual([`3 Cedar Way ${w}`, `2 Birch Way ${w}`, `1 Alder Way ${w}`]);
    await page.getByLabel("Sort").selectOption({ label: "Available soonest" });
    await expect
      .poll(() => shown(page))
      .toEqual([`2 Birch Way ${w}`, `3 Cedar Way ${w}`, `1 Alder Way ${w}`]);
    await expect(page).toHaveURL((url) => url.search === "");
    const stored = await page.evaluate(() => sessionStorage.getItem("propertySearch"));
    expect(new URLSearchParams(stored ?? "").get("q")).toBe(w);
    expect(new URLSearchParams(stored ?? "").get("sort")).toBe("available-soonest");
  });

  test("the first HTML of a reload already shows the tab's search, every control set", async ({
    page,
    seedListing,
  }) => {
    const w = word();
    await seedListing("properties", { address: `10 Elm Row ${w}`, description: w, bedrooms: 2 });
    await seedListing("properties", { address: `11 Elm Row ${w}`, description: w, bedrooms: 5 });
    await gotoHydrated(page, "/properties");
    await page.getByLabel("Search", { exact: true }).fill(w);
    await page.getByLabel("Bedrooms").selectOption({ label: "4+" });
    await expect.poll(() => shown(page)).toEqual([`11 Elm Row ${w}`]);
    // What the server sends this tab before any JavaScript runs.
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const res = await fetch(siteURL("/properties"), { headers: { cookie } });
    const html = await res.text();
    expect(html).toContain(`11 Elm Row ${w}`);
    expect(html).not.toContain(`10 Elm Row ${w}`);
    expect(html).toMatch(/<option value="4" selected="">4\+<\/option>/);
    expect(html).toContain(`value="${w}"`);
    // And a reload never shows the unfiltered list on the way.
    const firstCards: string[][] = [];
    page.on("domcontentloaded", async () => firstCards.push(await shown(page)));
    await page.reload();
    await expect(page.getByLabel("Bedrooms")).toHaveValue("4");
    await expect.poll(() => firstCards.length).toBeGreaterThan(0);
    expect(firstCards[0]).toEqual([`11 Elm Row ${w}`]);
  });

  test("a tab whose storage differs from the cookie (another tab's search) shows its own", async ({
    page,
    seedListing,
  }) => {
    const w = word();
    await seedListing("properties", { address: `12 Fir Row ${w}`, description: w, bedrooms: 2 });
    await seedListing("properties", { address: `13 Fir Row ${w}`, description: w, bedrooms: 5 });
    await gotoHydrated(page, "/properties");
    await page.getByLabel("Bedrooms").selectOption({ label: "4+" });
    await expect(page.getByLabel("Bedrooms")).toHaveValue("4");
    // The first tab has kept its search once the cookie says so: the server-rendered bar shows
    // the choice at once, the code that keeps it comes on demand a moment later.
    const searchCookie = async () =>
      decodeURIComponent(
        (await page.context().cookies()).find((c) => c.name === "propertySearch")?.value ?? "",
      );
    await expect.poll(searchCookie).toContain("beds=4");
    // A new tab: empty session storage, the first tab's cookie. Its list is loaded again unfiltered.
    const other = await page.context().newPage();
    await gotoHydrated(other, "/properties");
    await expect(other.getByLabel("Bedrooms")).toHaveValue("");
    await expect(other.getByText(`12 Fir Row ${w}`)).toBeVisible();
    expect(await searchCookie()).not.toContain("beds");
  });

  test("a link's values apply, are stored and replace the stored new filters; odd values are dropped", async ({
    page,
    seedListing,
  }) => {
    const w = word();
    await seedListing("properties", {
      address: `20 Fir Lane ${w}`,
      description: w,
      bedrooms: 3,
      pets: "dogs",
      price: "1900",
    });
    await seedListing("properties", {
      address: `21 Fir Lane ${w}`,
      description: w,
      bedrooms: 3,
      pets: "cats",
      price: "1500",
    });
    await gotoHydrated(page, `/properties?q=${w}&beds=3&pets=dogs&sort=rent-asc`);
    await expect.poll(() => shown(page)).toEqual([`20 Fir Lane ${w}`]);
    await expect(page.getByLabel("Bedrooms")).toHaveValue("3");
    await expect(page.getByLabel("Pets")).toHaveValue("dogs");
    await expect(page.getByLabel("Sort")).toHaveValue("rent-asc");
    const stored = new URLSearchParams(
      (await page.evaluate(() => sessionStorage.getItem("propertySearch"))) ?? "",
    );
    expect(Object.fromEntries(stored)).toEqual({ beds: "3", pets: "dogs", q: w, sort: "rent-asc" });

    // A link with some new filters replaces all the stored ones (pets and sort go back to Any).
    await gotoHydrated(page, `/properties?q=${w}`);
    await expect(page.getByLabel("Pets")).toHaveValue("");
    await expect(page.getByLabel("Sort")).toHaveValue("");
    await expect(count(page)).toHaveText(exactly("2 properties"));

    // Unknown parameters and values are ignored: redirected to the URL without them.
    const res = await fetch(siteURL(`/properties?beds=9&pets=birds&sort=cheap&q=${w}&x=1`), {
      redirect: "manual",
    });
    expect(res.status).toBe(308);
    expect(res.headers.get("location")).toBe(`/properties?q=${w}`);
  });

  test("'Copy link to this search' copies a link that opens the same search", async ({
    page,
    newPage,
    seedListing,
  }) => {
    const w = word();
    await seedListing("properties", { address: `30 Gum Court ${w}`, description: w, bedrooms: 2 });
    await seedListing("properties", { address: `31 Gum Court ${w}`, description: w, bedrooms: 1 });
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await gotoHydrated(page, "/properties");
    await page.getByLabel("Search", { exact: true }).fill(w);
    await page.getByLabel("Bedrooms").selectOption({ label: "2+" });
    await expect.poll(() => shown(page)).toEqual([`30 Gum Court ${w}`]);
    await page.getByRole("button", { name: "Copy link to this search" }).click();
    await expect(page.getByText("Link copied.")).toBeVisible();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    const url = new URL(link);
    expect(url.pathname).toBe("/properties");
    expect(url.searchParams.get("beds")).toBe("2");
    expect(url.searchParams.get("q")).toBe(w);
    const other = await newPage();
    await gotoHydrated(other, url.pathname + url.search);
    await expect.poll(() => shown(other)).toEqual([`30 Gum Court ${w}`]);
  });

  test("a control chosen, then the search box at once: what is typed goes into the search box", async ({
    page,
  }) => {
    // React renders in tasks it posts to itself (a MessageChannel): held here, the moment
    // between the bar's takeover being decided and the real bar being put in place, a few
    // milliseconds on a busy machine, lasts until the test lets it go.
    await page.addInitScript(() => {
      const post = MessagePort.prototype.postMessage;
      const w = window as unknown as { held: (() => void)[] | null };
      w.held = null;
      MessagePort.prototype.postMessage = function (this: MessagePort, ...args: unknown[]) {
        const send = () => Reflect.apply(post, this, args);
        if (w.held) w.held.push(send);
        else send();
      } as typeof post;
    });
    await gotoHydrated(page, "/properties?filter=available");
    const type = page.getByLabel("Property Type");
    // Focusing the server's bar fetches the search code.
    const code = page.waitForResponse((r) => r.url().includes("list-search-live"));
    await type.focus();
    await (await code).finished();
    // As fast hands would: Commercial chosen, then the search box focused before the real bar
    // replaced the server's.
    await page.evaluate(async () => {
      const w = window as unknown as { held: (() => void)[] | null };
      const select = document.querySelector<HTMLSelectElement>("select[name=type]");
      const search = document.querySelector<HTMLInputElement>("input[name=q]");
      if (!select || !search) throw new Error("no server bar");
      w.held = [];
      select.value = "Commercial";
      select.dispatchEvent(new Event("input", { bubbles: true }));
      select.dispatchEvent(new Event("change", { bubbles: true }));
      // The takeover has been decided once React asks for a render.
      while (w.held.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      search.focus();
      search.select();
      const held = w.held;
      w.held = null;
      for (const send of held) send();
      while (search.isConnected) await new Promise(requestAnimationFrame);
    });
    const w = word();
    await page.keyboard.insertText(w);
    await expect(page.getByLabel("Search", { exact: true })).toHaveValue(w);
    await expect(type).toHaveValue("Commercial");
    await expect(page.locator(".empty p")).toHaveText(
      exactly("No properties match these filters."),
    );
  });

  test("no match: the message and 'Clear filters', which resets every control, the spec's two included", async ({
    page,
  }) => {
    await gotoHydrated(page, "/properties?filter=available");
    await page.getByLabel("Property Type").selectOption("Commercial");
    // Typed at once, as a hurried visitor would, while the bar's code may still be taking over.
    await page.getByLabel("Search", { exact: true }).fill(word());
    await expect(page.locator(".empty p")).toHaveText(
      exactly("No properties match these filters."),
    );
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect(page.getByLabel("Only show available properties")).not.toBeChecked();
    await expect(page.getByLabel("Property Type")).toHaveValue("");
    await expect(page.getByLabel("Search", { exact: true })).toHaveValue("");
    await expect(count(page)).toBeVisible();
    // Kept by the search code, which 'Clear filters' may have had to load first: waited for.
    await expect
      .poll(() =>
        page.evaluate(() => ({
          available: sessionStorage.getItem("filterAvailable"),
          type: sessionStorage.getItem("selectedPropertyType"),
          rest: sessionStorage.getItem("propertySearch"),
        })),
      )
      .toEqual({ available: "false", type: "", rest: "" });
  });

  test("the filter bar never leaves the page while its code takes over (keys typed then would be lost)", async ({
    page,
  }) => {
    await gotoHydrated(page, "/properties?filter=available");
    // Whether the page was ever without a search box from here on (keystrokes would go nowhere).
    await page.evaluate(() => {
      const w = window as unknown as { barGone: boolean };
      w.barGone = false;
      new MutationObserver(() => {
        if (!document.querySelector("input[name=q]")) w.barGone = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.getByLabel("Property Type").selectOption("Commercial");
    await expect
      .poll(async () =>
        decodeURIComponent(
          (await page.context().cookies()).find((c) => c.name === "propertySearch")?.value ?? "",
        ),
      )
      .toContain("Commercial");
    expect(await page.evaluate(() => (window as unknown as { barGone: boolean }).barGone)).toBe(
      false,
    );
    await expect(page.getByLabel("Property Type")).toHaveValue("Commercial");
  });

  test("24 cards at first; 'Show more' appends the next ones in place and moves focus", async ({
    page,
    seedListing,
  }) => {
    const w = word();
    for (let i = 1; i <= 26; i++) {
      await seedListing("properties", {
        address: `${i} Holly Street ${w}`,
        description: w,
        bedrooms: i,
      });
    }
    await gotoHydrated(page, `/properties?q=${w}&sort=beds-desc`);
    await expect(count(page)).toHaveText(exactly("26 properties"));
    await expect(page.locator(CARD_TITLES)).toHaveCount(24);
    await page.getByRole("link", { name: "Show more" }).click();
    await expect(page.locator(CARD_TITLES)).toHaveCount(26);
    await expect(page.getByRole("link", { name: "Show more" })).toHaveCount(0);
    // Most bedrooms first: the 25th card is the one with 2.
    await expect(page.locator(CARD_TITLES).nth(24)).toHaveText(exactly(`2 Holly Street ${w}`));
    await expect(page.locator("ul.card-grid li.card > a").nth(24)).toBeFocused();
    await expect(page).toHaveURL((url) => url.searchParams.get("page") === null);
  });
});

test.describe("search without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the filter bar is a GET form with 'Apply filters'; 'Show more' is a real link", async ({
    page,
    seedListing,
  }) => {
    const w = word();
    for (let i = 1; i <= 25; i++) {
      await seedListing("properties", {
        address: `${i} Ivy Road ${w}`,
        description: w,
        bedrooms: i > 20 ? 4 : 1,
      });
    }
    await page.goto("/properties");
    await page.getByLabel("Search", { exact: true }).fill(w);
    await page.getByLabel("Bedrooms").selectOption({ label: "4+" });
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(count(page)).toHaveText(exactly("5 properties"));
    await expect(page.getByLabel("Bedrooms")).toHaveValue("4");
    await page.goto(`/properties?q=${w}`);
    await expect(page.locator(CARD_TITLES)).toHaveCount(24);
    await page.getByRole("link", { name: "Show more" }).click();
    await expect(page).toHaveURL((url) => url.searchParams.get("page") === "2");
    await expect(page.locator(CARD_TITLES)).toHaveCount(1);
    await expect(count(page)).toHaveText(exactly("25 properties"));
  });
});

test.describe("/new-construction search", () => {
  test("'Bedrooms', 'Search' and 'Sort' (Newest, Most bedrooms), '{n} listings'", async ({
    page,
    seedListing,
  }) => {
    const w = word();
    await seedListing("newConstruction", {
      address: `40 Juniper Ct ${w}`,
      description: w,
      bedrooms: 2,
    });
    await seedListing("newConstruction", {
      address: `41 Juniper Ct ${w}`,
      description: w,
      bedrooms: 4,
    });
    await gotoHydrated(page, "/new-construction");
    await expect(heading(page)).toHaveText(exactly("New Construction"));
    await expect(page.getByLabel("Bathrooms")).toHaveCount(0);
    await expect(page.getByLabel("Pets")).toHaveCount(0);
    await expect(page.getByLabel("Sort").locator("option")).toHaveText(["Newest", "Most bedrooms"]);
    await page.getByLabel("Search", { exact: true }).fill(w);
    await expect(count(page)).toHaveText(exactly("2 listings"));
    await page.getByLabel("Sort").selectOption({ label: "Most bedrooms" });
    await expect.poll(() => shown(page)).toEqual([`41 Juniper Ct ${w}`, `40 Juniper Ct ${w}`]);
    await page.getByLabel("Bedrooms").selectOption({ label: "3+" });
    await expect(count(page)).toHaveText(exactly("1 listing"));
    await page.getByLabel("Bedrooms").selectOption({ label: "5+" });
    await expect(page.locator(".empty p")).toHaveText(exactly("No listings match these filters."));
    const { html } = await fetchHtml(`/new-construction?beds=5&q=${w}`);
    expect(html).toContain("No listings match these filters.");
  });
});
