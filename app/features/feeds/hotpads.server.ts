// /feeds/hotpads.xml: the HotPads listing feed, version 2.1, which the Zillow rental network
// fetches (docs/behaviour.md §28). One <Company>, then one <Listing type="RENTAL"> per available
// property that has everything the format requires (app/domain/listing-feeds.ts).

import { PET_LABELS, type PetPolicy } from "~/domain/listing-facts";
import { bathCounts, cityAndState, type FeedContact, inHotpadsFeed } from "~/domain/listing-feeds";
import { listingPath } from "~/domain/listing-kinds";
import type { FeedRow, FeedSnapshot } from "./feed-data.server";
import { type FeedOrigins, photoUrl, siteUrl, xmlSafe } from "./feed-parts";
import { XML_DECLARATION, xmlBuilder } from "./xml.server";

/** The office, as every listing's contact (site settings, docs/behaviour.md §18). */
export function feedContact(content: FeedSnapshot["content"]): FeedContact {
  return { name: content.name, email: content.office.email, phone: content.office.phone };
}

/** The company's id in the feed: the site's host name, which stays put when its name changes. */
export function companyId(origins: FeedOrigins): string {
  return new URL(origins.publicUrl).host;
}

/** The listings the HotPads feed sends, in the snapshot's order (newest first). */
export function hotpadsListings(snapshot: FeedSnapshot): FeedRow[] {
  const contact = feedContact(snapshot.content);
  return snapshot.listings.filter((l) => inHotpadsFeed(l, contact));
}

export function buildHotpads(snapshot: FeedSnapshot, origins: FeedOrigins) {
  const { content } = snapshot;
  const contact = feedContact(content);
  const id = companyId(origins);
  const office = cityAndState(content.office.address);
  const company: Record<string, unknown> = {
    "@_id": id,
    name: xmlSafe(content.name),
    website: siteUrl(origins, "/"),
    ...(office.city ? { city: xmlSafe(office.city) } : {}),
    ...(office.state ? { state: office.state } : {}),
    CompanyLogo: { "@_source": photoUrl(origins, content.logo.src) },
  };
  const listings = hotpadsListings(snapshot).map((l) => listingElement(l, contact, id, origins));
  const xml = xmlBuilder.build({
    "?xml": XML_DECLARATION,
    hotPadsItems: { "@_version": "2.1", Company: company, Listing: listings },
  }) as string;
  return { body: xml, count: listings.length };
}

function listingElement(l: FeedRow, contact: FeedContact, company: string, origins: FeedOrigins) {
  const baths = bathCounts(l.bathrooms as number);
  const photos = l.image_urls.map((url) => {
    const caption = xmlSafe(l.image_captions[url]).trim();
    return { "@_source": photoUrl(origins, url), ...(caption ? { caption } : {}) };
  });
  const element: Record<string, unknown> = {
    "@_id": xmlSafe(l.id),
    "@_type": "RENTAL",
    "@_companyId": company,
    "@_propertyType": "HOUSE",
    street: { "@_hide": "false", "#text": xmlSafe(l.address.trim()) },
    city: xmlSafe(l.city),
    state: l.state,
    zip: l.zip,
    contactName: xmlSafe(contact.name),
    contactEmail: xmlSafe(contact.email),
    contactPhone: xmlSafe(contact.phone),
  };
  const preview = xmlSafe(l.thumbnail_description).trim();
  if (preview) element.previewMessage = preview;
  element.description = xmlSafe(l.description);
  element.website = siteUrl(origins, listingPath(l.collection, l.id));
  element.ListingPhoto = photos;
  element.price = String(Number(l.price?.trim()));
  element.pricingFrequency = "MONTHLY";
  element.numBedrooms = String(l.bedrooms);
  element.numFullBaths = String(baths.full);
  element.numHalfBaths = String(baths.half);
  if (l.square_feet != null) element.squareFeet = String(l.square_feet);
  if (l.available_from) element.dateAvailable = l.available_from;
  if (l.pets) element.pets = PET_LABELS[l.pets as PetPolicy] ?? l.pets;
  return element;
}
