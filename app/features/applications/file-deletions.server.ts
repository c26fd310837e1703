// Documents whose row is gone but whose file is still to be deleted (migration 0021;
// docs/decisions/0075-erasure-reaches-everything.md): the keys are queued in the transaction that
// deletes the rows, each is dequeued once its file is gone, and the hourly retention worker
// (index.server.ts) tries the rest again until done. A store that fails never fails the request.
import type { Db, Queryable } from "~/shared/db.server";
import { log } from "~/shared/logger.server";
import type { DocumentVault } from "./documents.server";

/** Queues files for deletion; call it in the transaction that deletes their rows. */
export async function queueFileDeletions(tx: Queryable, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await tx.query(
    `INSERT INTO file_deletions (storage_key) SELECT unnest($1::text[])
     ON CONFLICT (storage_key) DO NOTHING`,
    [keys],
  );
}

/**
 * Deletes the queued files (these `keys`, or every queued one), dequeuing each once it is gone;
 * a failure stays queued with its reason. Returns how many are still queued of those tried.
 */
export async function deleteQueuedFiles(
  db: Db,
  remove: (key: string) => Promise<void>,
  keys?: readonly string[],
): Promise<{ deleted: number; failed: number }> {
  const due =
    keys ??
    (
      await db.query<{ key: string }>(
        "SELECT storage_key AS key FROM file_deletions ORDER BY queued_at LIMIT 1000",
      )
    ).map((r) => r.key);
  let deleted = 0;
  let failed = 0;
  for (const key of due) {
    try {
      await remove(key);
      await db.query("DELETE FROM file_deletions WHERE storage_key = $1", [key]);
      deleted++;
    } catch (error) {
      failed++;
      log().warn({ err: error, storageKey: key }, "document not deleted yet: will try again");
      await db
        .query(
          `UPDATE file_deletions SET attempts = attempts + 1, last_error = $2
           WHERE storage_key = $1`,
          [key, String((error as Error)?.message ?? error).slice(0, 500)],
        )
        .catch(() => undefined);
    }
  }
  return { deleted, failed };
}

/** Deletes these queued documents from the vault now (see deleteQueuedFiles). */
export const removeQueued = (db: Db, vault: DocumentVault, keys: readonly string[]) =>
  deleteQueuedFiles(db, (key) => vault.remove([key]), keys);
