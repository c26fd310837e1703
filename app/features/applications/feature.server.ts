import { DRAFT_RETENTION_DAYS } from "~/domain/rental-application";
import type { Db } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import type { Feature } from "~/shared/feature.server";
import type { ApplicationServices } from "./application-services.server";
import { eraseApplicationsOf } from "./applications.server";
import { removeQueued } from "./file-deletions.server";
import { applicationRetentionJob } from "./retention-job.server";

/** Online applications (docs/architecture.md, "The feature contract"; docs/behaviour.md §32). */
export const applicationsFeature: Feature<{
  db: Db;
  env: Pick<Env, "dataDir" | "s3" | "applications" | "mail" | "leads">;
  applications: ApplicationServices;
}> = {
  name: "applications",
  // The documents themselves are carried from the private store (BackupOptions.documents).
  tables: [
    "applications",
    "applicants",
    "application_documents",
    "application_events",
    "application_audit",
    "file_deletions",
  ],
  // Applications APPLICATION_RETENTION_DAYS after a decision or a withdrawal, drafts 30 days
  // after their last change, with their documents (docs/behaviour.md §32).
  // Starting an application and 'Save and finish later', limited as inquiries are.
  limits: [{ name: "application", perHour: ({ env }) => env.leads.inquiriesPerHour }],
  jobs: ({ db, env }) => [applicationRetentionJob(db, env, DRAFT_RETENTION_DAYS)],
  // Found by the address's HMAC under the data key: closed applications keep nothing to find.
  erasePerson: async ({ db, applications: { key, vault } }, email, { actorId }) => {
    if (!key) return 0;
    const { erased, storageKeys } = await eraseApplicationsOf(db, key, email, { actorId });
    if (vault) await removeQueued(db, vault, storageKeys);
    return erased;
  },
};
