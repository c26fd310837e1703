import type { ImageStore } from "~/features/images/index.server";
import type { Db } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import type { Feature } from "~/shared/feature.server";
import { alertDigestJob, dueAlertsJob, eraseAlertsOf } from "./alerts.server";
import { deletedPurgeJob } from "./deleted.server";
import { staleDigestJob } from "./stale-digest.server";
import { storageSweepJob } from "./storage-repair.server";

/** Listings, their history, photos and alerts (docs/architecture.md, "The feature contract"). */
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
    "listing_alerts",
    "alert_unsubscribe_tokens",
    // The weekly digests' last runs (stale listings, saved searches).
    "scheduled_runs",
  ],
  // 'Notify me' and 'E-mail me new matches', limited as inquiries are, on a count of their own.
  limits: [{ name: "alert", perHour: ({ env }) => env.leads.inquiriesPerHour }],
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
    // 'Notify me' and 'E-mail me new matches' (docs/behaviour.md §31).
    dueAlertsJob(db, { publicUrl: env.publicUrl }),
    alertDigestJob(db, { publicUrl: env.publicUrl }),
  ],
  // The address's listing alerts, with the alert e-mails still waiting (docs/behaviour.md §31).
  erasePerson: ({ db }, email) => db.transaction((tx) => eraseAlertsOf(tx, email)),
};
