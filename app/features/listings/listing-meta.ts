import type { ListingKind } from "~/domain/listing-kinds";

/** What a detail page's head carries: React Router meta descriptors, made by the loader. */
export type ListingMetaTags = Record<string, unknown>[];

/** The head of a detail page whose listing does not exist (a 404 search engines drop). */
export function missingListingMeta(kind: ListingKind, siteName: string): ListingMetaTags {
  return [
    { title: `${kind.noun} not found | ${siteName}` },
    { name: "description", content: "This listing is no longer available." },
    { name: "robots", content: "noindex" },
  ];
}
