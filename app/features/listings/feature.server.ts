import type { ImageStore } from "~/features/images/index.server";
import type { Db } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import type { Feature } from "~/shared/feature.server";
import { deletedPurgeJob } from "./deleted.server";
import { staleDigestJob } from "./stale-digest.server";
import { storageSweepJob } from "./storage-repair.server";

/** Listings, their history and photos (docs/architecture.md, "The feature contract"). */
export const listingsFeature: Feature<{
  db: Db;
  images: ImageStore;
  env: Pick<Env, "staleAfterDays" | "leads" | "publicUrl">;
}> = {
  name: "listings",
  tables: [
    "listings",
    "listing_history",
    "deleted_listings",
    "demo_content",
    // The weekly and daily e-mails' last runs (this stale digest; the alerts' digest writes
    // its own row).
    "scheduled_runs",
  ],
  jobs: ({ db, images, env }) => [
    // Orphans too young at start go once their grace period is over.
    storageSweepJob(db, images),
    // Listings deleted more than 30 days ago go for good, with their photos.
    deletedPurgeJob(db, images),
    // The weekly e-mail of available properties nobody confirmed lately (docs/behaviour.md §30).
    staleDigestJob(db, {
      staleAfterDays: env.staleAfterDays,
      notify: env.leads.notify,
      publicUrl: env.publicUrl,
    }),
  ],
};
