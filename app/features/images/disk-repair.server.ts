// What a crash can leave in the image folders, and how it is put right (ImageStore.repair).
import fs from "node:fs/promises";
import path from "node:path";
import { COLLECTIONS } from "~/domain/listing-kinds";
import { isFolderName, isPhotoName } from "./storage-names";

export interface RepairInput {
  /** Every file of every photo a record names (ImageStore.filesOf of each URL). */
  referencedFiles: ReadonlySet<string>;
  /** The folder of every listing that exists (ImageStore.folder). */
  listingFolders: ReadonlySet<string>;
  /** Staged removals and temporary files younger than this may belong to work in progress. */
  inFlightMs: number;
  /** Photo files no record names are removed once they are this old (by modification time). */
  orphanGraceMs: number;
  now?: number;
}

export interface RepairReport {
  /** Staged removals undone (their record still names them) and finished (it does not). */
  restored: string[];
  finished: string[];
  temporaryRemoved: number;
  /** Photo files no record names: all found, and those old enough to be removed. */
  orphans: string[];
  orphansRemoved: string[];
  /**
   * True when the unnamed photos look like a whole store without its records rather than a
   * crash's leftovers (the server pointed at the wrong or an empty database): nothing deleted.
   */
  orphanDeletionWithheld: boolean;
  /** Files that are no photo of ours (left alone, reported). */
  strays: string[];
  /** Trash objects moved out of the public bucket into the private one (S3_PRIVATE_BUCKET). */
  trashMadePrivate?: string[];
  /** Photos noted as being written for a record that was never committed, deleted. */
  pendingRemoved?: string[];
}

const STAGING_DIR = /^\.removing-(\d+)-(\d+)-\d+$/;
/** Staged by earlier versions: `{name}.removing-{pid}-{time}` beside the original. */
const LEGACY_STAGED = /^(.+)\.removing-(\d+)-(\d+)$/;
const LEGACY_TEMP = /\.tmp$/;

export async function repairDisk(
  root: string,
  tempDir: string,
  input: RepairInput,
): Promise<RepairReport> {
  const now = input.now ?? Date.now();
  const report: RepairReport = {
    restored: [],
    finished: [],
    temporaryRemoved: 0,
    orphans: [],
    orphansRemoved: [],
    orphanDeletionWithheld: false,
    strays: [],
  };
  const hasPhotos = new Set<string>();
  // (With no work in flight everything is taken: a file's mtime has sub-millisecond precision
  // and can be "later" than Date.now() read in the same millisecond.)
  const oldEnough = (timeMs: number) => input.inFlightMs <= 0 || now - timeMs >= input.inFlightMs;

  // 1. Temporary files: half-written photos and uploads being read when the process ended.
  for (const entry of await list(tempDir)) {
    const file = path.join(tempDir, entry.name);
    if (oldEnough(await mtime(file))) {
      await fs.rm(file, { recursive: true, force: true });
      report.temporaryRemoved++;
    }
  }

  for (const collection of COLLECTIONS) {
    const collectionDir = path.join(root, collection);
    // 2. Staged listing folders: undone while the record exists, else finished.
    await settleStaged(collectionDir, (target) => input.listingFolders.has(target));
    for (const entry of await list(collectionDir)) {
      if (!entry.isDirectory() || !isFolderName(entry.name)) {
        if (!STAGING_DIR.test(entry.name) && !LEGACY_STAGED.test(entry.name)) {
          report.strays.push(path.join(collectionDir, entry.name));
        }
        continue;
      }
      const folder = path.join(collectionDir, entry.name);
      // 3. Staged photo files inside a listing folder: undone while a record names them.
      await settleStaged(folder, (target) => input.referencedFiles.has(target));
      // 4. What is left: photos (referenced or not), legacy temporary files, strays.
      for (const file of await list(folder)) {
        const full = path.join(folder, file.name);
        if (file.isFile() && LEGACY_TEMP.test(file.name)) {
          if (oldEnough(await mtime(full))) {
            await fs.rm(full, { force: true });
            report.temporaryRemoved++;
          }
        } else if (!file.isFile() || !isPhotoName(file.name)) {
          if (!STAGING_DIR.test(file.name) && !LEGACY_STAGED.test(file.name)) {
            report.strays.push(full);
          }
        } else {
          if (input.listingFolders.has(folder)) hasPhotos.add(folder);
          if (!input.referencedFiles.has(full)) report.orphans.push(full);
        }
      }
    }
  }

  // 5. Photos no record names: a crash between storing and recording leaves a few, in at most
  // one folder without a listing (an add cut short). Unnamed photos in several such folders, or
  // in the only folder that has photos, mean the records are suspect: keep all and say so.
  report.orphanDeletionWithheld = orphanDeletionWithheld(
    report.orphans.map((file) => path.dirname(file)),
    input.listingFolders,
    hasPhotos.size,
  );
  if (!report.orphanDeletionWithheld) {
    for (const file of report.orphans) {
      if (now - (await mtime(file)) < input.orphanGraceMs) continue;
      await fs.rm(file, { force: true });
      report.orphansRemoved.push(file);
    }
  }
  // A folder with nothing left and no listing goes too.
  for (const collection of COLLECTIONS) {
    const collectionDir = path.join(root, collection);
    for (const entry of await list(collectionDir)) {
      const folder = path.join(collectionDir, entry.name);
      if (entry.isDirectory() && isFolderName(entry.name) && !input.listingFolders.has(folder)) {
        await fs.rmdir(folder).catch(() => undefined);
      }
    }
  }
  return report;

  /** Finds the staged removals directly in `dir` and restores or finishes each. */
  async function settleStaged(dir: string, keep: (target: string) => boolean) {
    for (const entry of await list(dir)) {
      const staging = STAGING_DIR.exec(entry.name);
      const legacy = staging ? null : LEGACY_STAGED.exec(entry.name);
      if (!staging && !legacy) continue;
      const stagedAt = Number(staging ? staging[2] : legacy?.[3]);
      if (!oldEnough(stagedAt)) continue;
      const aside = path.join(dir, entry.name);
      // New form: a folder holding the targets under their own names. Legacy: the target itself.
      const moves: [string, string][] = staging
        ? (await list(aside)).map((e) => [path.join(aside, e.name), path.join(dir, e.name)])
        : [[aside, path.join(dir, legacy?.[1] ?? "")]];
      for (const [from, target] of moves) {
        if (keep(target)) {
          await restore(from, target);
          report.restored.push(target);
        } else {
          await fs.rm(from, { recursive: true, force: true });
          report.finished.push(target);
        }
      }
      if (staging) await fs.rm(aside, { recursive: true, force: true });
    }
  }
}

/**
 * Step 5's rule, for every backend: unnamed photos in several folders without a listing, or in
 * the only folder that has photos, mean the records are suspect (the wrong or an empty database).
 */
export function orphanDeletionWithheld(
  orphanFolders: readonly string[],
  listingFolders: ReadonlySet<string>,
  listedFoldersWithPhotos: number,
): boolean {
  const unlisted = new Set(orphanFolders.filter((folder) => !listingFolders.has(folder)));
  return unlisted.size > 1 || (unlisted.size === 1 && listedFoldersWithPhotos === 0);
}

/** Puts a staged entry back; what was written at the target since then is kept. */
async function restore(from: string, target: string) {
  const existing = await fs.stat(target).catch(() => null);
  if (!existing) {
    await fs.rename(from, target);
    return;
  }
  if (existing.isDirectory()) {
    for (const entry of await list(from)) {
      const inTarget = path.join(target, entry.name);
      if (!(await fs.stat(inTarget).catch(() => null))) {
        await fs.rename(path.join(from, entry.name), inTarget);
      }
    }
  }
  await fs.rm(from, { recursive: true, force: true });
}

async function list(dir: string) {
  return fs.readdir(dir, { withFileTypes: true }).catch(() => []);
}

async function mtime(file: string) {
  return (await fs.stat(file).catch(() => null))?.mtimeMs ?? 0;
}
