import type { ListingFieldValues } from "./listing-fields";
import type { Collection } from "./listing-kinds";

/**
 * One record of either collection: its key, its photos, and the fields of listing-fields.ts
 * (the spec's, docs/behaviour.md §3, and the facts, absent in records made before them).
 * Property-only fields are null for constructions.
 */
export interface Listing extends ListingFieldValues {
  id: string;
  collection: Collection;
  image_urls: string[];
  thumbnail_image_url: string | null;
  /** Each photo's caption by its URL (docs/behaviour.md §20); a photo without one has none. */
  image_captions?: Record<string, string>;
  /**
   * The day (YYYY-MM-DD, UTC) staff last confirmed the status: a save, a toggle or 'Still
   * available' (docs/behaviour.md §30). Absent where a query does not read it.
   */
  availability_checked_on?: string;
}

/** What a list card needs: the card fields of docs/behaviour.md §2, the link information, availability and price. */
export type ListingSummary = Pick<
  Listing,
  | "id"
  | "collection"
  | "address"
  | "bedrooms"
  | "bathrooms"
  | "thumbnail_image_url"
  | "thumbnail_description"
  | "property_type"
  | "currently_available"
  | "price"
>;

/**
 * The record key derived from an address: lowercased, spaces turned into hyphens,
 * the characters . # $ [ ] removed. Every space becomes its own hyphen, as in the original
 * (so a trailing space gives a trailing hyphen); that keeps keys of existing data stable.
 */
export function listingKey(address: string): string {
  return address
    .toLowerCase()
    .replaceAll(" ", "-")
    .replace(/[.#$[\]]/g, "");
}

/** A photo's alternative text: its caption, else 'Photo {n} of {address}' (n from 1). */
export function photoAlt(
  listing: Pick<Listing, "address" | "image_captions">,
  url: string,
  index: number,
) {
  const caption = listing.image_captions?.[url]?.trim();
  return caption || `Photo ${index + 1} of ${listing.address.trim()}`;
}
