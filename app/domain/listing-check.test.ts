import { describe, expect, it } from "vitest";
import { FAIR_HOUSING_GROUNDS } from "./fair-housing-phrases";
import {
  type CheckedListing,
  CONTACT_IN_DESCRIPTION,
  checkListing,
  fairHousingWarnings,
} from "./listing-check";
import type { Collection } from "./listing-kinds";

const ready: CheckedListing = {
  address: "12 Elm Street",
  city: "Arlington",
  state: "VA",
  zip: "22201",
  price: "2500",
  bedrooms: 3,
  bathrooms: 2,
  description: "Sunny house with a fenced yard.",
  thumbnail_description: "Sunny house",
  property_type: "Residential",
  captions: ["Front", "Kitchen", "Yard"],
};

const texts = (l: CheckedListing, collection: Collection = "properties") =>
  checkListing(collection, l).map((w) => w.text);

describe("the listing check (docs/behaviour.md §29)", () => {
  it("has nothing to say about a complete, neutral property", () => {
    expect(texts(ready)).toEqual([]);
  });

  it("quotes a fair-housing phrase with the issue's own wording", () => {
    expect(texts({ ...ready, description: "Quiet street, no children please." })).toEqual([
      'Fair housing: "no children" may discourage families. Describe the property, not the people.',
    ]);
  });

  it.each([
    ["ADULTS-ONLY building", '"ADULTS-ONLY"', "discourage families"],
    ["Perfect for   singles!", '"Perfect for   singles"', "discourage families"],
    ["A Christian home.", '"Christian home"', "religion"],
    ["Sorry, no wheelchairs", '"no wheelchairs"', "disabilities"],
    ["English speakers only", '"English speakers only"', "national origin"],
    ["No Section 8.", '"No Section 8"', "source of funds"],
  ])("finds %j", (description, quoted, effect) => {
    const [warning, ...rest] = texts({ ...ready, description });
    expect(rest).toEqual([]);
    expect(warning).toContain(`Fair housing: ${quoted} may `);
    expect(warning).toContain(effect);
  });

  it("never runs a phrase from one text into the next", () => {
    expect(texts({ ...ready, description: "No", captions: ["children's room", "b", "c"] })).toEqual(
      [],
    );
  });

  it("matches whole words only", () => {
    expect(fairHousingWarnings("Do not mention menus, no mentions of kidsville")).toEqual([]);
    expect(fairHousingWarnings("Near St. Mary's church and a Christian school")).toEqual([]);
  });

  it("reads the short description and the captions too", () => {
    expect(texts({ ...ready, thumbnail_description: "Adults only" })[0]).toContain('"Adults only"');
    expect(texts({ ...ready, captions: ["Front", "Perfect for singles", "Yard"] })[0]).toContain(
      '"Perfect for singles"',
    );
  });

  it("every phrase of the list is found in a sentence", () => {
    for (const ground of FAIR_HOUSING_GROUNDS) {
      for (const phrase of ground.phrases) {
        const [warning] = fairHousingWarnings(`Lovely flat. ${phrase}. Call us.`);
        expect(warning, phrase).toBe(
          `Fair housing: "${phrase}" may ${ground.effect}. ${ground.instead}`,
        );
      }
    }
  });

  it("gives the feed's advice for what a property lacks", () => {
    expect(texts({ ...ready, zip: null })).toEqual(["Feeds: add a ZIP code"]);
    expect(texts({ ...ready, city: "", state: "Narnia" })).toEqual([
      "Feeds: add a city",
      "Feeds: add a state",
    ]);
    expect(texts({ ...ready, captions: ["Front"] })).toEqual(["Feeds: add at least 3 photos"]);
    expect(texts({ ...ready, captions: [] })).toEqual(["Feeds: add at least 3 photos"]);
    expect(texts({ ...ready, captions: ["Front", "", " ", "Yard"] })).toEqual([
      "Feeds: photos 2 and 3 have no caption",
    ]);
    expect(texts({ ...ready, captions: ["", "Kitchen", "Yard"] })).toEqual([
      "Feeds: photo 1 has no caption",
    ]);
    expect(texts({ ...ready, captions: ["", "", "Yard", ""] })).toEqual([
      "Feeds: photos 1, 2 and 4 have no caption",
    ]);
  });

  it("gives no photo advice where the photos are not checked (a CSV row)", () => {
    expect(texts({ ...ready, captions: undefined })).toEqual([]);
    expect(texts({ ...ready, captions: undefined, zip: "" })).toEqual(["Feeds: add a ZIP code"]);
  });

  it("gives no feed advice for a construction (never in the network's feed)", () => {
    expect(texts({ ...ready, zip: null, captions: [] }, "newConstruction")).toEqual([]);
  });

  it.each([
    "Call 703-555-0100 today",
    "Call (703) 555 0100",
    "Text +1 703.555.0100",
    "Write to leasing@example.com",
  ])("asks for contact details in the contact panel: %j", (description) => {
    expect(texts({ ...ready, description })).toEqual([CONTACT_IN_DESCRIPTION]);
  });

  it.each(["Rent $2,500 a month, deposit 2500", "Built in 1998, 1,250 sq ft", "Unit 12345678"])(
    "does not take figures for phone numbers: %j",
    (description) => {
      expect(texts({ ...ready, description })).toEqual([]);
    },
  );
});
