// /feeds/listings.json: every public listing of both kinds, with what its detail page shows and
// nothing more (docs/behaviour.md §28 documents every field). A property's price and reservation
// link are there only while it is available, as on its page.

import { rentOf } from "~/domain/listing-facts";
import { cityAndState, isAvailableProperty, publicPrice } from "~/domain/listing-feeds";
import { KINDS, listingPath } from "~/domain/listing-kinds";
import type { FeedRow, FeedSnapshot } from "./feed-data.server";
import { FEEDS, type FeedOrigins, photoUrl, siteUrl } from "./feed-parts";

/** The shape's version: a field removed or changing meaning moves it on; one added does not. */
export const LISTINGS_JSON_VERSION = 1;

export function buildListingsJson(snapshot: FeedSnapshot, origins: FeedOrigins) {
  const { content } = snapshot;
  const office = cityAndState(content.office.address);
  const listings = snapshot.listings.map((l) => listingEntry(l, origins));
  const document = {
    version: LISTINGS_JSON_VERSION,
    title: `${content.name} listings`,
    home_page_url: siteUrl(origins, "/"),
    feed_url: siteUrl(origins, FEEDS["listings-json"].path),
    company: {
      name: content.name,
      website: siteUrl(origins, "/"),
      email: content.office.email,
      phone: content.office.phone,
      city: office.city,
      state: office.state,
      logo: photoUrl(origins, content.logo.src),
    },
    count: listings.length,
    listings,
  };
  return { body: `${JSON.stringify(document, null, 2)}\n`, count: listings.length };
}

function listingEntry(l: FeedRow, origins: FeedOrigins) {
  const property = KINDS[l.collection].hasOffer;
  const available = isAvailableProperty(l);
  const price = publicPrice(l);
  const entry: Record<string, unknown> = {
    kind: property ? "property" : "construction",
    id: l.id,
    url: siteUrl(origins, listingPath(l.collection, l.id)),
    address: l.address.trim(),
    city: l.city ?? null,
    state: l.state ?? null,
    zip: l.zip ?? null,
    property_type: l.property_type,
    bedrooms: l.bedrooms ?? null,
    bathrooms: l.bathrooms ?? null,
    square_feet: l.square_feet ?? null,
    summary: l.thumbnail_description,
    description: l.description,
    photos: l.image_urls.map((url) => ({
      url: photoUrl(origins, url),
      caption: l.image_captions[url]?.trim() || null,
    })),
    created_at: l.created_at,
    updated_at: l.updated_at,
  };
  if (property) {
    entry.available = available;
    entry.price = price;
    entry.rent = rentOf(price);
    entry.reserve_url =
      available && l.property_type === "Vacation" ? (l.reserve_url ?? null) : null;
    entry.pets = l.pets ?? null;
    entry.available_from = l.available_from ?? null;
  }
  return entry;
}
