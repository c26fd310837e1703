import { purgeOldMail } from "~/features/mail/index.server";
import type { Db } from "~/shared/db.server";
import { scheduleScrub } from "~/shared/db-scrub.server";
import type { Env } from "~/shared/env.server";
import { log } from "~/shared/logger.server";
import type { PeriodicJob } from "~/shared/scheduler.server";
import { purgeApplications } from "./applications.server";
import { deleteQueuedFiles } from "./file-deletions.server";
import { createPrivateBackend } from "./private-backend.server";

/**
 * Retention (docs/behaviour.md §32): applications APPLICATION_RETENTION_DAYS after a decision
 * or a withdrawal, drafts 30 days after their last change, undecided ones
 * APPLICATION_UNDECIDED_DAYS after theirs, with their documents; the documents still queued for
 * deletion; the outbox's sent and failed mail after OUTBOX_RETENTION_DAYS. Hourly, and once at
 * start; a failed pass is tried again by the scheduler.
 */
export function applicationRetentionJob(
  db: Db,
  env: Pick<Env, "dataDir" | "s3" | "applications" | "mail">,
  draftDays: number,
): PeriodicJob {
  const pass = retentionPass(db, env, draftDays, () => new Date(), createPrivateBackend(env), {
    rethrow: true,
  });
  return { name: "applications.retention", everySeconds: 3600, run: pass };
}

/** One pass of the retention worker; never throws unless asked (the scheduler retries). */
export function retentionPass(
  db: Db,
  env: Pick<Env, "dataDir" | "s3" | "applications" | "mail">,
  draftDays: number,
  clock: () => Date = () => new Date(),
  backend = createPrivateBackend(env),
  { rethrow = false } = {},
) {
  let running = false;
  return async (): Promise<undefined> => {
    if (running) return;
    running = true;
    try {
      const now = clock();
      const { erased, ids } = await purgeApplications(db, {
        now,
        retentionDays: env.applications.retentionDays,
        draftDays,
        undecidedDays: env.applications.undecidedDays,
      });
      // The documents of what went (queued with it), and any a failed delete left behind.
      const files = await deleteQueuedFiles(db, (key) => backend.delete(key));
      // A document stored just before its row was refused or a crash leaves a file no row
      // names: the application's whole folder goes too.
      for (const id of ids) {
        for (const blob of await backend.list(`applications/${id}/`)) {
          await backend.delete(blob.key);
        }
      }
      const mail = await purgeOldMail(db, { days: env.mail.retentionDays, now });
      // Erased text leaves the database's files too, in the background (db-scrub.server.ts).
      if (erased > 0 || mail > 0) scheduleScrub(db);
      if (erased > 0) log().info({ erased }, "erased applications past their retention");
      if (mail > 0) log().info({ mail }, "deleted e-mail past OUTBOX_RETENTION_DAYS");
      if (files.failed > 0) log().warn({ files: files.failed }, "documents still to delete");
    } catch (error) {
      if (rethrow) throw error;
      log().warn({ err: error }, "application retention: will try again");
    } finally {
      running = false;
    }
  };
}
