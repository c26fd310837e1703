// After a crash: the image store is brought back in line with the records (at start, then
// periodically for what was too young to judge). See ImageStore.repair for what is done.
import type { Collection } from "~/domain/listing-kinds";
import type { ImageStore, RepairReport } from "~/features/images/index.server";
import type { Queryable } from "~/shared/db.server";
import { log } from "~/shared/logger.server";
import type { PeriodicJob } from "~/shared/scheduler.server";
import { namedPhotos } from "./deleted.server";

const MINUTE = 60_000;

export const REPAIR_TIMING = {
  /** Photo files no record names are deleted once this old (an upload never takes this long). */
  orphanGraceMs: 60 * MINUTE,
  /**
   * Staged removals and temporary files younger than this may be another server's work in
   * progress (several servers on one PostgreSQL can share the image folder); alone on its
   * embedded database (the data-directory lock), a starting server takes them all at once.
   */
  sharedInFlightMs: 10 * MINUTE,
  /** A running server's own work in progress is protected the same way at later sweeps. */
  sweepEveryMs: 60 * MINUTE,
};

export interface RepairOptions {
  /** True when no other process can be writing to the image store right now. */
  exclusive: boolean;
  now?: number;
}

/** Compares the image store with every record and puts right what a crash left behind. */
export async function repairImageStorage(
  db: Queryable,
  images: ImageStore,
  { exclusive, now }: RepairOptions,
): Promise<RepairReport> {
  const rows = await db.query<{ collection: Collection; id: string; image_urls: string[] }>(
    "SELECT collection, id, image_urls FROM listings",
  );
  // A crash between moving a photo to the trash and the record's change leaves a listing naming
  // a photo in the trash: it is put back (docs/behaviour.md §21).
  for (const row of rows) {
    for (const url of row.image_urls) {
      if (await images.exists(url)) continue;
      const { staged } = await images.restoreFromTrash([url]);
      await staged.commit();
    }
  }
  // A crash while restoring can leave a photo the history or a deleted listing names in its
  // folder with no listing naming it: it goes back to the trash rather than being deleted.
  const live = new Set(rows.flatMap((r) => r.image_urls));
  for (const url of await namedPhotos(db)) {
    if (live.has(url) || !(await images.exists(url))) continue;
    await (await images.moveToTrash([url])).commit();
  }
  const referencedFiles = new Set([...live].flatMap(images.filesOf, images));
  const listingFolders = new Set(rows.map((r) => images.folder(r.collection, r.id)));
  return images.repair({
    referencedFiles,
    listingFolders,
    inFlightMs: exclusive ? 0 : REPAIR_TIMING.sharedInFlightMs,
    orphanGraceMs: REPAIR_TIMING.orphanGraceMs,
    now,
  });
}

/** Runs the repair once, at start: awaited, before the first request is served. */
export async function repairAtStart(
  db: Queryable,
  images: ImageStore,
  { exclusive }: { exclusive: boolean },
): Promise<void> {
  logReport(images, await repairImageStorage(db, images, { exclusive }));
}

/**
 * The repair again every `sweepEveryMs`, so orphans too young at start are removed once their
 * grace period is over.
 */
export function storageSweepJob(db: Queryable, images: ImageStore): PeriodicJob {
  return {
    name: "listings.storage-sweep",
    everySeconds: REPAIR_TIMING.sweepEveryMs / 1000,
    // At start the repair has just run, before the first request (repairAtStart).
    atStart: false,
    run: async () => {
      logReport(images, await repairImageStorage(db, images, { exclusive: false }));
      return undefined;
    },
  };
}

function logReport(images: ImageStore, report: RepairReport) {
  const rel = (file: string) => images.describe(file);
  const few = (files: string[]) =>
    files.slice(0, 5).map(rel).join(", ") +
    (files.length > 5 ? `, … (${files.length} in all)` : "");
  if (report.trashMadePrivate && report.trashMadePrivate.length > 0) {
    log().warn(
      `Image store: moved ${report.trashMadePrivate.length} trashed photo files from the public bucket to S3_PRIVATE_BUCKET.`,
    );
  }
  if (report.restored.length > 0) {
    log().warn(
      `Image store: restored ${report.restored.length} staged removals whose record remained: ${few(report.restored)}`,
    );
  }
  if (report.finished.length > 0) {
    log().warn(
      `Image store: finished ${report.finished.length} staged removals: ${few(report.finished)}`,
    );
  }
  if (report.temporaryRemoved > 0) {
    log().warn(
      `Image store: deleted ${report.temporaryRemoved} temporary files left by an interrupted write.`,
    );
  }
  if (report.orphanDeletionWithheld) {
    log().error(
      `Image store: ${report.orphans.length} photo files are named by no record: more than a crash leaves. Is this the right database? Nothing was deleted: ${few(report.orphans)}`,
    );
    return;
  }
  const kept = report.orphans.filter((f) => !report.orphansRemoved.includes(f));
  if (report.orphansRemoved.length > 0) {
    log().warn(
      `Image store: deleted ${report.orphansRemoved.length} photo files no record names: ${few(report.orphansRemoved)}`,
    );
  }
  if (kept.length > 0) {
    log().warn(
      `Image store: ${kept.length} photo files no record names, kept until they are ${REPAIR_TIMING.orphanGraceMs / MINUTE} minutes old: ${few(kept)}`,
    );
  }
  if (report.strays.length > 0) {
    log().warn(
      `Image store: ${report.strays.length} files that are no photo (left alone): ${few(report.strays)}`,
    );
  }
}
