import type { ImageStore } from "~/features/images/index.server";
import type { Db } from "~/shared/db.server";
import type { Feature } from "~/shared/feature.server";
import { deletedPurgeJob } from "./deleted.server";
import { storageSweepJob } from "./storage-repair.server";

/** Listings, their history and photos (docs/architecture.md, "The feature contract"). */
export const listingsFeature: Feature<{
  db: Db;
  images: ImageStore;
}> = {
  name: "listings",
  tables: ["listings", "listing_history", "deleted_listings", "demo_content"],
  jobs: ({ db, images }) => [
    // Orphans too young at start go once their grace period is over.
    storageSweepJob(db, images),
    // Listings deleted more than 30 days ago go for good, with their photos.
    deletedPurgeJob(db, images),
  ],
};
