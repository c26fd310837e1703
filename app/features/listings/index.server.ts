// The listings feature's public surface on the server (docs/decisions/0032-layers-and-feature-surfaces.md).

export {
  addressOf,
  availablePropertyChoices,
  listingAtAddress,
  listingChoices,
} from "./choices.server";
export { tooLarge as csvTooLarge } from "./csv-import.server";
export { type DeletedListing, deletedPurgeJob, listDeleted } from "./deleted.server";
export { loadListingDetail } from "./detail-loader.server";
export { listingsFeature } from "./feature.server";
export {
  type HistoryEntry,
  type HistoryOnlyPhoto,
  historyOnlyPhotos,
  listHistory,
} from "./history.server";
export { loadFeaturedSummaries, loadListPage } from "./list-loader.server";
export { listTable, type TablePage, type TableRow } from "./listing-table.server";
export { getListing, getListingForEdit } from "./queries.server";
export { searchWhere } from "./search.server";
export { countListings, sitemapListings } from "./sitemap.server";
export { type StaleProperty, staleProperties } from "./stale.server";
export { repairAtStart, storageSweepJob } from "./storage-repair.server";
