// `npm run backup -- <file>` and `npm run restore -- <file>` (docs/decisions/0040-backups.md).
// PostgreSQL: connects directly (the server keeps running). Embedded PGlite: one process per
// data directory, so a backup asks the running server over its admin socket to write the
// archive; with no server running, the CLI takes the data directory's lock and opens it itself.
// A restore needs an empty target, so never a running server on it.
import path from "node:path";
import { createPrivateBackend } from "~/features/applications/private-backend.server";
import {
  type BackupManifest,
  BackupRefusedError,
  readBackupManifest,
  restoreBackup,
  writeBackup,
} from "~/features/backup/index.server";
import {
  type BlobBackend,
  createImageStore,
  type ImageStore,
} from "~/features/images/index.server";
import {
  ADMIN_SOCKET_NAME,
  acquireDataDirLock,
  adminSocketPath,
  DataDirLockedError,
  sendAdminCommand,
} from "~/features/operations/index.server";
import { type Db, openDb } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import { makePrivateDir } from "~/shared/private-files.server";
import { notBackedUpTables } from "./features";

export const BACKUP_USAGE = `Usage: npm run backup -- <file>    write every table, photo and application document to <file> (a .tar.gz)
       npm run restore -- <file>   load <file> into an empty database, photo store and private store

Both read DATABASE_URL, DATA_DIR, S3_BUCKET and S3_PRIVATE_BUCKET like the server.
Application answers and documents stay sealed: keep APPLICATION_DATA_KEY apart from backups.
Exit codes: 0 done, 1 refused (the target is not empty, not a backup), 2 usage, 3 failed.`;

const EXIT = { ok: 0, refused: 1, usage: 2, failed: 3 } as const;
/** A large store takes a while; the socket waits this long for the server's answer. */
const SOCKET_BACKUP_TIMEOUT_MS = 6 * 3_600_000;

type Target = { db: Db; close(): Promise<void> };

/** The database the CLI opens itself: PostgreSQL, or the embedded one under its lock. */
async function openTarget(env: Env): Promise<Target> {
  if (env.databaseUrl) {
    const db = await openDb({ databaseUrl: env.databaseUrl, migrate: false });
    return { db, close: () => db.close() };
  }
  const dbDir = path.join(env.dataDir, "db");
  const lock = await acquireDataDirLock(dbDir);
  try {
    const db = await openDb({ dataDir: dbDir, migrate: false });
    return {
      db,
      async close() {
        await db.close();
        await lock.release();
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

function summary(manifest: BackupManifest) {
  const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
  return `${rows} rows in ${manifest.tables.length} tables, ${manifest.photos} photos, ${manifest.documents ?? 0} application documents (schema ${manifest.migrations.at(-1) ?? "empty"})`;
}

export async function runBackupCli(
  command: "backup" | "restore",
  args: readonly string[],
  env: Env,
): Promise<number> {
  if (args.length !== 1 || !args[0] || args[0].startsWith("-")) {
    console.error(BACKUP_USAGE);
    return EXIT.usage;
  }
  const file = path.resolve(args[0] as string);
  try {
    // A restore may create DATA_DIR (its database, its photos): owner-only, like the server does.
    if (command === "restore") await makePrivateDir(env.dataDir);
    if (command === "backup") {
      if (!env.databaseUrl) {
        // The running server writes it (it holds the embedded database).
        const answer = await sendAdminCommand(
          adminSocketPath(env.dataDir),
          { command: "backup", file } as never,
          SOCKET_BACKUP_TIMEOUT_MS,
        );
        if (answer) {
          const reply = answer as unknown as { ok: boolean; summary?: string; error?: string };
          if (!reply.ok) throw new Error(reply.error ?? "the server could not write the backup");
          console.log(`Backup written to ${file} by the running server: ${reply.summary}`);
          return EXIT.ok;
        }
      }
      const target = await openTarget(env);
      try {
        const manifest = await writeBackup(target.db, createImageStore(env), file, {
          documents: createPrivateBackend(env),
          notBackedUp: notBackedUpTables(),
        });
        console.log(`Backup written to ${file}: ${summary(manifest)}`);
      } finally {
        await target.close();
      }
      return EXIT.ok;
    }
    await readBackupManifest(file); // refused before the target is even opened
    const target = await openTarget(env);
    try {
      const { manifest } = await restoreBackup(target.db, createImageStore(env), file, {
        documents: createPrivateBackend(env),
        notBackedUp: notBackedUpTables(),
      });
      console.log(`Restored ${file}: ${summary(manifest)}`);
    } finally {
      await target.close();
    }
    return EXIT.ok;
  } catch (error) {
    if (error instanceof BackupRefusedError) {
      console.error(`Refused: ${error.message}`);
      return EXIT.refused;
    }
    if (error instanceof DataDirLockedError) {
      console.error(
        command === "restore"
          ? `Refused: a server is running on ${env.dataDir}; restore into an empty DATA_DIR with no server running.`
          : `${error.message} (and it does not answer on ${ADMIN_SOCKET_NAME})`,
      );
      return EXIT.refused;
    }
    console.error(`Failed: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.failed;
  }
}

/**
 * The running server's `backup` socket command (server/services.ts). `documents`: the private
 * backend of applications' documents (createPrivateBackend(env)); without it a backup is
 * refused once an application has a document.
 */
export function backupSocketCommand(db: Db, images: ImageStore, documents?: BlobBackend) {
  return async (request: Record<string, unknown>) => {
    const file = request.file;
    if (typeof file !== "string" || !path.isAbsolute(file)) {
      return { ok: false, error: "backup needs an absolute file path" };
    }
    const manifest = await writeBackup(db, images, file, {
      documents,
      notBackedUp: notBackedUpTables(),
    });
    return { ok: true, summary: summary(manifest) };
  };
}
