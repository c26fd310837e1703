// Blobs as objects in one S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, Ceph RGW) through
// the AWS SDK v3; credentials, region and endpoint come from the SDK's standard variables.
// See blob-backend.server.ts.
import { readFile } from "node:fs/promises";
import { Readable } from "node:stream";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import type {
  BlobBackend,
  BlobInfo,
  BlobMeta,
  BlobSource,
  ListedBlob,
  StoredBlob,
} from "./blob-backend.server";

/**
 * A bucket has no folders and no rename: a PUT is atomic (a reader never sees half an object), a
 * "folder" is a key prefix, and a copy is CopyObject, done by the server (also into another bucket
 * on the same endpoint, such as the private bucket of the trash).
 */
export class S3Backend implements BlobBackend {
  constructor(
    readonly client: S3Client,
    readonly bucket: string,
  ) {}

  async reachable(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  async put(key: string, source: BlobSource, meta: BlobMeta): Promise<void> {
    // (Read whole: a streamed body goes aws-chunked with a trailing checksum, which some
    // S3-compatible servers store as part of the object. Photos are a few megabytes at most.)
    const body = Buffer.isBuffer(source)
      ? source
      : source instanceof Readable
        ? Buffer.concat(await source.toArray())
        : await readFile(source.file);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentType: meta.contentType,
        CacheControl: meta.cacheControl,
      }),
    );
  }

  /**
   * The object's metadata (HEAD); the body, or the range asked for, is fetched when read, and only
   * if the object is still that version (If-Match).
   */
  async get(key: string): Promise<StoredBlob | null> {
    const info = await this.head(key);
    if (!info) return null;
    const { client, bucket } = this;
    const body = (range?: { start: number; end: number }) =>
      Readable.from(
        (async function* () {
          const object = await client.send(
            new GetObjectCommand({
              Bucket: bucket,
              Key: key,
              IfMatch: info.etag,
              Range: range ? `bytes=${range.start}-${range.end}` : undefined,
            }),
          );
          yield* object.Body as Readable;
        })(),
        { objectMode: false },
      );
    return { ...info, body };
  }

  async head(key: string): Promise<BlobInfo | null> {
    const head = await this.client
      .send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }))
      .catch(unlessMissing);
    if (!head) return null;
    return {
      size: head.ContentLength ?? 0,
      modified: head.LastModified ?? new Date(0),
      etag: head.ETag,
    };
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** CopyObject, into this bucket or another one; the object's metadata is copied with it. */
  async copy(from: string, to: string, into: BlobBackend = this): Promise<boolean> {
    if (!(into instanceof S3Backend)) throw new Error("A bucket copies only to a bucket.");
    const copied = await this.client
      .send(
        new CopyObjectCommand({
          Bucket: into.bucket,
          Key: to,
          // (URL-encoded, as the API asks: folder names contain `%`.)
          CopySource: encodeURI(`${this.bucket}/${from}`),
        }),
      )
      .catch(unlessMissing);
    return copied !== null;
  }

  async list(prefix: string): Promise<ListedBlob[]> {
    const objects: ListedBlob[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
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

/** null for a missing object (or source of a copy), else the error thrown again. */
function unlessMissing(error: unknown): null {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  if (e.name === "NoSuchKey" || e.name === "NotFound" || e.$metadata?.httpStatusCode === 404) {
    return null;
  }
  throw error;
}
