import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { COLLECTIONS, type Collection } from "~/domain/listing-kinds";
import { type RepairInput, type RepairReport, repairDisk } from "./disk-repair.server";
import {
  IMAGE_URL_PREFIX,
  isSiteUrl,
  isStoredKey,
  keyOfUrl,
  photoContentType,
  SITE_FILE_EXTENSION,
  SITE_PREFIX,
  type SiteFileKind,
  TRASH_PREFIX,
} from "./photo-keys.server";
import type { ProcessedImage } from "./process.server";
import { saveProcessedPhoto } from "./save-processed.server";
import type { ImageStore, StagedRemoval, StoredPhoto } from "./storage.server";
import { folderName, isFolderName, isOriginalName, isPhotoName } from "./storage-names";
import { VARIANT_WIDTHS, type VariantFormat, type VariantWidth, variantUrl } from "./variants";

/**
 * Images live on local disk in a folder per listing: {root}/{collection}/{folder}/image_{ts}_{i}.jpg
 * (folder: see storage-names.ts). Everything else the store writes starts with a dot and is never
 * a photo: `.tmp/` (files being written, uploads being read) and `.removing-…/` (staged removals).
 * Callers go through these methods only, so another backend can take the same place.
 */
export class DiskImageStore implements ImageStore {
  readonly kind = "disk";
  private lastTimestamp = 0;
  private stagings = 0;

  constructor(readonly root: string) {}

  /** GET /readyz: the temporary folder exists or can be made, and is writable. */
  async checkReachable(): Promise<void> {
    await fs.mkdir(this.tempDir, { recursive: true });
    await fs.access(this.tempDir, fs.constants.W_OK);
  }

  /** Files being written or uploads being read; same filesystem as the photos (renames). */
  get tempDir() {
    return path.join(this.root, ".tmp");
  }

  /** A fresh path in the temporary folder (which exists once this resolves). */
  async tempPath(label = "file"): Promise<string> {
    await fs.mkdir(this.tempDir, { recursive: true });
    return path.join(this.tempDir, `${label}-${randomUUID()}.tmp`);
  }

  fileName(timestamp: number, index: number) {
    return `image_${timestamp}_${index}.jpg`;
  }

  /** Date.now(), but never the same twice in this process: two uploads never pick one name. */
  timestamp() {
    this.lastTimestamp = Math.max(Date.now(), this.lastTimestamp + 1);
    return this.lastTimestamp;
  }

  folder(collection: Collection, id: string) {
    return this.inside(path.join(this.root, collection, folderName(id)));
  }

  url(collection: Collection, id: string, fileName: string) {
    return `${IMAGE_URL_PREFIX}/${collection}/${encodeURIComponent(folderName(id))}/${fileName}`;
  }

  async save(collection: Collection, id: string, fileName: string, data: Buffer): Promise<string> {
    if (!isPhotoName(fileName)) throw new Error(`Not a photo file name: ${fileName}`);
    await this.writeFile(path.join(this.folder(collection, id), fileName), data);
    return this.url(collection, id, fileName);
  }

  /**
   * Written in the temporary folder, then renamed into place: a reader never sees half a file,
   * and a crash leaves nothing in the listing's folder (the start-up repair empties `.tmp`).
   */
  private async writeFile(file: string, data: Buffer) {
    const temp = await this.tempPath("write");
    try {
      await fs.writeFile(temp, data);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.rename(temp, this.inside(file));
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
  }

  /**
   * Stores one of the site's own files under a new name (`/images/site/logo_{timestamp}.png`):
   * names never change content, so they are cached for good like photos.
   */
  async saveSiteFile(kind: SiteFileKind, data: Buffer): Promise<string> {
    const name = `${kind}_${this.timestamp()}.${SITE_FILE_EXTENSION[kind]}`;
    await this.writeFile(path.join(this.root, "site", name), data);
    return `${IMAGE_URL_PREFIX}/site/${name}`;
  }

  isSiteFile(url: string): boolean {
    return isSiteUrl(url);
  }

  /** The URL of every stored original (for background work such as making variants). */
  async storedOriginals(): Promise<string[]> {
    const urls: string[] = [];
    for (const collection of COLLECTIONS) {
      const dir = path.join(this.root, collection);
      for (const folder of await fs.readdir(dir).catch(() => [])) {
        if (!isFolderName(folder)) continue;
        for (const name of await fs.readdir(path.join(dir, folder)).catch(() => [])) {
          if (isOriginalName(name)) {
            urls.push(`${IMAGE_URL_PREFIX}/${collection}/${encodeURIComponent(folder)}/${name}`);
          }
        }
      }
    }
    return urls;
  }

  /** The bytes of a stored photo (original or variant), or null when it is not there. */
  async read(url: string): Promise<Buffer | null> {
    const file = this.pathOf(url);
    return file ? fs.readFile(file).catch(() => null) : null;
  }

  async exists(url: string): Promise<boolean> {
    const file = this.pathOf(url);
    return (
      file !== null &&
      (await fs.access(file).then(
        () => true,
        () => false,
      ))
    );
  }

  /** Stores one responsive variant beside an original that is already stored. */
  async saveVariant(url: string, width: VariantWidth, format: VariantFormat, data: Buffer) {
    const file = this.pathOf(variantUrl(url, width, format));
    if (!file || !isOriginalName(path.basename(this.pathOf(url) ?? ""))) {
      throw new Error(`Not one of our photos: ${url}`);
    }
    await this.writeFile(file, data);
  }

  /** Stores a processed photo: its variants first, the original (which the record names) last. */
  saveProcessed(
    collection: Collection,
    id: string,
    fileName: string,
    image: ProcessedImage,
  ): Promise<string> {
    return saveProcessedPhoto(this, collection, id, fileName, image);
  }

  /** Every file of one stored photo: the original and its variants (those that exist or not). */
  filesOf(url: string): string[] {
    if (isSiteUrl(url)) return [this.pathOf(url)].filter((f): f is string => f !== null);
    const original = this.pathOf(url);
    if (!original || !isOriginalName(path.basename(original))) return [];
    const variants = VARIANT_WIDTHS.flatMap((w) =>
      (["webp", "jpg"] as const).map((f) => this.pathOf(variantUrl(url, w, f))),
    );
    return [original, ...variants.filter((v): v is string => v !== null)];
  }

  /**
   * The file behind one of our URLs (original or variant), or null when it is not one of ours.
   * The folder segment is decoded once and must be one plain name (no `/`, `\`, `..`, NUL, dot),
   * the file name one of our photo names, and the result must lie inside the root.
   */
  pathOf(url: string): string | null {
    const key = keyOfUrl(url);
    return key === null ? null : this.pathOfKey(key);
  }

  /** The file of an object key (`{collection}/{folder}/{name}`, see photo-keys.server.ts). */
  private pathOfKey(key: string): string | null {
    const file = path.join(this.root, ...key.split("/"));
    return isInside(this.root, file) ? file : null;
  }

  async open(url: string): Promise<StoredPhoto | null> {
    const file = this.pathOf(url);
    return file ? this.openFile(file) : null;
  }

  private async openFile(file: string): Promise<StoredPhoto | null> {
    const stat = await fs.stat(file).catch(() => null);
    if (!stat?.isFile()) return null;
    return {
      size: stat.size,
      modified: stat.mtime,
      contentType: photoContentType(file),
      body: (range) => createReadStream(file, range),
    };
  }

  describe(file: string): string {
    return path.relative(this.root, file);
  }

  /**
   * Every stored key: photos (originals and variants), the site's files and trashed photos,
   * never temporary or staged files.
   */
  async keys(): Promise<string[]> {
    const keys: string[] = [];
    for (const prefix of ["", TRASH_PREFIX]) {
      for (const collection of COLLECTIONS) {
        const dir = path.join(this.root, prefix, collection);
        for (const folder of (await fs.readdir(dir).catch(() => [])).sort()) {
          if (!isFolderName(folder)) continue;
          for (const name of (await fs.readdir(path.join(dir, folder)).catch(() => [])).sort()) {
            if (isPhotoName(name)) keys.push(`${prefix}${collection}/${folder}/${name}`);
          }
        }
      }
    }
    for (const name of await fs.readdir(path.join(this.root, "site")).catch(() => [])) {
      if (isStoredKey(`${SITE_PREFIX}${name}`)) keys.push(`${SITE_PREFIX}${name}`);
    }
    return keys.sort();
  }

  async readKey(key: string): Promise<Buffer> {
    const file = isStoredKey(key) ? this.pathOfKey(key) : null;
    if (!file) throw new Error(`Not a photo key: ${key}`);
    return fs.readFile(file);
  }

  async writeKey(key: string, data: Buffer): Promise<void> {
    const file = isStoredKey(key) ? this.pathOfKey(key) : null;
    if (!file) throw new Error(`Not a photo key: ${key}`);
    await this.writeFile(file, data);
  }

  /** Deletes a photo with its variants. */
  async remove(url: string) {
    for (const file of this.filesOf(url)) await fs.rm(file, { force: true });
  }

  /** Removes a listing's folder if nothing is left in it (after a failed first upload). */
  async removeFolderIfEmpty(collection: Collection, id: string) {
    await fs.rmdir(this.folder(collection, id)).catch(() => undefined);
  }

  /**
   * Moves files aside so a database change can be tried: `commit` deletes them for good,
   * `rollback` puts them back. Storage and record then change together or not at all.
   * Each target moves, under its own name, into a `.removing-{pid}-{time}-{n}` folder beside
   * it: names never grow (a long folder name stays valid) and a crash leaves enough to decide
   * at the next start whether to finish or undo (see repair.server.ts).
   */
  async stageRemoval(targets: string[]): Promise<StagedRemoval> {
    const moved: [string, string][] = [];
    const stagingDirs = new Set<string>();
    const tag = `.removing-${process.pid}-${Date.now()}-${++this.stagings}`;
    const undo = async () => {
      for (const [target, aside] of moved.reverse()) {
        await fs.rename(aside, target).catch(() => undefined);
      }
      for (const dir of stagingDirs) await fs.rmdir(dir).catch(() => undefined);
    };
    try {
      for (const target of targets) {
        const file = this.inside(target);
        const stagingDir = path.join(path.dirname(file), tag);
        const aside = path.join(stagingDir, path.basename(file));
        try {
          await fs.access(file);
        } catch {
          continue;
        }
        await fs.mkdir(stagingDir, { recursive: true });
        stagingDirs.add(stagingDir);
        try {
          await fs.rename(file, aside);
          moved.push([file, aside]);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        }
      }
    } catch (error) {
      await undo();
      throw error;
    }
    return {
      commit: async () => {
        for (const dir of stagingDirs) await fs.rm(dir, { recursive: true, force: true });
      },
      rollback: undo,
    };
  }

  /**
   * The trash (docs/behaviour.md §21, §22): photos that only the change history or a deleted
   * listing still names wait in `{root}/.trash/…` (never served) until their listing is purged.
   * The files move now; `rollback` puts them back, so the move and the database change happen
   * together or not at all.
   */
  moveToTrash(urls: string[]): Promise<StagedRemoval> {
    return this.moveFiles(
      urls.flatMap((url) =>
        this.filesOf(url).map((f): [string, string] => [f, this.trashPathOf(f)]),
      ),
    );
  }

  async restoreFromTrash(urls: string[]): Promise<{ staged: StagedRemoval; missing: string[] }> {
    const missing: string[] = [];
    const pairs: [string, string][] = [];
    for (const url of urls) {
      const [original] = this.filesOf(url);
      if (!original) {
        missing.push(url);
        continue;
      }
      const inPlace = await exists(original);
      if (!inPlace && !(await exists(this.trashPathOf(original)))) missing.push(url);
      for (const file of this.filesOf(url)) pairs.push([this.trashPathOf(file), file]);
    }
    return { staged: await this.moveFiles(pairs), missing };
  }

  async purge(urls: string[]) {
    for (const file of urls.flatMap((url) => this.filesOf(url).reverse())) {
      await fs.rm(this.trashPathOf(file), { force: true });
      await fs.rm(file, { force: true });
    }
  }

  async openTrashed(url: string): Promise<StoredPhoto | null> {
    const file = this.pathOf(url);
    return file ? this.openFile(this.trashPathOf(file)) : null;
  }

  private trashPathOf(file: string): string {
    return this.inside(path.join(this.root, ".trash", path.relative(this.root, file)));
  }

  /** Renames each existing `from` to its `to`; `rollback` renames them back. */
  private async moveFiles(pairs: [string, string][]): Promise<StagedRemoval> {
    const moved: [string, string][] = [];
    const undo = async () => {
      for (const [from, to] of moved.reverse()) await fs.rename(to, from).catch(() => undefined);
    };
    try {
      for (const [from, to] of pairs) {
        if (!(await exists(from))) continue;
        await fs.mkdir(path.dirname(to), { recursive: true });
        await fs.rename(this.inside(from), this.inside(to));
        moved.push([from, to]);
      }
    } catch (error) {
      await undo();
      throw error;
    }
    return { commit: async () => undefined, rollback: undo };
  }

  /**
   * Puts right what a crash left (see disk-repair.server.ts): staged removals restored or
   * finished, temporary files deleted, photo files no record names reported and, once older
   * than the grace period, deleted.
   */
  async repair(input: RepairInput): Promise<RepairReport> {
    const pendingRemoved = await this.settlePending(input);
    const report = await repairDisk(this.root, this.tempDir, input);
    return { ...report, pendingRemoved };
  }

  /** Notes of photos being written for a record not yet committed (see notePending). */
  get pendingDir() {
    return path.join(this.root, ".pending");
  }

  async notePending(urls: string[]): Promise<() => Promise<void>> {
    await fs.mkdir(this.pendingDir, { recursive: true });
    const note = path.join(this.pendingDir, `${randomUUID()}.json`);
    await fs.writeFile(note, JSON.stringify(urls));
    return () => fs.rm(note, { force: true });
  }

  /** Deletes the noted photos of writes cut short that no record names, then the notes. */
  private async settlePending(input: RepairInput): Promise<string[]> {
    const now = input.now ?? Date.now();
    const removed: string[] = [];
    const notes = await fs.readdir(this.pendingDir).catch(() => [] as string[]);
    for (const name of notes) {
      const note = path.join(this.pendingDir, name);
      const stat = await fs.stat(note).catch(() => null);
      if (!stat) continue;
      // Another server's write may still be running (shared store, see inFlightMs).
      if (input.inFlightMs > 0 && now - stat.mtimeMs < input.inFlightMs) continue;
      const urls = await fs
        .readFile(note, "utf8")
        .then((text) => JSON.parse(text) as unknown)
        .catch(() => []);
      for (const url of Array.isArray(urls) ? urls : []) {
        if (typeof url !== "string") continue;
        for (const file of this.filesOf(url)) {
          if (input.referencedFiles.has(file)) continue;
          const gone = await fs.rm(file).then(
            () => true,
            () => false,
          );
          if (gone) removed.push(file);
        }
      }
      await fs.rm(note, { force: true });
    }
    return removed;
  }

  /** `file` if it lies inside the root, else a thrown error (never a path outside). */
  private inside(file: string): string {
    if (!isInside(this.root, file)) throw new Error("Refused a path outside the image store.");
    return file;
  }
}

function isInside(root: string, file: string): boolean {
  const relative = path.relative(path.resolve(root), path.resolve(file));
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}

function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
