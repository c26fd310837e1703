// Photos in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, Ceph RGW) through the AWS SDK
// v3: the object key is the photo's path under DATA_DIR/images on disk, `{collection}/{folder}/
// image_{timestamp}_{index}.jpg` and its variants (docs/decisions/0038-object-storage.md).
// Credentials, region and endpoint come from the SDK's standard variables.
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { COLLECTIONS, type Collection } from "~/domain/listing-kinds";
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
import { saveProcessedPhoto } from "./save-processed.server";
import type { ImageStore, StagedRemoval, StoredPhoto } from "./storage.server";
import { folderName, isOriginalName, isPhotoName } from "./storage-names";
import { VARIANT_WIDTHS, type VariantFormat, type VariantWidth, variantUrl } from "./variants";

export interface S3StoreOptions {
  bucket: string;
  /**
   * Where the trash lives (`S3_PRIVATE_BUCKET`): a bucket no CDN serves, so removed, deleted and
   * history-only photos are never public (docs/decisions/0052-trash-in-a-private-bucket.md).
   * Default: `bucket` itself (under `.trash/`), safe only while nothing public serves `bucket`.
   */
  privateBucket?: string;
  /** `S3_FORCE_PATH_STYLE=true`: `{endpoint}/{bucket}/{key}` (MinIO, Ceph, s3rver). */
  forcePathStyle: boolean;
  /** Local folder for uploads being read (the bucket only ever receives finished photos). */
  tempDir: string;
  client?: S3Client;
}

interface ListedObject {
  key: string;
  modified: number;
}

/**
 * A bucket has no folders and no rename: a PUT is atomic (a reader never sees half a photo), a
 * listing's "folder" is the key prefix `{collection}/{folder}`, and a staged removal deletes its
 * objects only once the database change is committed (a crash in between leaves objects no record
 * names, which the repair removes after the grace period).
 */
export class S3ImageStore implements ImageStore {
  readonly kind = "s3";
  readonly bucket: string;
  readonly privateBucket: string;
  readonly tempDir: string;
  readonly client: S3Client;
  private lastTimestamp = 0;

  constructor(options: S3StoreOptions) {
    this.bucket = options.bucket;
    this.privateBucket = options.privateBucket ?? options.bucket;
    this.tempDir = options.tempDir;
    this.client = options.client ?? new S3Client({ forcePathStyle: options.forcePathStyle });
  }

  /** GET /readyz: the bucket answers, and the local temporary folder is writable. */
  async checkReachable(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    if (this.privateBucket !== this.bucket) {
      await this.client.send(new HeadBucketCommand({ Bucket: this.privateBucket }));
    }
    await fs.mkdir(this.tempDir, { recursive: true });
    await fs.access(this.tempDir, fs.constants.W_OK);
  }

  /**
   * Nothing to note: the start-up repair lists the bucket and deletes, after the grace period,
   * every object no record names, which covers photos of a write a crash cut short.
   */
  async notePending(_urls: string[]): Promise<() => Promise<void>> {
    return async () => {};
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
    return `${collection}/${folderName(id)}`;
  }

  url(collection: Collection, id: string, fileName: string) {
    return `${IMAGE_URL_PREFIX}/${collection}/${encodeURIComponent(folderName(id))}/${fileName}`;
  }

  async save(collection: Collection, id: string, fileName: string, data: Buffer): Promise<string> {
    if (!isPhotoName(fileName)) throw new Error(`Not a photo file name: ${fileName}`);
    await this.put(`${this.folder(collection, id)}/${fileName}`, data);
    return this.url(collection, id, fileName);
  }

  /** The site's own files are objects `site/{kind}_{timestamp}.{ext}` (docs/behaviour.md §18). */
  async saveSiteFile(kind: SiteFileKind, data: Buffer): Promise<string> {
    const name = `${kind}_${this.timestamp()}.${SITE_FILE_EXTENSION[kind]}`;
    await this.put(`${SITE_PREFIX}${name}`, data);
    return `${IMAGE_URL_PREFIX}/site/${name}`;
  }

  isSiteFile(url: string): boolean {
    return isSiteUrl(url);
  }

  async storedOriginals(): Promise<string[]> {
    return (await this.keys())
      .filter((key) => isOriginalName(path.posix.basename(key)))
      .map(urlOfKey);
  }

  async read(url: string): Promise<Buffer | null> {
    const key = keyOfUrl(url);
    if (!key) return null;
    try {
      return await this.readKey(key);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async exists(url: string): Promise<boolean> {
    const key = keyOfUrl(url);
    return key ? this.hasKey(key) : false;
  }

  /**
   * The object's metadata only (HEAD): a 304 or a HEAD request downloads nothing, and the body,
   * or the range asked for, is fetched when read (and only if the object is still that version).
   */
  async open(url: string): Promise<StoredPhoto | null> {
    const key = keyOfUrl(url);
    return key ? this.openKey(key) : null;
  }

  private async openKey(key: string): Promise<StoredPhoto | null> {
    try {
      const bucket = this.bucketOf(key);
      const head = await this.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      const { client } = this;
      return {
        size: head.ContentLength ?? 0,
        modified: head.LastModified ?? new Date(0),
        contentType: photoContentType(key),
        etag: head.ETag,
        body: (range) =>
          Readable.from(
            (async function* () {
              const object = await client.send(
                new GetObjectCommand({
                  Bucket: bucket,
                  Key: key,
                  IfMatch: head.ETag,
                  Range: range ? `bytes=${range.start}-${range.end}` : undefined,
                }),
              );
              yield* object.Body as Readable;
            })(),
            { objectMode: false },
          ),
      };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async saveVariant(url: string, width: VariantWidth, format: VariantFormat, data: Buffer) {
    const original = keyOfUrl(url);
    const key = keyOfUrl(variantUrl(url, width, format));
    if (!original || !key || !isOriginalName(path.posix.basename(original))) {
      throw new Error(`Not one of our photos: ${url}`);
    }
    await this.put(key, data);
  }

  saveProcessed(
    collection: Collection,
    id: string,
    fileName: string,
    image: ProcessedImage,
  ): Promise<string> {
    return saveProcessedPhoto(this, collection, id, fileName, image);
  }

  filesOf(url: string): string[] {
    if (isSiteUrl(url)) return [keyOfUrl(url)].filter((k): k is string => k !== null);
    const original = keyOfUrl(url);
    if (!original || !isOriginalName(path.posix.basename(original))) return [];
    const variants = VARIANT_WIDTHS.flatMap((w) =>
      (["webp", "jpg"] as const).map((f) => keyOfUrl(variantUrl(url, w, f))),
    );
    return [original, ...variants.filter((v): v is string => v !== null)];
  }

  async remove(url: string) {
    await this.deleteKeys(this.filesOf(url));
  }

  /** A bucket has no folders: nothing to remove. */
  async removeFolderIfEmpty() {}

  /** Targets are photo keys or listing prefixes (folder()); deleted on commit only. */
  async stageRemoval(targets: string[]): Promise<StagedRemoval> {
    return {
      commit: async () => {
        const keys: string[] = [];
        for (const target of targets) {
          if (isPhotoKey(target)) keys.push(target);
          else if (target.split("/").length === 2) {
            keys.push(...(await this.list(`${target}/`)).map((o) => o.key));
          } else throw new Error(`Not a photo key or listing folder: ${target}`);
        }
        await this.deleteKeys(keys);
      },
      rollback: async () => {},
    };
  }

  /** The bucket an object key lives in: trash keys in the private one, the rest in the public. */
  private bucketOf(key: string): string {
    return key.startsWith(TRASH_PREFIX) ? this.privateBucket : this.bucket;
  }

  /**
   * The trash is the prefix `.trash/` of the private bucket (never served). A bucket has no rename: the photos are
   * copied there now, and their public objects deleted only when the database change commits
   * (`commit`); `rollback` deletes the copies. A crash in between leaves the photo in both
   * places: the public objects then are orphans the repair removes (docs/behaviour.md §21).
   */
  async moveToTrash(urls: string[]): Promise<StagedRemoval> {
    const copied: string[] = [];
    const rollback = async () => this.deleteKeys(copied.map(trashKeyOf));
    try {
      for (const key of urls.flatMap((url) => this.filesOf(url))) {
        if (await this.copyKey(key, trashKeyOf(key))) copied.push(key);
      }
    } catch (error) {
      await rollback();
      throw error;
    }
    return { commit: () => this.deleteKeys(copied), rollback };
  }

  /** Copies trashed photos back now; their trash copies go on `commit`, the new ones on `rollback`. */
  async restoreFromTrash(urls: string[]): Promise<{ staged: StagedRemoval; missing: string[] }> {
    const missing: string[] = [];
    const restored: string[] = [];
    const fromTrash: string[] = [];
    const rollback = async () => this.deleteKeys(restored);
    try {
      for (const url of urls) {
        const files = this.filesOf(url);
        const [original] = files;
        if (!original) {
          missing.push(url);
          continue;
        }
        const inPlace = await this.hasKey(original);
        if (!inPlace && !(await this.hasKey(trashKeyOf(original)))) missing.push(url);
        for (const key of files) {
          if (!inPlace || !(await this.hasKey(key))) {
            if (await this.copyKey(trashKeyOf(key), key)) restored.push(key);
          }
          fromTrash.push(trashKeyOf(key));
        }
      }
    } catch (error) {
      await rollback();
      throw error;
    }
    return {
      staged: { commit: () => this.deleteKeys(fromTrash), rollback },
      missing,
    };
  }

  async purge(urls: string[]) {
    for (const url of urls) {
      const [original, ...variants] = this.filesOf(url);
      if (!original) continue;
      await this.deleteKeys([...variants.map(trashKeyOf), ...variants]);
      await this.deleteKeys([trashKeyOf(original), original]);
    }
  }

  async openTrashed(url: string): Promise<StoredPhoto | null> {
    const key = keyOfUrl(url);
    return key && !isSiteUrl(url) ? this.openKey(trashKeyOf(key)) : null;
  }

  private async hasKey(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucketOf(key), Key: key }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  /** Copies one object (false when `from` is not there). */
  private async copyKey(from: string, to: string): Promise<boolean> {
    let data: Buffer;
    try {
      data = await this.readKey(from);
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
    await this.put(to, data);
    return true;
  }

  /**
   * Temporary upload files older than the in-flight time are deleted; objects no record names
   * are reported and, once older than the grace period, deleted, under the disk's rule for
   * suspect records (orphanDeletionWithheld). Nothing is ever staged in a bucket.
   */
  async repair(input: RepairInput): Promise<RepairReport> {
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
    report.trashMadePrivate = await this.moveTrashToPrivateBucket();
    for (const entry of await fs.readdir(this.tempDir).catch(() => [])) {
      const file = path.join(this.tempDir, entry);
      const modified = (await fs.stat(file).catch(() => null))?.mtimeMs ?? 0;
      if (input.inFlightMs <= 0 || now - modified >= input.inFlightMs) {
        await fs.rm(file, { recursive: true, force: true });
        report.temporaryRemoved++;
      }
    }
    const hasPhotos = new Set<string>();
    const modified = new Map<string, number>();
    for (const collection of COLLECTIONS) {
      for (const object of await this.list(`${collection}/`)) {
        if (!isPhotoKey(object.key)) {
          report.strays.push(object.key);
          continue;
        }
        const folder = path.posix.dirname(object.key);
        if (input.listingFolders.has(folder)) hasPhotos.add(folder);
        if (!input.referencedFiles.has(object.key)) {
          report.orphans.push(object.key);
          modified.set(object.key, object.modified);
        }
      }
    }
    report.orphanDeletionWithheld = orphanDeletionWithheld(
      report.orphans.map((key) => path.posix.dirname(key)),
      input.listingFolders,
      hasPhotos.size,
    );
    if (!report.orphanDeletionWithheld) {
      const old = report.orphans.filter(
        (key) => now - (modified.get(key) ?? now) >= input.orphanGraceMs,
      );
      await this.deleteKeys(old);
      report.orphansRemoved.push(...old);
    }
    return report;
  }

  /**
   * A store that kept its trash under `.trash/` in the public bucket (before S3_PRIVATE_BUCKET,
   * docs/decisions/0052-trash-in-a-private-bucket.md) moves it to the private bucket: each object
   * is copied first and deleted from the public bucket after, so a crash loses nothing and the
   * next start finishes. Answers the keys moved.
   */
  private async moveTrashToPrivateBucket(): Promise<string[]> {
    if (this.privateBucket === this.bucket) return [];
    const moved: string[] = [];
    for (const { key } of await this.list(TRASH_PREFIX, this.bucket)) {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key }),
      );
      const data = Buffer.from(
        await (
          object.Body as { transformToByteArray(): Promise<Uint8Array> }
        ).transformToByteArray(),
      );
      await this.put(key, data);
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
      moved.push(key);
    }
    return moved;
  }

  describe(key: string): string {
    return key;
  }

  async keys(): Promise<string[]> {
    const keys: string[] = [];
    for (const prefix of [...COLLECTIONS.map((c) => `${c}/`), SITE_PREFIX, TRASH_PREFIX]) {
      for (const object of await this.list(prefix)) {
        if (isStoredKey(object.key)) keys.push(object.key);
      }
    }
    return keys.sort();
  }

  async readKey(key: string): Promise<Buffer> {
    const object = await this.client.send(
      new GetObjectCommand({ Bucket: this.bucketOf(key), Key: key }),
    );
    return Buffer.from(
      await (object.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
    );
  }

  async writeKey(key: string, data: Buffer): Promise<void> {
    if (!isStoredKey(key)) throw new Error(`Not a photo key: ${key}`);
    await this.put(key, data);
  }

  private async put(key: string, data: Buffer) {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucketOf(key),
        Key: key,
        Body: data,
        ContentType: photoContentType(key),
        // The same caching as when the server answers (a CDN in front of the bucket keeps it).
        CacheControl: "public, max-age=31536000, immutable",
      }),
    );
  }

  private async deleteKeys(keys: string[]) {
    // One request per object: DeleteObjects needs checksums some S3-compatible servers refuse.
    for (let i = 0; i < keys.length; i += 10) {
      await Promise.all(
        keys
          .slice(i, i + 10)
          .map((key) =>
            this.client.send(new DeleteObjectCommand({ Bucket: this.bucketOf(key), Key: key })),
          ),
      );
    }
  }

  private async list(prefix: string, bucket = this.bucketOf(prefix)): Promise<ListedObject[]> {
    const objects: ListedObject[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key) {
          objects.push({ key: object.Key, modified: object.LastModified?.getTime() ?? 0 });
        }
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return objects;
  }
}

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === "NoSuchKey" || e.name === "NotFound" || e.$metadata?.httpStatusCode === 404;
}
