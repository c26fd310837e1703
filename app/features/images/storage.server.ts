// Where photos are kept: one interface (ImageStore), implemented once by PhotoStore over a blob
// backend (docs/decisions/0061-photo-policy-over-blob-backends.md): the disk under DATA_DIR/images
// by default; with S3_BUCKET set, an S3-compatible bucket (docs/decisions/0038-object-storage.md).
import path from "node:path";
import type { Readable } from "node:stream";
import type { Collection } from "~/domain/listing-kinds";
import type { Env } from "~/shared/env.server";
import type { RepairInput, RepairReport } from "./disk-repair.server";
import { DiskImageStore } from "./disk-store.server";
import type { SiteFileKind } from "./photo-keys.server";
import type { ProcessedImage } from "./process.server";
import { S3ImageStore } from "./s3-store.server";
import type { VariantFormat, VariantWidth } from "./variants";

export { DiskImageStore } from "./disk-store.server";
export { IMAGE_URL_PREFIX, type SiteFileKind } from "./photo-keys.server";
export { S3ImageStore } from "./s3-store.server";

/** One stored photo, ready to be streamed to a visitor. */
export interface StoredPhoto {
  size: number;
  modified: Date;
  contentType: string;
  /** A strong validator when the backend has one (the object's ETag). */
  etag?: string;
  /** The bytes, streamed; only those from `start` to `end` (inclusive) when a range is given. */
  body(range?: { start: number; end: number }): Readable;
}

export interface StagedRemoval {
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

/**
 * Photos and their variants, by URL (`/images/{collection}/{folder}/{name}`). Callers go through
 * these methods only. "Files" and "folders" (filesOf, folder, stageRemoval, repair) are the
 * backend's own names for a photo and a listing's photos: paths on disk, keys in a bucket.
 */
export interface ImageStore {
  readonly kind: "disk" | "s3";
  /** Local folder for files being written and uploads being read (always on this machine). */
  readonly tempDir: string;
  /** Throws unless photos can be stored now (GET /readyz). */
  checkReachable(): Promise<void>;
  /** A fresh path in the temporary folder (which exists once this resolves). */
  tempPath(label?: string): Promise<string>;
  fileName(timestamp: number, index: number): string;
  /** Date.now(), but never the same twice in this process: two uploads never pick one name. */
  timestamp(): number;
  folder(collection: Collection, id: string): string;
  url(collection: Collection, id: string, fileName: string): string;
  save(collection: Collection, id: string, fileName: string, data: Buffer): Promise<string>;
  /**
   * Stores one of the site's own files under a new name (`/images/site/logo_{timestamp}.png`):
   * names never change content, so they are cached for good like photos (docs/behaviour.md §18).
   */
  saveSiteFile(kind: SiteFileKind, data: Buffer): Promise<string>;
  /** Whether `url` names one of the site's own files (which the listing checks never accept). */
  isSiteFile(url: string): boolean;
  /** The URL of every stored original (for background work such as making variants). */
  storedOriginals(): Promise<string[]>;
  /** The bytes of a stored photo (original or variant), or null when it is not there. */
  read(url: string): Promise<Buffer | null>;
  exists(url: string): Promise<boolean>;
  /** The photo behind one of our URLs, for serving, or null when it is not there or not ours. */
  open(url: string): Promise<StoredPhoto | null>;
  saveVariant(url: string, width: VariantWidth, format: VariantFormat, data: Buffer): Promise<void>;
  /** Stores a processed photo: its variants first, the original (which the record names) last. */
  saveProcessed(
    collection: Collection,
    id: string,
    fileName: string,
    image: ProcessedImage,
  ): Promise<string>;
  /** Every file of one stored photo: the original and its variants (those that exist or not). */
  filesOf(url: string): string[];
  /** Deletes a photo with its variants. */
  remove(url: string): Promise<void>;
  removeFolderIfEmpty(collection: Collection, id: string): Promise<void>;
  /** Removes files or folders only if a database change succeeds: see StagedRemoval. */
  stageRemoval(targets: string[]): Promise<StagedRemoval>;
  /**
   * Notes, before any of their files is written, the photos about to be stored for a record
   * that is not committed yet; call the returned function once the record names them (or they
   * were discarded). A crash in between leaves the note, and the start-up repair deletes
   * exactly the noted photos no record names (docs/decisions/0037-crash-safe-photo-writes.md).
   */
  notePending(urls: string[]): Promise<() => Promise<void>>;
  /**
   * The trash (docs/behaviour.md §21, §22): photos that only the change history or a deleted
   * listing still names wait under `.trash/` (never served; in a bucket, in the private bucket)
   * until their listing is purged or staff erase them (docs/decisions/0052-…).
   * `moveToTrash` takes photos (with their variants) out of public reach as a StagedRemoval: the
   * move and the database change happen together or not at all.
   */
  moveToTrash(urls: string[]): Promise<StagedRemoval>;
  /**
   * Brings photos back from the trash to their own URLs (a StagedRemoval of the trash copies).
   * Answers the URLs found neither there nor in place: the caller refuses the restore.
   */
  restoreFromTrash(urls: string[]): Promise<{ staged: StagedRemoval; missing: string[] }>;
  /**
   * Deletes photos for good, from the trash and from their place (a listing's purge, 'Erase for
   * good'): the variants first, the original last, so a photo cut short is still restorable.
   */
  purge(urls: string[]): Promise<void>;
  /** A trashed photo (original or variant), for staff only; null when it is not in the trash. */
  openTrashed(url: string): Promise<StoredPhoto | null>;
  /** Puts right what a crash left (see storage-repair.server.ts in listings). */
  repair(input: RepairInput): Promise<RepairReport>;
  /** A short name of a file or folder for logs. */
  describe(file: string): string;
  /**
   * Every stored key, sorted (backups): photos `{collection}/{folder}/{name}`, the site's files
   * `site/{name}` and trashed photos `.trash/{collection}/{folder}/{name}`.
   */
  keys(): Promise<string[]>;
  readKey(key: string): Promise<Buffer>;
  writeKey(key: string, data: Buffer): Promise<void>;
}

/** The store Env chooses: the bucket when S3_BUCKET is set, else DATA_DIR/images. */
export function createImageStore(env: Pick<Env, "dataDir" | "s3">): ImageStore {
  if (env.s3) {
    return new S3ImageStore({
      bucket: env.s3.bucket,
      privateBucket: env.s3.privateBucket,
      forcePathStyle: env.s3.forcePathStyle,
      tempDir: path.join(env.dataDir, "upload-tmp"),
    });
  }
  return new DiskImageStore(path.join(env.dataDir, "images"));
}
