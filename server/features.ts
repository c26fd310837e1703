// The one list of features the server goes over (docs/architecture.md, "The feature contract"):
// their periodic jobs, what backups leave out, and 'Erase this person'. A new feature adds its
// contract here, and its pages to app/routes.ts; nothing else in server/ names it.

import { activityFeature } from "~/features/activity/index.server";
import { alertsFeature } from "~/features/alerts/index.server";
import {
  type ApplicationServices,
  applicationsFeature,
} from "~/features/applications/index.server";
import { authFeature } from "~/features/auth/index.server";
import { feedsFeature } from "~/features/feeds/index.server";
import type { ImageStore } from "~/features/images/index.server";
import { leadsFeature } from "~/features/leads/index.server";
import { listingsFeature } from "~/features/listings/index.server";
import { mailFeature } from "~/features/mail/index.server";
import { operationsFeature } from "~/features/operations/index.server";
import { showingsFeature } from "~/features/showings/index.server";
import { siteSettingsFeature } from "~/features/site-settings/index.server";
import { staleDigestFeature } from "~/features/stale-digest/index.server";
import type { Db } from "~/shared/db.server";
import { scheduleScrub } from "~/shared/db-scrub.server";
import type { Env } from "~/shared/env.server";
import type { Feature } from "~/shared/feature.server";
import type { DelayedJob, PeriodicJob } from "~/shared/scheduler.server";

/** What the server hands the features (one per process). */
export interface SiteServices {
  db: Db;
  env: Env;
  images: ImageStore;
  applications: ApplicationServices;
}

/**
 * Every feature's contract. Erasure goes in this order, and e-mail (`mail`) last, so that
 * what another part queued about the person meanwhile goes too.
 */
export const FEATURES: readonly Feature<SiteServices>[] = [
  authFeature,
  siteSettingsFeature,
  listingsFeature,
  alertsFeature,
  staleDigestFeature,
  feedsFeature,
  leadsFeature,
  showingsFeature,
  applicationsFeature,
  operationsFeature,
  mailFeature,
  activityFeature,
];

/** Every feature's periodic jobs, for the one scheduler (docs/decisions/0081). */
export function featureJobs(services: SiteServices): PeriodicJob[] {
  return FEATURES.flatMap((feature) => feature.jobs?.(services) ?? []);
}

/** Every feature's work due at given times, by name (`Scheduler.at`). */
export function featureDelayedJobs(services: SiteServices): DelayedJob<never>[] {
  return FEATURES.flatMap((feature) => feature.delayedJobs?.(services) ?? []);
}

/** Every feature's per-client hourly limits, by name (docs/decisions/0063). */
export function featureLimits(services: SiteServices): Map<string, number> {
  const limits = new Map<string, number>();
  for (const feature of FEATURES) {
    for (const limit of feature.limits ?? []) {
      if (limits.has(limit.name)) throw new Error(`Two features limit "${limit.name}".`);
      limits.set(limit.name, limit.perHour(services));
    }
  }
  return limits;
}

/** The tables the features say a backup leaves out (docs/operations.md, "Backups"). */
export function notBackedUpTables(): string[] {
  return FEATURES.flatMap((feature) => (feature.notBackedUp ?? []).map((t) => t.table));
}

/**
 * 'Erase this person' (docs/behaviour.md §27): each feature's part, in turn; then the erased
 * text leaves the database's files too, in the background (docs/decisions/0075). Returns how
 * many of the person's messages, applications and alerts went.
 */
export async function erasePerson(
  services: SiteServices,
  email: string,
  by: { actorId: string | null },
): Promise<number> {
  // No stored address is empty or holds a control character (a NUL is no text to PostgreSQL).
  if (email.trim() === "" || /\p{Cc}/u.test(email)) return 0;
  let erased = 0;
  for (const feature of FEATURES) {
    if (feature.erasePerson) erased += await feature.erasePerson(services, email, by);
  }
  scheduleScrub(services.db);
  return erased;
}
