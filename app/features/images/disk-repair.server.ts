// What the start-up repair (PhotoStore.repair) is given and reports, its rule for suspect records,
// and what only a disk leaves behind: staged removals and temporary files of earlier versions.
import fs from "node:fs/promises";
import path from "node:path";
import { COLLECTIONS } from "~/domain/listing-kinds";
import { isFolderName } from "./storage-names";

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

/** Keys (under a collection) of the disk's own work: staged removals, earlier temporary files. */
export function isDiskWorkFile(key: string): boolean {
  return key.split("/").some((segment) => LEGACY_STAGED.test(segment)) || LEGACY_TEMP.test(key);
}

/**
 * What only a disk leaves (DiskImageStore.stageRemoval and earlier versions), settled before the
 * photo store looks for photos no record names: staged listing folders and photo files are put
 * back while their record names them and deleted otherwise; temporary files that earlier
 * versions wrote beside the photos are deleted once old enough.
 */
export async function settleDiskStaging(
  root: string,
  input: RepairInput,
  report: RepairReport,
  oldEnough: (timeMs: number) => boolean,
): Promise<void> {
  for (const collection of COLLECTIONS) {
    const collectionDir = path.join(root, collection);
    // Staged listing folders: undone while the record exists, else finished.
    await settleStaged(collectionDir, (target) => input.listingFolders.has(target));
    for (const entry of await list(collectionDir)) {
      if (!entry.isDirectory() || !isFolderName(entry.name)) continue;
      const folder = path.join(collectionDir, entry.name);
      // Staged photo files inside a listing folder: undone while a record names them.
      await settleStaged(folder, (target) => input.referencedFiles.has(target));
      for (const file of await list(folder)) {
        const full = path.join(folder, file.name);
        if (file.isFile() && LEGACY_TEMP.test(file.name) && oldEnough(await mtime(full))) {
          await fs.rm(full, { force: true });
          report.temporaryRemoved++;
        }
      }
    }
  }

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

/** A listing folder with nothing left and no listing goes (after the orphans). */
export async function pruneDiskFolders(root: string, input: RepairInput): Promise<void> {
  for (const collection of COLLECTIONS) {
    const collectionDir = path.join(root, collection);
    for (const entry of await list(collectionDir)) {
      const folder = path.join(collectionDir, entry.name);
      if (entry.isDirectory() && isFolderName(entry.name) && !input.listingFolders.has(folder)) {
        await fs.rmdir(folder).catch(() => undefined);
      }
    }
  }
}

/**
 * The rule for photos no record names, for every backend: a crash between storing and recording
 * leaves a few, in at most one folder without a listing (an add cut short). Unnamed photos in
 * several such folders, or in the only folder that has photos, mean the records are suspect (the
 * wrong or an empty database): all are kept and the report says so.
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
