import { describe, expect, it } from "vitest";
import type { Listing } from "~/domain/listing";
import { KINDS } from "~/domain/listing-kinds";
import { listingJsonLd, listingMeta, numericPrice } from "./listing-seo.server";
import {
  buildRobots,
  buildSitemap,
  buildSitemapIndex,
  SITEMAP_FILE_URLS,
  sitemapFileCount,
  sitemapFileRange,
} from "./sitemap";

const origin = "https://leasing.example";
const listing: Listing = {
  id: "3233-4th-street-n",
  collection: "properties",
  address: "3233 4th Street N",
  bedrooms: 4,
  bathrooms: 3,
  description: "One\nTwo..Three",
  image_urls: [
    "/images/properties/3233-4th-street-n/image_1_0.jpg",
    "/images/properties/3233-4th-street-n/image_1_1.jpg",
  ],
  thumbnail_image_url: "/images/properties/3233-4th-street-n/image_1_0.jpg",
  thumbnail_description: "Colonial",
  property_type: "Residential",
  currently_available: true,
  price: "3200",
  reserve_url: null,
};

describe("listing meta", () => {
  const meta = listingMeta(KINDS.properties, listing, origin);
  const find = (pred: (m: Record<string, unknown>) => boolean) =>
    meta.find((m) => pred(m as Record<string, unknown>)) as Record<string, unknown> | undefined;

  it("has its own title, description and canonical URL", () => {
    expect(find((m) => "title" in m)?.title).toBe(
      "3233 4th Street N | Northern Virginia Family Leasing",
    );
    expect(find((m) => m.name === "description")?.content).toBe(
      "4 Bedrooms | 3 Bathrooms. Colonial",
    );
    expect(find((m) => m.rel === "canonical")?.href).toBe(`${origin}/properties/3233-4th-street-n`);
  });
  it("shares the first photo on Open Graph and Twitter", () => {
    const photo = `${origin}/images/properties/3233-4th-street-n/image_1_0.jpg`;
    expect(find((m) => m.property === "og:image")?.content).toBe(photo);
    expect(find((m) => m.name === "twitter:image")?.content).toBe(photo);
    expect(find((m) => m.name === "twitter:card")?.content).toBe("summary_large_image");
  });
  it("falls back to a summary card without photos, and noindex for a missing record", () => {
    const bare = listingMeta(
      KINDS.newConstruction,
      { ...listing, collection: "newConstruction", image_urls: [] },
      origin,
    );
    expect(bare.some((m) => "property" in m && m.property === "og:image")).toBe(false);
    const missing = listingMeta(KINDS.properties, null, origin);
    expect(missing).toContainEqual({ name: "robots", content: "noindex" });
  });
});

// Loosely typed view of the JSON-LD tree, enough to read nested fields in assertions.
// biome-ignore lint/suspicious/noExplicitAny: JSON-LD is an open tree
type LdNode = Record<string, any>;

describe("JSON-LD", () => {
  it("describes the place, photos and the offer price when shown", () => {
    const ld = listingJsonLd(listing, origin) as LdNode;
    expect(ld["@type"]).toBe("RealEstateListing");
    expect(ld.about.address.streetAddress).toBe("3233 4th Street N");
    expect(ld.about.numberOfBedrooms).toBe(4);
    expect(ld.image).toHaveLength(2);
    expect(ld.offers).toMatchObject({
      price: 3200,
      priceCurrency: "USD",
      availability: "https://schema.org/InStock",
    });
  });
  it("leaves out the price when not available or not numeric, and offers for constructions", () => {
    expect(
      (listingJsonLd({ ...listing, currently_available: false }, origin) as LdNode).offers,
    ).toMatchObject({ availability: "https://schema.org/OutOfStock" });
    expect(
      (listingJsonLd({ ...listing, currently_available: false }, origin) as LdNode).offers.price,
    ).toBeUndefined();
    expect(
      (listingJsonLd({ ...listing, price: "Call us" }, origin) as LdNode).offers.price,
    ).toBeUndefined();
    expect(
      (listingJsonLd({ ...listing, collection: "newConstruction" }, origin) as LdNode).offers,
    ).toBeUndefined();
  });
  it("reads numeric prices by the spec's rule", () => {
    expect(numericPrice("2950.00")).toBe(2950);
    expect(numericPrice("$2,950")).toBeNull();
    expect(numericPrice(null)).toBeNull();
  });
});

describe("sitemap and robots", () => {
  it("lists pages and listings with their photos, escaped", () => {
    const xml = buildSitemap(origin, [
      { ...listing, updated_at: "2026-11-01T10:00:00Z" },
      {
        collection: "newConstruction",
        id: "3131-draper-drive-fairfax,-va-",
        address: "x",
        image_urls: [],
        updated_at: new Date("2026-10-02"),
      },
    ]);
    expect(xml).toContain(`<loc>${origin}/about</loc>`);
    expect(xml).toContain(
      `<loc>${origin}/properties/3233-4th-street-n</loc><lastmod>2026-11-01</lastmod><image:image><image:loc>${origin}/images/properties/3233-4th-street-n/image_1_0.jpg</image:loc>`,
    );
    expect(xml).toContain(`<loc>${origin}/new-construction/3131-draper-drive-fairfax%2C-va-</loc>`);
    expect(xml.match(/<url>/g)).toHaveLength(8);
  });
  it("splits the sitemap into files of at most 10,000 URLs, listed by an index", () => {
    expect(sitemapFileCount(0)).toBe(1);
    expect(sitemapFileCount(SITEMAP_FILE_URLS - 6)).toBe(1);
    expect(sitemapFileCount(SITEMAP_FILE_URLS - 5)).toBe(2);
    expect(sitemapFileCount(25_000)).toBe(3);
    // The files cover every listing once: file 1 after the six pages, then 10,000 each.
    const first = sitemapFileRange(1);
    const second = sitemapFileRange(2);
    const third = sitemapFileRange(3);
    expect(first).toEqual({ offset: 0, limit: SITEMAP_FILE_URLS - 6, pages: true });
    expect(second.offset).toBe(first.offset + first.limit);
    expect(third.offset).toBe(second.offset + second.limit);
    expect(second.limit).toBe(SITEMAP_FILE_URLS);
    const index = buildSitemapIndex(origin, 2);
    expect(index).toContain("<sitemapindex");
    expect([...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual([
      `${origin}/sitemaps/1.xml`,
      `${origin}/sitemaps/2.xml`,
    ]);
    expect(buildSitemap(origin, [], false)).not.toContain("<url>");
  });
  it("points robots at the sitemap and keeps crawlers out of admin paths", () => {
    const robots = buildRobots(origin);
    expect(robots).toContain(`Sitemap: ${origin}/sitemap.xml`);
    expect(robots).toContain("Disallow: /editproperties/");
  });
});
