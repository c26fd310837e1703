// The 'Listing check' (docs/behaviour.md §29): warnings about a listing as written, shown by the
// Add and Edit forms as staff type, answered by the API with every save and listed by the CSV
// dry run. One function for all three, so the browser and the server never disagree. Warnings
// never block a save (the spec has no required-field checks).
import { FAIR_HOUSING_GROUNDS } from "./fair-housing-phrases";
import { FEED_GOOD_PHOTOS, type FeedListing, HOTPADS_REQUIREMENTS } from "./listing-feeds";
import type { Collection } from "./listing-kinds";

/** What the check reads: a listing's fields as written, and its photos' captions in order. */
export type CheckedListing = Omit<
  FeedListing,
  "collection" | "id" | "currently_available" | "image_urls"
> & {
  thumbnail_description?: string | null;
  /**
   * Each photo's caption, in the photos' order ('' for none); absent where the photos are not
   * part of what is checked (a CSV row: photos are added afterwards), so no photo advice.
   */
  captions?: readonly string[];
};

export interface ListingWarning {
  kind: "fair-housing" | "feeds" | "contact";
  text: string;
}

export const CONTACT_IN_DESCRIPTION =
  "Put phone numbers and e-mail addresses in the contact panel, not the description.";

/** A phrase as a pattern: whole words, any case, spaces or hyphens between its words. */
function phrasePattern(phrase: string): RegExp {
  const words = phrase
    .split(/[\s-]+/)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[\\s-]+");
  return new RegExp(`(?<![\\p{L}\\p{N}])${words}(?![\\p{L}\\p{N}])`, "giu");
}

const FAIR_HOUSING_PATTERNS = FAIR_HOUSING_GROUNDS.flatMap((ground) =>
  ground.phrases.map((phrase) => ({ ground, pattern: phrasePattern(phrase) })),
);

// A North American phone number (10 digits, grouped as people write them) or an e-mail address.
const PHONE = /(?<!\d)(?:\+?1[\s.-]?)?(?:\(\d{3}\)|\d{3})[\s.-]?\d{3}[\s.-]?\d{4}(?!\d)/;
const EMAIL = /[^\s@<>()]+@[^\s@<>()]+\.[a-z]{2,}/i;

/**
 * The fair-housing warnings of a text, in the order the phrases appear, quoted as written. A
 * phrase inside a longer one found ("couples only" in "married couples only") is not repeated.
 */
export function fairHousingWarnings(text: string): string[] {
  const found: { start: number; end: number; warning: string }[] = [];
  for (const { ground, pattern } of FAIR_HOUSING_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      found.push({
        start,
        end: start + match[0].length,
        warning: `Fair housing: "${match[0]}" may ${ground.effect}. ${ground.instead}`,
      });
    }
  }
  const kept = found
    .sort((a, b) => b.end - b.start - (a.end - a.start))
    .filter((m, i, all) => !all.slice(0, i).some((o) => o.start <= m.start && m.end <= o.end))
    .sort((a, b) => a.start - b.start);
  return [...new Set(kept.map((m) => m.warning))];
}

/** 'photo 2 has', 'photos 2 and 3 have', 'photos 1, 2 and 4 have'. */
function photosHave(numbers: number[]): string {
  if (numbers.length === 1) return `photo ${numbers[0]} has`;
  return `photos ${numbers.slice(0, -1).join(", ")} and ${numbers[numbers.length - 1]} have`;
}

/** How ready a property is for the HotPads feed, as advice ('Feeds: add a ZIP code'). */
function feedWarnings(listing: CheckedListing, collection: Collection): string[] {
  // Constructions are never in the network's feed; the office contact is the site settings'.
  if (collection !== "properties") return [];
  const captions = listing.captions;
  const asFed: FeedListing = {
    ...listing,
    collection,
    id: "",
    currently_available: true,
    image_urls: (captions ?? [""]).map((_, i) => String(i)),
  };
  const advice = HOTPADS_REQUIREMENTS.filter(
    (r) => r.field !== "contact" && r.fails(asFed, { name: "", email: "", phone: "" }),
  ).map((r) => r.advice);
  if (captions !== undefined) {
    if (captions.length < FEED_GOOD_PHOTOS)
      advice.push(`Feeds: add at least ${FEED_GOOD_PHOTOS} photos`);
    const uncaptioned = captions.flatMap((c, i) => (c.trim() === "" ? [i + 1] : []));
    if (uncaptioned.length > 0) advice.push(`Feeds: ${photosHave(uncaptioned)} no caption`);
  }
  return [...new Set(advice)];
}

/** Every warning about a listing as written, in the panel's order. */
export function checkListing(collection: Collection, listing: CheckedListing): ListingWarning[] {
  // Each text on its own: a phrase never runs from one text into the next.
  const texts = [listing.description, listing.thumbnail_description, ...(listing.captions ?? [])];
  const fairHousing = [
    ...new Set(
      texts
        .filter((t): t is string => typeof t === "string" && t.trim() !== "")
        .flatMap(fairHousingWarnings),
    ),
  ];
  const warnings: ListingWarning[] = [
    ...fairHousing.map((text) => ({
      kind: "fair-housing" as const,
      text,
    })),
    ...feedWarnings(listing, collection).map((text) => ({ kind: "feeds" as const, text })),
  ];
  const description = listing.description ?? "";
  if (PHONE.test(description) || EMAIL.test(description))
    warnings.push({ kind: "contact", text: CONTACT_IN_DESCRIPTION });
  return warnings;
}

/** The warnings' texts, as the API and the CSV dry run answer them. */
export function listingWarnings(collection: Collection, listing: CheckedListing): string[] {
  return checkListing(collection, listing).map((w) => w.text);
}
