// The online applications feature's surface on the server (docs/behaviour.md §32;
// docs/decisions/0071-online-applications-storage.md).
import fs from "node:fs/promises";
import path from "node:path";
import { purgeOldMail } from "~/features/mail/index.server";
import type { Db } from "~/shared/db.server";
import { scheduleScrub } from "~/shared/db-scrub.server";
import type { Env } from "~/shared/env.server";
import { log } from "~/shared/logger.server";
import type { PeriodicJob } from "~/shared/scheduler.server";
import { purgeApplications } from "./applications.server";
import { DATA_KEY_FILE, loadDataKey, parseDataKey } from "./data-key.server";
import { DocumentVault } from "./documents.server";
import { deleteQueuedFiles } from "./file-deletions.server";
import { createPrivateBackend } from "./private-backend.server";
import { type DataKeys, deriveDataKeys } from "./seal.server";

export { buildApplicationFilePdf } from "./application-file-pdf.server";
export {
  addDocument,
  completeApplicant,
  DOCUMENT_REFUSALS,
  eraseApplicationsOf,
  householdProgress,
  listOwnDocuments,
  type OpenedApplication,
  type OwnDocument,
  openApplication,
  removeDocument,
  saveAnswers,
  startApplication,
  submitApplication,
  withdrawApplication,
} from "./applications.server";
export {
  applyAction,
  applyLoader,
  continueAction,
  continueLoader,
  UPLOAD_REQUEST_BYTES,
} from "./apply.server";
export { DATA_KEY_MISSING } from "./data-key.server";
export { DOCUMENT_ERRORS, DocumentRejectedError, DocumentVault } from "./documents.server";
export { removeQueued } from "./file-deletions.server";
export { applicationRef } from "./names.server";
export { linkCollector, openOutboxLinks } from "./outbox-links.server";
export { createPrivateBackend, DOCUMENTS_PREFIX } from "./private-backend.server";
export { type DataKeys, deriveDataKeys, type KeyMaterial, seal, unseal } from "./seal.server";
export {
  type ApplicationMail,
  type ApplicationRecord,
  type ApplicationSummary,
  listApplications,
  readApplication,
  readDocument,
  saveApplicationNote,
  sealClearNotes,
  setApplicationStatus,
} from "./staff.server";

/**
 * The keys that seal applications (derived from APPLICATION_DATA_KEY, with the previous one
 * while rotating) and the vault of their documents; both null: closed.
 */
export interface ApplicationServices {
  key: DataKeys | null;
  vault: DocumentVault | null;
}

/** Names and addresses only this computer reaches. */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
const isLoopback = (host: string) => LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * The data key (APPLICATION_DATA_KEY, or one made into DATA_DIR) and the private document store.
 * In production without a key, applications are refused; the rest of the site runs, and the log
 * says what to set. A production build tried on this computer (`PUBLIC_URL` and `HOST` both on
 * loopback) is no deployment: it makes a key as development does. Listening on a network address
 * with the default PUBLIC_URL is a deployment that forgot its settings: a key made into DATA_DIR
 * would sit beside the data it seals (docs/decisions/0071, 0076).
 */
export async function createApplicationServices(
  env: Pick<Env, "dataDir" | "s3" | "nodeEnv" | "applications" | "publicUrl" | "host">,
): Promise<ApplicationServices> {
  const configured = env.applications.dataKey ?? undefined;
  const production = env.nodeEnv === "production";
  const localUrl = isLoopback(new URL(env.publicUrl).hostname);
  const localTrial = production && localUrl && isLoopback(env.host);
  const root = await loadDataKey({
    configured,
    production: production && !localTrial,
    dataDir: env.dataDir,
  });
  if (!root) log().warn(await closedBecause(env, localUrl));
  const previous = env.applications.dataKeyPrevious
    ? parseDataKey(env.applications.dataKeyPrevious)
    : null;
  const key = root ? deriveDataKeys(root, previous) : null;
  return { key, vault: key ? new DocumentVault(createPrivateBackend(env), key) : null };
}

/** The log line of a production start that takes no applications: what to set. */
async function closedBecause(env: Pick<Env, "dataDir" | "publicUrl" | "host">, localUrl: boolean) {
  const file = path.join(env.dataDir, DATA_KEY_FILE);
  const made = await fs.stat(file).then(
    () =>
      ` A key made earlier is in ${file}: give its content as APPLICATION_DATA_KEY and keep the file away from DATA_DIR and its backups.`,
    () => "",
  );
  const set =
    "Set APPLICATION_DATA_KEY (32 bytes, base64: `openssl rand -base64 32`), kept apart from DATA_DIR and backups";
  if (!localUrl) {
    return `Online applications are closed: APPLICATION_DATA_KEY is not set. ${set}, and restart.${made}`;
  }
  return (
    `Online applications are closed: this production server listens on HOST=${env.host}, which ` +
    `other computers reach, with the default PUBLIC_URL (${env.publicUrl}), so a data key made ` +
    `into DATA_DIR would sit beside the data it seals. ${set}, and PUBLIC_URL to the site's ` +
    `public address (e.g. https://leasing.example.com); or, to try the site on this computer ` +
    `only, HOST=127.0.0.1.${made}`
  );
}

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
