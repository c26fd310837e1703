// The names photos are stored under, and the checks that keep every name one plain segment.
import { createHash } from "node:crypto";
import { VARIANT_WIDTHS } from "./variants";

/** Longest file or folder name most filesystems allow (ext4, XFS, APFS, NTFS), in bytes. */
export const MAX_NAME_BYTES = 255;
const HASH_CHARS = 32;

/**
 * Characters of a folder name: what encodeURIComponent leaves plus `%`, and `@` (which it never
 * leaves, so a shortened name can never equal another id's full name). No dot: listing keys have
 * none, so `.` and `..`, staged removals (`.removing-…`) and temporary files can never match.
 */
const FOLDER_NAME = /^[A-Za-z0-9\-_!~*'()%@]+$/;

/**
 * The folder of one listing: its key, URL-encoded (as always, so existing folders keep their
 * names and photo URLs stay stable). A key whose encoded form is too long for the filesystem
 * (about 30 CJK characters already are) keeps a readable prefix and ends in `@` and a hash.
 */
export function folderName(id: string): string {
  // (A lone surrogate cannot be URL-encoded: such a key gets the hashed form.)
  const encoded = /\p{Cs}/u.test(id) ? "" : encodeURIComponent(id);
  if (encoded.length > 0 && encoded.length <= MAX_NAME_BYTES && FOLDER_NAME.test(encoded)) {
    return encoded;
  }
  const safe = encoded.replace(/[^A-Za-z0-9\-_!~*'()%]/g, "");
  // Cut on a character boundary: never inside a %XX escape.
  let prefix = safe.slice(0, MAX_NAME_BYTES - HASH_CHARS - 1);
  prefix = prefix.replace(/%[0-9A-F]?$/, "");
  const hash = createHash("sha256").update(id).digest("hex").slice(0, HASH_CHARS);
  return `${prefix}@${hash}`;
}

/** Whether `name` (already URL-decoded once) can be a listing folder: one plain segment. */
export function isFolderName(name: string): boolean {
  return name.length <= MAX_NAME_BYTES && FOLDER_NAME.test(name);
}

const ORIGINAL = /^image_\d{1,16}_\d{1,6}\.jpg$/;
const VARIANT = /^image_\d{1,16}_\d{1,6}\.w(\d+)\.(?:webp|jpg)$/;

/** The documented (docs/behaviour.md §12) `image_{timestamp}_{index}.jpg`. */
export function isOriginalName(name: string): boolean {
  return ORIGINAL.test(name);
}

/** An original or one of its responsive variants: the only files ever served. */
export function isPhotoName(name: string): boolean {
  if (ORIGINAL.test(name)) return true;
  const variant = VARIANT.exec(name);
  return variant !== null && (VARIANT_WIDTHS as readonly number[]).includes(Number(variant[1]));
}

/** decodeURIComponent that answers null (never throws) for malformed input. */
export function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
