// The photo policy, written once over a blob backend (docs/decisions/0061-photo-policy-over-blob-backends.md):
// names and URLs, variants, pending notes, the trash, erase for good and the start-up repair.
// Where the bytes live is the backend's business: disk-backend.server.ts or s3-backend.server.ts.
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { COLLECTIONS, type Collection } from "~/domain/listing-kinds";
import { type BlobBackend, type BlobSource, readAll } from "./blob-backend.server";
import { orphanDeletionWithheld, type RepairInput, type RepairReport } from "./disk-repair.server";
import {
  IMAGE_URL_PREFIX,
  isPhotoKey,
  isSiteUrl,
  isStoredKey,
  keyOfUrl,
  photoContentType,
  SITE_FILE_EXTENSION,
  SITE_PREFIX,
  type SiteFileKind,
  TRASH_PREFIX,
  trashKeyOf,
  urlOfKey,
} from "./photo-keys.server";
import type { ProcessedImage } from "./process.server";
import type { ImageStore, StagedRemoval, StoredPhoto } from "./storage.server";
import { folderName, isOriginalName, isPhotoName } from "./storage-names";
import { VARIANT_WIDTHS, type VariantFormat, type VariantWidth, variantUrl } from "./variants";

export interface PhotoStoreOptions {
  kind: "disk" | "s3";
  /** Where photos and the site's files live: what `/images` (or a CDN) serves. */
  live: BlobBackend;
  /**
   * Where the trash (`.trash/…` keys) lives: never served (docs/decisions/0052-…). `live` itself
   * when nothing serves `live` whole (on disk `/images` answers only photo and site keys).
   */
  trash: BlobBackend;
  /** Local folder for uploads being read and files being written (always on this machine). */
  tempDir: string;
  /**
   * Whether a write notes its photos before storing them (decision 0037). A bucket does without:
   * its repair deletes, after the grace period, every object no record names.
   */
  notesPending: boolean;
}

/** Notes of photos being written for a record that is not committed yet (see notePending). */
const PENDING_PREFIX = ".pending/";
/** The same caching as when the server answers (a CDN in front of a bucket keeps it). */
const CACHE_CONTROL = "public, max-age=31536000, immutable";

/**
 * Photos are keys `{collection}/{folder}/image_{timestamp}_{index}.jpg` with their variants beside
 * them, the site's files `site/{name}`, the trash `.trash/{photo key}` (photo-keys.server.ts).
 * The "files" this store answers (filesOf, folder, repair reports) are the backend's names for
 * keys: the key itself here, a path on disk (DiskImageStore).
 */
export class PhotoStore implements ImageStore {
  readonly kind: "disk" | "s3";
  readonly tempDir: string;
  protected readonly live: BlobBackend;
  protected readonly trash: BlobBackend;
  private readonly notesPending: boolean;
  private lastTimestamp = 0;

  constructor(options: PhotoStoreOptions) {
    this.kind = options.kind;
    this.live = options.live;
    this.trash = options.trash;
    this.tempDir = options.tempDir;
    this.notesPending = options.notesPending;
  }

  /** GET /readyz: the backends answer, and the temporary folder exists and is writable. */
  async checkReachable(): Promise<void> {
    await this.live.reachable();
    if (this.trash !== this.live) await this.trash.reachable();
    await fs.mkdir(this.tempDir, { recursive: true });
    await fs.access(this.tempDir, fs.constants.W_OK);
  }

  async tempPath(label = "file"): Promise<string> {
    await fs.mkdir(this.tempDir, { recursive: true });
    return path.join(this.tempDir, `${label}-${randomUUID()}.tmp`);
  }

  fileName(timestamp: number, index: number) {
    return `image_${timestamp}_${index}.jpg`;
  }

  timestamp() {
    this.lastTimestamp = Math.max(Date.now(), this.lastTimestamp + 1);
    return this.lastTimestamp;
  }

  folder(collection: Collection, id: string) {
    return this.fileOf(`${collection}/${folderName(id)}`);
  }

  url(collection: Collection, id: string, fileName: string) {
    return `${IMAGE_URL_PREFIX}/${collection}/${encodeURIComponent(folderName(id))}/${fileName}`;
  }

  /** The backend's name of a key (filesOf, folder, repair): the key itself; a path on disk. */
  protected fileOf(key: string): string {
    return key;
  }

  describe(file: string): string {
    return file;
  }

  async save(collection: Collection, id: string, fileName: string, data: Buffer): Promise<string> {
    if (!isPhotoName(fileName)) throw new Error(`Not a photo file name: ${fileName}`);
    await this.put(`${collection}/${folderName(id)}/${fileName}`, data);
    return this.url(collection, id, fileName);
  }

  async saveSiteFile(kind: SiteFileKind, data: Buffer): Promise<string> {
    const name = `${kind}_${this.timestamp()}.${SITE_FILE_EXTENSION[kind]}`;
    await this.put(`${SITE_PREFIX}${name}`, data);
    return `${IMAGE_URL_PREFIX}/site/${name}`;
  }

  isSiteFile(url: string): boolean {
    return isSiteUrl(url);
  }

  async storedOriginals(): Promise<string[]> {
    const urls: string[] = [];
    for (const collection of COLLECTIONS) {
      for (const { key } of await this.live.list(`${collection}/`)) {
        if (isPhotoKey(key) && isOriginalName(path.posix.basename(key))) urls.push(urlOfKey(key));
      }
    }
    return urls;
  }

  async read(url: string): Promise<Buffer | null> {
    const key = keyOfUrl(url);
    const blob = key ? await this.at(key).get(key) : null;
    return blob ? readAll(blob).catch(() => null) : null;
  }

  async exists(url: string): Promise<boolean> {
    const key = keyOfUrl(url);
    return key !== null && (await this.at(key).head(key)) !== null;
  }

  async open(url: string): Promise<StoredPhoto | null> {
    const key = keyOfUrl(url);
    return key ? this.openKey(key) : null;
  }

  async openTrashed(url: string): Promise<StoredPhoto | null> {
    const key = keyOfUrl(url);
    return key && !isSiteUrl(url) ? this.openKey(trashKeyOf(key)) : null;
  }

  private async openKey(key: string): Promise<StoredPhoto | null> {
    const blob = await this.at(key).get(key);
    return blob && { ...blob, contentType: photoContentType(key) };
  }

  async saveVariant(url: string, width: VariantWidth, format: VariantFormat, data: Buffer) {
    const original = keyOfUrl(url);
    const key = keyOfUrl(variantUrl(url, width, format));
    if (!original || !key || !isOriginalName(path.posix.basename(original))) {
      throw new Error(`Not one of our photos: ${url}`);
    }
    await this.put(key, data);
  }

  /**
   * Stores a processed photo: its variants first, the original (which the record names) last, so
   * a record never names a photo whose variants are missing; on failure all of it is removed.
   */
  async saveProcessed(
    collection: Collection,
    id: string,
    fileName: string,
    image: ProcessedImage,
  ): Promise<string> {
    const url = this.url(collection, id, fileName);
    try {
      for (const variant of image.variants) {
        const name = path.posix.basename(variantUrl(url, variant.width, variant.format));
        await this.save(collection, id, name, variant.data);
      }
      return await this.save(collection, id, fileName, image.data);
    } catch (error) {
      await this.remove(url);
      throw error;
    }
  }

  filesOf(url: string): string[] {
    return this.keysOf(url).map((key) => this.fileOf(key));
  }

  /** The keys of one stored photo: the original and its variants (those that exist or not). */
  private keysOf(url: string): string[] {
    const original = keyOfUrl(url);
    if (isSiteUrl(url)) return original ? [original] : [];
    if (!original || !isOriginalName(path.posix.basename(original))) return [];
    const variants = VARIANT_WIDTHS.flatMap((w) =>
      (["webp", "jpg"] as const).map((f) => keyOfUrl(variantUrl(url, w, f))),
    );
    return [original, ...variants.filter((v): v is string => v !== null)];
  }

  async remove(url: string) {
    await this.deleteKeys(this.keysOf(url));
  }

  /** A bucket has no folders: nothing to remove (a disk removes the empty folder). */
  async removeFolderIfEmpty(_collection: Collection, _id: string): Promise<void> {}

  /**
   * Targets are photo keys or listing folders (folder()); deleted when `commit` is called, so a
   * crash before leaves objects no record names, which the repair removes after the grace period.
   * (A disk moves them aside now instead: DiskImageStore.)
   */
  async stageRemoval(targets: string[]): Promise<StagedRemoval> {
    return {
      commit: async () => {
        const keys: string[] = [];
        for (const target of targets) {
          if (isPhotoKey(target)) keys.push(target);
          else if (target.split("/").length === 2) {
            keys.push(...(await this.live.list(`${target}/`)).map((o) => o.key));
          } else throw new Error(`Not a photo key or listing folder: ${target}`);
        }
        await this.deleteKeys(keys);
      },
      rollback: async () => {},
    };
  }

  async notePending(urls: string[]): Promise<() => Promise<void>> {
    if (!this.notesPending) return async () => {};
    const note = `${PENDING_PREFIX}${randomUUID()}.json`;
    await this.live.put(note, Buffer.from(JSON.stringify(urls)), meta(note));
    return () => this.live.delete(note);
  }

  /** Photos (with their variants) out of public reach, with the database change or not at all. */
  moveToTrash(urls: string[]): Promise<StagedRemoval> {
    return this.transfer(
      urls.flatMap((url) => this.keysOf(url).map((k): [string, string] => [k, trashKeyOf(k)])),
    );
  }

  async restoreFromTrash(urls: string[]): Promise<{ staged: StagedRemoval; missing: string[] }> {
    const missing: string[] = [];
    const pairs: [string, string][] = [];
    for (const url of urls) {
      const keys = this.keysOf(url);
      const [original] = keys;
      if (!original) {
        missing.push(url);
        continue;
      }
      const inPlace = (await this.live.head(original)) !== null;
      if (!inPlace && !(await this.trash.head(trashKeyOf(original)))) missing.push(url);
      for (const key of keys) pairs.push([trashKeyOf(key), key]);
    }
    return { staged: await this.transfer(pairs, true), missing };
  }

  /** Erases photos from the trash and their place: variants first, the original last. */
  async purge(urls: string[]) {
    for (const key of urls.flatMap((url) => this.keysOf(url).reverse())) {
      await this.trash.delete(trashKeyOf(key));
      await this.live.delete(key);
    }
  }

  /**
   * Moves each existing `from` to its `to` as a StagedRemoval. Where the backend renames (disk,
   * trash beside the photos) each moves now and `rollback` moves it back. Elsewhere (a bucket)
   * each is copied now (CopyObject), the sources deleted on `commit` and the copies on
   * `rollback`: a crash in between leaves both, and the repair deletes the public ones no record
   * names. `keepExisting`: a `to` already there is kept (its source still goes on commit).
   */
  private async transfer(pairs: [string, string][], keepExisting = false): Promise<StagedRemoval> {
    const done: [string, string][] = [];
    const sources: string[] = [];
    const { move } = this.live;
    const renames = move !== undefined && this.trash === this.live;
    const rollback = async () => {
      if (!renames) return this.deleteKeys(done.map(([, to]) => to));
      for (const [from, to] of done.reverse()) await move.call(this.live, to, from).catch(() => {});
    };
    try {
      for (const [from, to] of pairs) {
        if (renames) {
          if (await move.call(this.live, from, to)) done.push([from, to]);
        } else if (keepExisting && (await this.at(to).head(to))) {
          sources.push(from);
        } else if (await this.at(from).copy(from, to, this.at(to))) {
          done.push([from, to]);
          sources.push(from);
        }
      }
    } catch (error) {
      await rollback();
      throw error;
    }
    return { commit: () => this.deleteKeys(renames ? [] : sources), rollback };
  }

  async keys(): Promise<string[]> {
    const keys: string[] = [];
    for (const prefix of [...COLLECTIONS.map((c) => `${c}/`), SITE_PREFIX, TRASH_PREFIX]) {
      for (const { key } of await this.at(prefix).list(prefix)) {
        if (isStoredKey(key)) keys.push(key);
      }
    }
    return keys.sort();
  }

  async readKey(key: string): Promise<Buffer> {
    if (!isStoredKey(key)) throw new Error(`Not a photo key: ${key}`);
    const blob = await this.at(key).get(key);
    if (!blob) throw Object.assign(new Error(`No such photo: ${key}`), { code: "ENOENT" });
    return readAll(blob);
  }

  async writeKey(key: string, data: Buffer): Promise<void> {
    if (!isStoredKey(key)) throw new Error(`Not a photo key: ${key}`);
    await this.put(key, data);
  }

  /**
   * Puts right what a crash left: trash found in a public bucket moved to the private one, noted
   * photos of writes cut short deleted, temporary files deleted, what the backend itself left
   * settled (disk: staged removals), then photos no record names reported and, once older than
   * the grace period, deleted, unless the records look wrong (orphanDeletionWithheld).
   */
  async repair(input: RepairInput): Promise<RepairReport> {
    const now = input.now ?? Date.now();
    // (With no work in flight everything is taken: a file's mtime has sub-millisecond precision
    // and can be "later" than Date.now() read in the same millisecond.)
    const oldEnough = (ms: number) => input.inFlightMs <= 0 || now - ms >= input.inFlightMs;
    const report: RepairReport = {
      restored: [],
      finished: [],
      temporaryRemoved: 0,
      orphans: [],
      orphansRemoved: [],
      orphanDeletionWithheld: false,
      strays: [],
    };
    if (this.trash !== this.live) report.trashMadePrivate = await this.makeTrashPrivate();
    if (this.notesPending) report.pendingRemoved = await this.settlePending(input, oldEnough);
    for (const entry of await fs.readdir(this.tempDir).catch(() => [])) {
      const file = path.join(this.tempDir, entry);
      if (oldEnough((await fs.stat(file).catch(() => null))?.mtimeMs ?? 0)) {
        await fs.rm(file, { recursive: true, force: true });
        report.temporaryRemoved++;
      }
    }
    await this.settleBackend(input, report, oldEnough);
    const hasPhotos = new Set<string>();
    const orphans: { key: string; folder: string; modified: number }[] = [];
    for (const collection of COLLECTIONS) {
      for (const { key, modified } of await this.live.list(`${collection}/`)) {
        if (!isPhotoKey(key)) {
          if (!this.isWorkFile(key)) report.strays.push(this.fileOf(key));
          continue;
        }
        const folder = this.fileOf(path.posix.dirname(key));
        if (input.listingFolders.has(folder)) hasPhotos.add(folder);
        if (!input.referencedFiles.has(this.fileOf(key))) orphans.push({ key, folder, modified });
      }
    }
    report.orphans = orphans.map((o) => this.fileOf(o.key));
    report.orphanDeletionWithheld = orphanDeletionWithheld(
      orphans.map((o) => o.folder),
      input.listingFolders,
      hasPhotos.size,
    );
    if (!report.orphanDeletionWithheld) {
      const old = orphans.filter((o) => now - o.modified >= input.orphanGraceMs);
      await this.deleteKeys(old.map((o) => o.key));
      report.orphansRemoved.push(...old.map((o) => this.fileOf(o.key)));
    }
    await this.pruneFolders(input);
    return report;
  }

  /** What only this backend leaves behind (disk: staged removals); nothing for a bucket. */
  protected async settleBackend(
    _input: RepairInput,
    _report: RepairReport,
    _oldEnough: (ms: number) => boolean,
  ): Promise<void> {}

  /** Files the backend's own work leaves under a collection (never reported as strays). */
  protected isWorkFile(_key: string): boolean {
    return false;
  }

  /** Folders left empty without a listing (a bucket has none). */
  protected async pruneFolders(_input: RepairInput): Promise<void> {}

  /** Deletes the noted photos of writes cut short that no record names, then the notes. */
  private async settlePending(input: RepairInput, oldEnough: (ms: number) => boolean) {
    const removed: string[] = [];
    for (const note of await this.live.list(PENDING_PREFIX)) {
      // Another server's write may still be running (shared store, see inFlightMs).
      if (!oldEnough(note.modified)) continue;
      const blob = await this.live.get(note.key);
      const urls = blob
        ? await readAll(blob)
            .then((data) => JSON.parse(data.toString("utf8")) as unknown)
            .catch(() => [])
        : [];
      for (const url of Array.isArray(urls) ? urls : []) {
        if (typeof url !== "string") continue;
        for (const key of this.keysOf(url)) {
          if (input.referencedFiles.has(this.fileOf(key))) continue;
          if (!(await this.live.head(key))) continue;
          await this.live.delete(key);
          removed.push(this.fileOf(key));
        }
      }
      await this.live.delete(note.key);
    }
    return removed;
  }

  /**
   * Trash that an earlier version kept under `.trash/` in the public bucket moves to the private
   * one (decision 0052): copied first, deleted after, so a crash loses nothing and the next start
   * finishes. Answers the keys moved.
   */
  private async makeTrashPrivate(): Promise<string[]> {
    const moved: string[] = [];
    for (const { key } of await this.live.list(TRASH_PREFIX)) {
      if (!(await this.live.copy(key, key, this.trash))) continue;
      await this.live.delete(key);
      moved.push(key);
    }
    return moved;
  }

  /** The backend a key lives in: the trash's keys in the private one, the rest in the public. */
  private at(key: string): BlobBackend {
    return key.startsWith(TRASH_PREFIX) ? this.trash : this.live;
  }

  private put(key: string, source: BlobSource) {
    return this.at(key).put(key, source, meta(key));
  }

  private async deleteKeys(keys: string[]) {
    // Ten at a time (a bucket has no batch delete that every S3-compatible server accepts).
    for (let i = 0; i < keys.length; i += 10) {
      await Promise.all(keys.slice(i, i + 10).map((key) => this.at(key).delete(key)));
    }
  }
}

function meta(key: string) {
  return { contentType: photoContentType(key), cacheControl: CACHE_CONTROL };
}
