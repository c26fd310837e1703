import path from "node:path";
import { activityRecorder } from "~/features/activity/index.server";
import {
  createApplicationServices,
  createPrivateBackend,
  openOutboxLinks,
  sealClearNotes,
} from "~/features/applications/index.server";
import { grantAdminEmails } from "~/features/auth/admins.server";
import { backfillVariants } from "~/features/images/backfill-variants.server";
import { createImageStore } from "~/features/images/storage.server";
import { demoContentWanted, seedDemoContent } from "~/features/listings/demo-seed.server";
import { repairAtStart } from "~/features/listings/index.server";
import { LiveHub } from "~/features/live/hub.server";
import { smtpMailer, startOutboxWorker } from "~/features/mail/index.server";
import {
  acquireDataDirLock,
  type DataDirLock,
  startAdminSocket,
} from "~/features/operations/index.server";
import { isNewEmbeddedDatabase, openDb } from "~/shared/db.server";
import { stopScrubs } from "~/shared/db-scrub.server";
import type { Env } from "~/shared/env.server";
import { setAuditSink } from "~/shared/events.server";
import { log } from "~/shared/logger.server";
import { makeDataDirPrivate, narrowToOwner } from "~/shared/private-files.server";
import { type PeriodicJob, startScheduler } from "~/shared/scheduler.server";
import { announceServer } from "~/shared/server-presence.server";
import { backupSocketCommand } from "./backup-cli";
import { featureDelayedJobs, featureJobs } from "./features";

/**
 * Opens the database (migrated), the image store and the live hub; grants ADMIN_EMAILS;
 * loads demo content once, into a new embedded database (decision 0033); repairs the image store after a crash; listens for `npm run admin`
 * on DATA_DIR/admin.sock.
 */
export async function startServices(env: Env) {
  // Owner-only from the start: everything below (database, documents, photos, socket) is created
  // inside it, under umask 077, and what is there already is narrowed (docs/operations.md).
  // The photos (many, and shown to anyone anyway) are narrowed after the start, in the
  // background: their folder is owner-only at once, so nobody else reaches them meanwhile.
  const narrowed = await makeDataDirPrivate(env.dataDir, { notInto: ["images"] });
  const reportNarrowed = (count: number) => {
    if (count > 0) {
      log().warn(`Narrowed ${count} files and folders in DATA_DIR to owner-only (0700/0600).`);
    }
  };
  reportNarrowed(narrowed);
  void narrowToOwner(path.join(env.dataDir, "images")).then(reportNarrowed, () => undefined);
  const dbDir = path.join(env.dataDir, "db");
  // PGlite is single-process: the lock turns a second server (or CLI) into a clear error.
  let lock: DataDirLock | null = null;
  if (!env.databaseUrl) lock = await acquireDataDirLock(dbDir, { waitMs: 10_000 });
  const newEmbeddedDatabase = !env.databaseUrl && isNewEmbeddedDatabase(dbDir);
  // On PostgreSQL several servers may share the store; the first to start is told so.
  const presence = env.databaseUrl ? await announceServer(env.databaseUrl) : null;
  const db = await openDb({ databaseUrl: env.databaseUrl, dataDir: dbDir });
  // PGlite's file system sets its own modes (0666) whatever the umask: narrowed once it is open.
  if (!env.databaseUrl) reportNarrowed(await narrowToOwner(dbDir));
  const images = createImageStore(env);
  const hub = await LiveHub.start(db);

  const granted = await grantAdminEmails(db, env.adminEmails);
  if (granted.length > 0) log().info(`Granted admin from ADMIN_EMAILS: ${granted.join(", ")}`);
  if (demoContentWanted(env.seedDemo, newEmbeddedDatabase)) {
    const seeded = await seedDemoContent(db, images);
    if (seeded > 0) log().info(`Loaded ${seeded} demo listings into the new database.`);
  }

  // Before the first request: what a crash left in the image folders is put right.
  await repairAtStart(db, images, { exclusive: lock !== null || presence?.alone === true });
  await presence?.joined();
  // Periodic work, each job run once per period across instances (docs/decisions/0081).
  const applications = await createApplicationServices(env);
  const jobs: PeriodicJob[] = featureJobs({ db, env, images, applications });
  const delayed = featureDelayedJobs({ db, env, images, applications });
  const dataKeys = applications.key;
  // The applications' data key: private links in the outbox are sealed with it, and so are
  // staff notes (those written before are sealed now) (docs/decisions/0074).
  if (dataKeys) {
    await sealClearNotes(db, dataKeys).catch((error) =>
      log().warn({ err: error }, "Sealing earlier application notes failed; tried at next start"),
    );
  }
  // Outgoing e-mail (docs/decisions/0062-outbox-for-outgoing-mail.md): sent only with SMTP_URL.
  const outbox = env.mail.smtpUrl
    ? await startOutboxWorker(db, smtpMailer(env.mail.smtpUrl, env.mail.from), {
        openLinks: dataKeys ? (sealed, ref) => openOutboxLinks(dataKeys, sealed, ref) : undefined,
      })
    : null;
  if (!outbox) {
    log().info("SMTP_URL is not set: e-mail is kept in the outbox (/admin/outbox), not sent.");
  }
  if (outbox) jobs.push(outbox.job);
  const scheduler = await startScheduler(db, jobs, delayed);
  // Events outside requests (the scheduler, the CLI over the socket) go to 'Activity' too.
  setAuditSink(activityRecorder(db));

  // Never blocks the start: pages use the originals until the variants exist.
  void backfillVariants(images).then((made) => {
    if (made > 0) log().info(`Made responsive variants for ${made} stored photos.`);
  });

  let adminSocket: Awaited<ReturnType<typeof startAdminSocket>> | null = null;
  try {
    adminSocket = await startAdminSocket(
      db,
      env.dataDir,
      env.adminEmails,
      { backup: backupSocketCommand(db, images, createPrivateBackend(env)) },
      images,
    );
  } catch (error) {
    log().warn(`Admin command socket not started: ${(error as Error).message}`);
  }

  return {
    db,
    images,
    hub,
    scheduler,
    async close() {
      setAuditSink(null);
      await scheduler.stop();
      await stopScrubs(db);
      await outbox?.stop();
      await adminSocket?.close();
      await hub.close();
      await db.close();
      await presence?.close();
      await lock?.release();
    },
  };
}
