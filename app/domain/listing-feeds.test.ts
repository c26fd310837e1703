import { describe, expect, it } from "vitest";
import {
  bathCounts,
  cityAndState,
  type FeedContact,
  type FeedListing,
  HOTPADS_REQUIREMENTS,
  hotpadsGaps,
  inHotpadsFeed,
  isAvailableProperty,
  publicPrice,
} from "./listing-feeds";

const contact: FeedContact = { name: "Office", email: "office@example.com", phone: "703-555-0100" };

const complete: FeedListing = {
  collection: "properties",
  id: "12-elm-street",
  address: "12 Elm Street",
  city: "Arlington",
  state: "VA",
  zip: "22201",
  price: "2500",
  bedrooms: 3,
  bathrooms: 2.5,
  description: "Sunny house.",
  property_type: "Residential",
  currently_available: true,
  image_urls: ["/images/properties/12-elm-street/image_1_0.jpg"],
};

const reasons = (l: FeedListing, c = contact) => hotpadsGaps(l, c).map((r) => r.reason);

describe("HotPads requirements (docs/behaviour.md §28)", () => {
  it("send an available property that has everything", () => {
    expect(reasons(complete)).toEqual([]);
    expect(inHotpadsFeed(complete, contact)).toBe(true);
  });

  it.each([
    [{ zip: null }, ["no ZIP code"]],
    [{ zip: undefined }, ["no ZIP code"]],
    [{ city: "  " }, ["no city"]],
    [{ state: null }, ["no state"]],
    [{ image_urls: [] }, ["no photos"]],
    [{ price: null }, ["no price"]],
    [{ price: "Call us" }, ["a price that is not a number"]],
    [{ bedrooms: null }, ["no bedrooms"]],
    [{ bedrooms: 0 }, []],
    [{ bathrooms: null }, ["no bathrooms"]],
    [{ bathrooms: 0 }, ["no bathrooms"]],
    [{ description: "" }, ["no description"]],
    [{ address: " " }, ["no street address"]],
    [{ property_type: "Commercial" }, ["a commercial property (the network lists homes)"]],
    [{ property_type: "Vacation" }, ["a vacation rental (the network lists long-term rentals)"]],
    [
      { zip: null, image_urls: [], price: null },
      ["no price", "no ZIP code", "no photos"].sort(
        (a, b) =>
          HOTPADS_REQUIREMENTS.findIndex((r) => r.reason === a) -
          HOTPADS_REQUIREMENTS.findIndex((r) => r.reason === b),
      ),
    ],
  ] as [Partial<FeedListing>, string[]][])("%j → %j", (change, expected) => {
    expect(reasons({ ...complete, ...change })).toEqual(expected);
    expect(inHotpadsFeed({ ...complete, ...change }, contact)).toBe(expected.length === 0);
  });

  it("need the office e-mail and phone of the site settings", () => {
    expect(reasons(complete, { ...contact, email: "", phone: " " })).toEqual([
      "no office e-mail in the site settings",
      "no office phone in the site settings",
    ]);
  });

  it("give each requirement advice for the listing check ('Feeds: add a ZIP code')", () => {
    const zip = hotpadsGaps({ ...complete, zip: null }, contact);
    expect(zip.map((r) => [r.field, r.advice])).toEqual([["zip", "Feeds: add a ZIP code"]]);
    for (const r of HOTPADS_REQUIREMENTS) expect(r.advice).toMatch(/^Feeds: /);
  });

  it("are not asked of listings the feed never offers (not available, constructions)", () => {
    const bare = { ...complete, zip: null, image_urls: [] };
    expect(reasons({ ...bare, currently_available: false })).toEqual([]);
    expect(inHotpadsFeed({ ...complete, currently_available: false }, contact)).toBe(false);
    expect(inHotpadsFeed({ ...complete, collection: "newConstruction" }, contact)).toBe(false);
    expect(isAvailableProperty({ collection: "properties", currently_available: null })).toBe(
      false,
    );
  });
});

describe("bathCounts", () => {
  it.each([
    [2, { full: 2, half: 0 }],
    [2.5, { full: 2, half: 1 }],
    [0.5, { full: 0, half: 1 }],
    [1.75, { full: 1, half: 1 }],
  ])("%d → %j", (baths, counts) => expect(bathCounts(baths)).toEqual(counts));
});

describe("cityAndState", () => {
  it.each([
    ["1000 N Example Boulevard, Arlington, VA 22201", { city: "Arlington", state: "VA" }],
    ["1 Main St, Suite 4, Fairfax, Virginia", { city: "Fairfax", state: "VA" }],
    ["5 Rue, Łódź, va 22201-1234", { city: "Łódź", state: "VA" }],
    ["1000 N Example Boulevard Arlington VA", { city: null, state: null }],
    ["1 A, B, Nowhere 12345", { city: null, state: null }],
    ["", { city: null, state: null }],
  ])("%j → %j", (address, expected) => expect(cityAndState(address)).toEqual(expected));
});

describe("publicPrice: what the detail page shows", () => {
  it("is the price of an available property only", () => {
    expect(publicPrice(complete)).toBe("2500");
    expect(publicPrice({ ...complete, currently_available: false })).toBeNull();
    expect(publicPrice({ ...complete, price: "" })).toBeNull();
    expect(publicPrice({ ...complete, collection: "newConstruction" })).toBeNull();
  });
});
