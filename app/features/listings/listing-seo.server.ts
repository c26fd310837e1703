import { company } from "~/domain/company";
import type { Listing } from "~/domain/listing";
import { bedBathLine, descriptionBullets } from "~/domain/listing-format";
import { KINDS, type ListingKind, listingPath } from "~/domain/listing-kinds";
import { missingListingMeta } from "./listing-meta";

const absolute = (origin: string, path: string) => new URL(path, `${origin}/`).toString();

/** A price docs/behaviour.md §9 shows as dollars (digits with an optional decimal point), else null. */
export function numericPrice(price: string | null): number | null {
  return price !== null && /^\d+(\.\d*)?$/.test(price) ? Number(price) : null;
}

/** schema.org description of one listing (RealEstateListing with its place and, when shown, offer). */
export function listingJsonLd(listing: Listing, origin: string, siteName = company.name) {
  const kind = KINDS[listing.collection];
  const url = absolute(origin, listingPath(listing.collection, listing.id));
  const available = listing.currently_available === true;
  const price = available ? numericPrice(listing.price) : null;
  const place: Record<string, unknown> = {
    "@type": listing.property_type === "Commercial" ? "Place" : "Residence",
    name: listing.address.trim(),
    address: { "@type": "PostalAddress", streetAddress: listing.address.trim() },
  };
  if (listing.bedrooms) place.numberOfBedrooms = listing.bedrooms;
  if (listing.bathrooms) place.numberOfBathroomsTotal = listing.bathrooms;
  const ld: Record<string, unknown> = {
    "@context": "https://schema.org",
    "@type": "RealEstateListing",
    name: listing.address.trim(),
    url,
    description: descriptionBullets(listing.description).join(". ") || undefined,
    image: listing.image_urls.map((u) => absolute(origin, u)),
    about: place,
    provider: { "@type": "Organization", name: siteName, url: absolute(origin, "/") },
  };
  if (kind.hasOffer) {
    const offer: Record<string, unknown> = {
      "@type": "Offer",
      businessFunction: "http://purl.org/goodrelations/v1#LeaseOut",
      availability: available ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
      url,
    };
    if (price !== null) {
      offer.price = price;
      offer.priceCurrency = "USD";
    }
    ld.offers = offer;
  }
  return ld;
}

/**
 * Title, description, canonical link, Open Graph and Twitter card, JSON-LD. Made by the detail
 * loader on the server and sent with its data, so this module (3 KB brotli) is not part of the
 * detail pages' JavaScript (docs/decisions/0056-detail-meta-made-by-the-loader.md).
 */
export function listingMeta(
  kind: ListingKind,
  listing: Listing | null | undefined,
  origin: string,
  /** The company name in use (stored settings; docs/behaviour.md §18). */
  siteName = company.name,
) {
  if (!listing) return missingListingMeta(kind, siteName);
  const title = `${listing.address.trim()} | ${siteName}`;
  const facts = bedBathLine(listing.bedrooms, listing.bathrooms);
  const description =
    [facts, listing.thumbnail_description].filter(Boolean).join(". ") ||
    `${kind.noun} at ${listing.address.trim()}`;
  const url = absolute(origin, listingPath(listing.collection, listing.id));
  const image = listing.image_urls[0] ? absolute(origin, listing.image_urls[0]) : null;
  return [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: siteName },
    { property: "og:title", content: listing.address.trim() },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    ...(image ? [{ property: "og:image", content: image }] : []),
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: listing.address.trim() },
    { name: "twitter:description", content: description },
    ...(image ? [{ name: "twitter:image", content: image }] : []),
    { "script:ld+json": listingJsonLd(listing, origin, siteName) },
  ];
}
