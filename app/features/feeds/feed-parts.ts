// What the three feeds share: their names and paths, absolute addresses, and text made safe
// for XML (the XML writer itself is in xml.server.ts).
export const FEEDS = {
  hotpads: {
    path: "/feeds/hotpads.xml",
    title: "HotPads (Zillow rental network)",
    contentType: "application/xml; charset=utf-8",
  },
  "listings-json": {
    path: "/feeds/listings.json",
    title: "All listings (JSON)",
    contentType: "application/json; charset=utf-8",
  },
  "new-listings": {
    path: "/feeds/new-listings.xml",
    title: "New listings (Atom)",
    contentType: "application/atom+xml; charset=utf-8",
  },
} as const;

export type FeedName = keyof typeof FEEDS;
export const FEED_NAMES = Object.keys(FEEDS) as FeedName[];

export function isFeedName(value: unknown): value is FeedName {
  return typeof value === "string" && Object.hasOwn(FEEDS, value);
}

/** Where the feeds point: the site (PUBLIC_URL) and, when set, the photos' CDN (PHOTO_BASE_URL). */
export interface FeedOrigins {
  publicUrl: string;
  photoBaseUrl?: string | undefined;
}

/** A site path as an absolute URL. */
export function siteUrl(origins: FeedOrigins, path: string): string {
  return new URL(path, `${origins.publicUrl.replace(/\/+$/, "")}/`).href;
}

/** A stored photo's absolute URL: from the CDN when there is one, as the pages load it. */
export function photoUrl(origins: FeedOrigins, url: string): string {
  if (url.startsWith("/images/") && origins.photoBaseUrl) {
    return origins.photoBaseUrl + url.slice("/images".length);
  }
  return siteUrl(origins, url);
}

/** Whether XML 1.0 can carry a code point at all, escaped or not. */
function xmlChar(c: number): boolean {
  if (c < 0x20) return c === 0x9 || c === 0xa || c === 0xd;
  return !(c >= 0xd800 && c <= 0xdfff) && c !== 0xfffe && c !== 0xffff;
}

/**
 * Text a feed may write: what XML cannot carry (controls other than tab and line breaks, lone
 * surrogates, U+FFFE, U+FFFF) is dropped; the XML writer escapes the rest.
 */
export function xmlSafe(text: string | null | undefined): string {
  let out = "";
  // By code point: a surrogate pair is one character, a lone surrogate one of its own.
  for (const ch of text ?? "") if (xmlChar(ch.codePointAt(0) as number)) out += ch;
  return out;
}
