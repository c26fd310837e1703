import type { Db } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import type { Feature } from "~/shared/feature.server";
import { eraseLeadsOf } from "./leads.server";
import { leadPurgeJob } from "./purge.server";

/** Inquiries and the inbox (docs/architecture.md, "The feature contract"). */
export const leadsFeature: Feature<{ db: Db; env: Pick<Env, "leads"> }> = {
  name: "leads",
  tables: ["leads", "lead_events"],
  // Leads closed more than LEAD_RETENTION_DAYS ago go, with their e-mail (docs/behaviour.md §27).
  // Inquiries per client and hour (INQUIRY_RATE_LIMIT).
  limits: [{ name: "inquiry", perHour: ({ env }) => env.leads.inquiriesPerHour }],
  jobs: ({ db, env }) => [leadPurgeJob(db, env.leads.retentionDays)],
  erasePerson: ({ db }, email) => eraseLeadsOf(db, email),
};
