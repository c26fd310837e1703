// The small storage layer under the photo store (docs/decisions/0061-photo-policy-over-blob-backends.md):
// bytes by key, nothing about photos. Two implementations: disk-backend.server.ts (a folder) and
// s3-backend.server.ts (a bucket). Naming, variants, the trash and the repair are the photo
// store's (photo-store.server.ts), written once over this interface.
import type { Readable } from "node:stream";

export interface BlobInfo {
  size: number;
  modified: Date;
  /** A strong validator when the backend has one (a bucket's ETag; a file has none). */
  etag?: string;
}

/** One stored blob, its bytes read only when asked (a HEAD or a 304 downloads nothing). */
export interface StoredBlob extends BlobInfo {
  /** The bytes, streamed; only those from `start` to `end` (inclusive) when a range is given. */
  body(range?: { start: number; end: number }): Readable;
}

/** What `put` stores: bytes in memory, a stream, or a local file (read, never moved). */
export type BlobSource = Buffer | Readable | { file: string };

/** Sent with every put where the backend keeps it (a bucket's object metadata). */
export interface BlobMeta {
  contentType: string;
  cacheControl: string;
}

export interface ListedBlob {
  key: string;
  /** Modification time in milliseconds. */
  modified: number;
}

export interface BlobBackend {
  /** Throws unless the backend answers (GET /readyz). */
  reachable(): Promise<void>;
  /** Stores a whole blob at once: a reader sees the old bytes or the new ones, never half. */
  put(key: string, source: BlobSource, meta: BlobMeta): Promise<void>;
  /** The blob at `key`, or null when there is none. */
  get(key: string): Promise<StoredBlob | null>;
  head(key: string): Promise<BlobInfo | null>;
  /** Deletes `key` (nothing to do when it is not there). */
  delete(key: string): Promise<void>;
  /**
   * Copies `from` to `to` in `into` (by default this backend; a backend of the same kind): a
   * bucket copies server side (CopyObject). False when `from` is not there.
   */
  copy(from: string, to: string, into?: BlobBackend): Promise<boolean>;
  /**
   * Only where a move is one atomic rename (disk): the blob (or a whole folder) leaves `from`
   * and appears at `to` in one step. False when `from` is not there.
   */
  move?(from: string, to: string): Promise<boolean>;
  /** Every blob whose key starts with `prefix`, sorted by key. */
  list(prefix: string): Promise<ListedBlob[]>;
}

/** Reads a stored blob into memory. */
export async function readAll(blob: StoredBlob): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of blob.body()) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
