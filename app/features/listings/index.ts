// The listings feature's public surface in the browser (docs/decisions/0032-layers-and-feature-surfaces.md).
export { ListingCard } from "./listing-card";
export { type AlertSlot, ListingDetailPage } from "./listing-detail-page";
export { ListingListPage } from "./listing-list-page";
export { missingListingMeta } from "./listing-meta";
export {
  buildRobots,
  buildSitemap,
  buildSitemapIndex,
  type SitemapListing,
  sitemapFileCount,
  sitemapFileRange,
} from "./sitemap";
