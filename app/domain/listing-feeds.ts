// What the listing feeds may say about a listing, and what the HotPads (Zillow rental network)
// feed requires of one (docs/behaviour.md §28; docs/decisions/0066-listing-feeds.md). The
// requirements are declared once, here: the feed leaves out what fails them, the 'Listing
// feeds' page lists the reasons, and the writing check will show their advice.
import type { Listing } from "./listing";
import { rentOf, stateCode } from "./listing-facts";

/** The fields the feeds read of a listing. */
export type FeedListing = Pick<
  Listing,
  | "collection"
  | "id"
  | "address"
  | "bedrooms"
  | "bathrooms"
  | "description"
  | "price"
  | "property_type"
  | "currently_available"
  | "image_urls"
> &
  Partial<Pick<Listing, "city" | "state" | "zip">>;

/** Who renters reach about every listing: the office, from the site settings. */
export interface FeedContact {
  name: string;
  email: string;
  phone: string;
}

/** A property offered now: the spec's 'Available' (docs/behaviour.md §2). Constructions never are. */
export function isAvailableProperty(listing: Pick<Listing, "collection" | "currently_available">) {
  return listing.collection === "properties" && listing.currently_available === true;
}

/** The least number of photos a listing needs to be sent to the network. */
export const FEED_MIN_PHOTOS = 1;

/** How many photos the network's listings should have (fewer are sent, but rank lower). */
export const FEED_GOOD_PHOTOS = 3;

export interface FeedRequirement {
  /** The field to fix (a listing field, or `contact` for the site settings). */
  field: string;
  /** Why a listing is left out, as the 'Listing feeds' page says it ('no ZIP code'). */
  reason: string;
  /** What to do about it, as a check while writing says it ('Feeds: add a ZIP code'). */
  advice: string;
  /** Whether a listing (with the office contact) fails this requirement. */
  fails(listing: FeedListing, contact: FeedContact): boolean;
}

const blank = (text: string | null | undefined) => (text ?? "").trim() === "";

/**
 * What the HotPads feed requires of an available property, in the order the page lists them:
 * the network takes long-term homes only, and drops a listing without a full address, a
 * monthly rent, bedrooms, bathrooms or a way to reach the landlord.
 */
export const HOTPADS_REQUIREMENTS: readonly FeedRequirement[] = [
  {
    field: "property_type",
    reason: "a commercial property (the network lists homes)",
    advice: "Feeds: commercial properties are not sent",
    fails: (l) => l.property_type === "Commercial",
  },
  {
    field: "property_type",
    reason: "a vacation rental (the network lists long-term rentals)",
    advice: "Feeds: vacation rentals are not sent",
    fails: (l) => l.property_type === "Vacation",
  },
  {
    field: "address",
    reason: "no street address",
    advice: "Feeds: add the street address",
    fails: (l) => blank(l.address),
  },
  { field: "city", reason: "no city", advice: "Feeds: add a city", fails: (l) => blank(l.city) },
  {
    field: "state",
    reason: "no state",
    advice: "Feeds: add a state",
    fails: (l) => blank(l.state) || stateCode(l.state ?? "") === null,
  },
  {
    field: "zip",
    reason: "no ZIP code",
    advice: "Feeds: add a ZIP code",
    fails: (l) => blank(l.zip),
  },
  {
    field: "price",
    reason: "no price",
    advice: "Feeds: add a price",
    fails: (l) => blank(l.price),
  },
  {
    field: "price",
    reason: "a price that is not a number",
    advice: "Feeds: write the price in digits only (2500)",
    fails: (l) => !blank(l.price) && rentOf(l.price?.trim()) === null,
  },
  {
    field: "bedrooms",
    reason: "no bedrooms",
    advice: "Feeds: add the number of bedrooms",
    fails: (l) => l.bedrooms == null,
  },
  {
    field: "bathrooms",
    reason: "no bathrooms",
    advice: "Feeds: add the number of bathrooms",
    fails: (l) => l.bathrooms == null || !(l.bathrooms > 0),
  },
  {
    field: "description",
    reason: "no description",
    advice: "Feeds: add a description",
    fails: (l) => blank(l.description),
  },
  {
    field: "image_urls",
    reason: "no photos",
    advice: `Feeds: add at least ${FEED_GOOD_PHOTOS} photos`,
    fails: (l) => l.image_urls.length < FEED_MIN_PHOTOS,
  },
  {
    field: "contact",
    reason: "no office e-mail in the site settings",
    advice: "Feeds: add the office e-mail on the site settings page",
    fails: (_, c) => blank(c.email),
  },
  {
    field: "contact",
    reason: "no office phone in the site settings",
    advice: "Feeds: add the office phone on the site settings page",
    fails: (_, c) => blank(c.phone),
  },
];

/**
 * The requirements of the HotPads feed a listing fails: none for a listing the feed sends. A
 * listing that is not an available property is not offered at all, and fails none.
 */
export function hotpadsGaps(listing: FeedListing, contact: FeedContact): FeedRequirement[] {
  if (!isAvailableProperty(listing)) return [];
  return HOTPADS_REQUIREMENTS.filter((r) => r.fails(listing, contact));
}

/** Whether the HotPads feed sends this listing. */
export function inHotpadsFeed(listing: FeedListing, contact: FeedContact): boolean {
  return isAvailableProperty(listing) && hotpadsGaps(listing, contact).length === 0;
}

/** Bathrooms as the network counts them: whole ones full, any fraction one half bath (2.5 → 2 + 1). */
export function bathCounts(bathrooms: number): { full: number; half: number } {
  const full = Math.floor(bathrooms);
  return { full, half: bathrooms - full > 0 ? 1 : 0 };
}

/**
 * The city and state of an address written '{street}, {city}, {ST} {ZIP}' (the office address
 * of the site settings); null parts when it is written otherwise.
 */
export function cityAndState(address: string | null | undefined): {
  city: string | null;
  state: string | null;
} {
  const parts = (address ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length < 3) return { city: null, state: null };
  const last = parts[parts.length - 1] as string;
  const state = stateCode(last.replace(/\s+\d{5}(-\d{4})?$/, ""));
  if (state === null) return { city: null, state: null };
  return { city: parts[parts.length - 2] as string, state };
}

/** The price a public page shows: a property's, only while it is available (docs/behaviour.md §2). */
export function publicPrice(
  listing: Pick<Listing, "collection" | "currently_available" | "price">,
) {
  return isAvailableProperty(listing) && !blank(listing.price) ? (listing.price as string) : null;
}
