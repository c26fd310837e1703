// /feeds/new-listings.xml: the 50 newest listings of both kinds as an Atom feed (RFC 4287), for
// feed readers and anything that watches for new listings (docs/behaviour.md §28).

import { publicPrice } from "~/domain/listing-feeds";
import { bedBathLine, formatPrice } from "~/domain/listing-format";
import { KINDS, listingPath } from "~/domain/listing-kinds";
import type { FeedRow, FeedSnapshot } from "./feed-data.server";
import { FEEDS, type FeedOrigins, photoUrl, siteUrl, xmlSafe } from "./feed-parts";
import { XML_DECLARATION, xmlBuilder } from "./xml.server";

export const NEW_LISTINGS_COUNT = 50;

/** A feed with no listings yet is dated at the epoch: it never changes without a listing. */
const NO_DATE = "1970-01-01T00:00:00Z";

export function buildNewListingsAtom(snapshot: FeedSnapshot, origins: FeedOrigins) {
  const { content } = snapshot;
  const newest = snapshot.listings.slice(0, NEW_LISTINGS_COUNT);
  // ISO times in UTC sort as text.
  const updated =
    newest
      .map((l) => l.updated_at)
      .sort()
      .at(-1) ?? NO_DATE;
  const feed = {
    "@_xmlns": "http://www.w3.org/2005/Atom",
    title: xmlSafe(`New listings | ${content.name}`),
    subtitle: xmlSafe(content.tagline),
    id: siteUrl(origins, FEEDS["new-listings"].path),
    link: [
      { "@_rel": "self", "@_href": siteUrl(origins, FEEDS["new-listings"].path) },
      { "@_rel": "alternate", "@_type": "text/html", "@_href": siteUrl(origins, "/") },
    ],
    updated,
    author: { name: xmlSafe(content.name), uri: siteUrl(origins, "/") },
    icon: photoUrl(origins, content.logo.src),
    entry: newest.map((l) => entry(l, origins)),
  };
  const xml = xmlBuilder.build({ "?xml": XML_DECLARATION, feed }) as string;
  return { body: xml, count: newest.length };
}

function entry(l: FeedRow, origins: FeedOrigins) {
  const url = siteUrl(origins, listingPath(l.collection, l.id));
  const price = publicPrice(l);
  const summary = [
    KINDS[l.collection].noun,
    bedBathLine(l.bedrooms, l.bathrooms),
    price ? formatPrice(price) : "",
    l.thumbnail_description.trim(),
  ]
    .filter(Boolean)
    .join(" · ");
  const place = [l.address.trim(), l.city, [l.state, l.zip].filter(Boolean).join(" ")]
    .filter(Boolean)
    .join(", ");
  const first = l.image_urls[0];
  return {
    title: xmlSafe(place),
    id: url,
    link: [
      { "@_rel": "alternate", "@_type": "text/html", "@_href": url },
      ...(first
        ? [{ "@_rel": "enclosure", "@_type": "image/jpeg", "@_href": photoUrl(origins, first) }]
        : []),
    ],
    published: l.created_at,
    updated: l.updated_at,
    category: { "@_term": l.collection, "@_label": KINDS[l.collection].noun },
    summary: { "@_type": "text", "#text": xmlSafe(summary) },
    ...(l.description.trim()
      ? { content: { "@_type": "text", "#text": xmlSafe(l.description) } }
      : {}),
  };
}
