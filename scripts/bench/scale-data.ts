// The listings of the scale benchmark (docs/architecture.md, "Speed and search"): 8,000 properties and 2,000 new
// constructions, made by a seeded generator so every run loads the same rows. Dates are counted
// from the day of the run (`today`), so the 'Available by' filter ~60 days ahead always selects
// a similar share of them.
import { listingKey } from "~/domain/listing";
import type { PetPolicy } from "~/domain/listing-facts";
import type { Collection, PropertyType } from "~/domain/listing-kinds";
import type { ListingInput } from "~/features/listings/queries.server";

export interface ScaleListing {
  collection: Collection;
  id: string;
  input: Omit<ListingInput, "image_urls">;
  /** How many of the shared photos it shows (0–3). */
  photos: number;
}

/** mulberry32: small, fast and the same on every machine. */
export function seededRandom(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(r: Random, items: readonly T[]): T => items[Math.floor(r() * items.length)] as T;
const between = (r: Random, min: number, max: number) => min + Math.floor(r() * (max - min + 1));

/** A small list of real places (city, state, ZIP codes) around the company's area. */
const PLACES: readonly { city: string; state: string; zips: string[] }[] = [
  { city: "Arlington", state: "VA", zips: ["22201", "22203", "22207", "22209"] },
  { city: "Alexandria", state: "VA", zips: ["22301", "22304", "22314"] },
  { city: "Fairfax", state: "VA", zips: ["22030", "22031", "22032"] },
  { city: "Falls Church", state: "VA", zips: ["22042", "22046"] },
  { city: "Reston", state: "VA", zips: ["20190", "20191"] },
  { city: "Richmond", state: "VA", zips: ["23220", "23221"] },
  { city: "Bethesda", state: "MD", zips: ["20814", "20817"] },
  { city: "Silver Spring", state: "MD", zips: ["20901", "20910"] },
  { city: "Washington", state: "DC", zips: ["20001", "20009", "20016"] },
  { city: "Corolla", state: "NC", zips: ["27927"] },
  { city: "Kill Devil Hills", state: "NC", zips: ["27948"] },
];
const STREETS = [
  "Oak",
  "Maple",
  "Cedar",
  "Wilson",
  "Glebe",
  "Kenmore",
  "Lee",
  "Washington",
  "Columbia",
  "Chain Bridge",
  "Ocean Trail",
  "Lighthouse",
  "Clarendon",
  "Fairfax",
  "Jefferson",
  "Randolph",
  "Highland",
  "Walnut",
  "Duke",
  "King",
];
const SUFFIXES = ["Street", "Road", "Avenue", "Drive", "Lane", "Court", "Boulevard", "Place"];
const OPENINGS: Record<PropertyType, string[]> = {
  Residential: [
    "Bright {beds}-bedroom home on a quiet, tree-lined street",
    "Renovated {beds}-bedroom colonial close to shops and the Metro",
    "Charming {beds}-bedroom brick rambler with a large yard",
    "Modern {beds}-bedroom townhouse in a walkable neighborhood",
  ],
  Commercial: [
    "Well-kept office suite with private offices and a conference room",
    "Street-level retail space with high foot traffic",
    "Flexible commercial space with loading access and ample parking",
  ],
  Vacation: [
    "Oceanfront {beds}-bedroom beach house with private beach access",
    "Soundside {beds}-bedroom cottage with sunset views",
    "Relaxing {beds}-bedroom retreat a short walk from the beach",
  ],
};
const FEATURES = [
  "Hardwood floors throughout the main level",
  "Updated kitchen with stainless steel appliances and a gas range",
  "Granite counters and a large island with seating",
  "Washer and dryer in the unit",
  "Central air conditioning and a new high-efficiency furnace",
  "Fenced back yard with a stone patio",
  "Off-street parking for two cars",
  "Finished basement with a recreation room and extra storage",
  "Walk-in closets in every bedroom",
  "Screened porch overlooking the garden",
  "Ten minutes' walk to the Metro and bus lines",
  "Close to schools, parks and the farmers market",
  "Freshly painted with new light fixtures",
  "Large windows with plenty of natural light",
  "Primary suite with a spa-like bathroom",
  "Attached garage with an electric vehicle charger",
];
const COMMERCIAL_FEATURES = [
  "Hardwood floors in the reception area and conference room",
  "Six private offices and an open work area",
  "Kitchenette and two restrooms on the floor",
  "Fiber internet already wired to every office",
  "Loading dock and freight elevator",
  "Ample free parking for staff and visitors",
  "Signage on the building's street front",
  "Close to the highway and the Metro",
];
const CLOSINGS = [
  "Tenant pays electricity and gas; water and trash included.",
  "Minimum twelve-month lease; shorter terms considered.",
  "Schedule a showing today; applications are reviewed as they arrive.",
  "Professionally managed with an online portal for payments and repairs.",
];
const NON_NUMERIC_PRICES = ["Call for pricing", "Contact us", "Price on request"];
const PETS: readonly PetPolicy[] = ["none", "cats", "dogs", "cats-and-dogs"];
/** Half steps from 1 to 4. */
const BATHROOMS = [1, 1.5, 2, 2.5, 3, 3.5, 4];

/** The word the benchmark's 'Search' filter looks for; in about 4 of 10 descriptions. */
export const SEARCH_WORD = "hardwood";

function description(r: Random, type: PropertyType, beds: number | null): string {
  const size = beds ? `${beds}-bedroom` : "studio";
  const lines = [pick(r, OPENINGS[type]).replace("{beds}-bedroom", size)];
  const features = [...(type === "Commercial" ? COMMERCIAL_FEATURES : FEATURES)];
  // "Hardwood" first in 40 % of them, so `?q=hardwood` matches many but not all.
  if (r() >= 0.4) features.shift();
  else lines.push(features.shift() as string);
  for (let n = between(r, 2, Math.min(5, features.length - 1)); n > 0; n--) {
    lines.push(features.splice(1 + Math.floor(r() * (features.length - 1)), 1)[0] as string);
  }
  lines.push(pick(r, CLOSINGS));
  return lines.join("\n");
}

function isoDay(today: Date, offsetDays: number): string {
  return new Date(today.getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** `properties` properties and `constructions` new constructions, the same for the same seed. */
export function scaleListings(
  options: { properties?: number; constructions?: number; seed?: number; today?: Date } = {},
): ScaleListing[] {
  const { properties = 8000, constructions = 2000, seed = 20, today = new Date() } = options;
  const r = seededRandom(seed);
  const taken = new Set<string>();
  const listings: ScaleListing[] = [];
  for (let i = 0; i < properties + constructions; i++) {
    const collection: Collection = i < properties ? "properties" : "newConstruction";
    const isProperty = collection === "properties";
    const roll = r();
    const type: PropertyType = roll < 0.7 ? "Residential" : roll < 0.85 ? "Commercial" : "Vacation";
    const place = pick(r, PLACES);
    let address = `${between(r, 100, 9999)} ${pick(r, STREETS)} ${pick(r, SUFFIXES)}`;
    for (let unit = 2; taken.has(listingKey(address)); unit++) {
      address = `${address.replace(/ Unit \d+$/, "")} Unit ${unit}`;
    }
    const id = listingKey(address);
    taken.add(id);
    const beds = type === "Commercial" ? null : between(r, 0, 6);
    const priceRoll = r();
    const price = !isProperty
      ? null
      : priceRoll < 0.1
        ? pick(r, NON_NUMERIC_PRICES)
        : priceRoll < 0.15
          ? `${between(r, 48, 260) * 25}.00`
          : String(between(r, 48, 260) * 25);
    listings.push({
      collection,
      id,
      photos: r() < 0.05 ? 0 : between(r, 1, 3),
      input: {
        address,
        bedrooms: beds,
        bathrooms: pick(r, BATHROOMS),
        description: description(r, type, beds),
        thumbnail_description: `${type} listing in ${place.city}`,
        property_type: type,
        currently_available: isProperty ? r() < 0.6 : null,
        price,
        reserve_url:
          isProperty && type === "Vacation" ? `https://www.example.com/reserve/${id}` : null,
        square_feet: type === "Commercial" ? between(r, 800, 20000) : between(r, 450, 4500),
        city: place.city,
        state: place.state,
        zip: pick(r, place.zips),
        pets: isProperty ? pick(r, PETS) : null,
        available_from: isProperty ? isoDay(today, between(r, -30, 180)) : null,
      },
    });
  }
  return listings;
}
