// Photo URLs and object keys: one photo is `/images/{collection}/{folder}/{name}` on the site and
// `{collection}/{folder}/{name}` in the store (a file under DATA_DIR/images, or a bucket object),
// where folder is the listing's folder name (storage-names.ts) and name the spec's
// `image_{timestamp}_{index}.jpg` or one of its variants (docs/decisions/0038-object-storage.md).
import { isCollection } from "~/domain/listing-kinds";
import { decodeSegment, isFolderName, isPhotoName } from "./storage-names";

export const IMAGE_URL_PREFIX = "/images";

const URL_SHAPE = /^\/images\/([^/]+)\/([^/]+)\/([^/]+)$/;

/**
 * The key behind one of our URLs (original or variant), or null when it is not one of ours. The
 * folder segment is decoded once and must be one plain name (no `/`, `\`, `..`, NUL, dot), the
 * file name one of our photo names.
 */
export function keyOfUrl(url: string): string | null {
  const match = URL_SHAPE.exec(url);
  if (!match) return null;
  const [, collection = "", encodedFolder = "", fileName = ""] = match;
  const folder = decodeSegment(encodedFolder);
  if (!isCollection(collection) || folder === null || !isFolderName(folder)) return null;
  return isPhotoName(fileName) ? `${collection}/${folder}/${fileName}` : null;
}

/** Whether `key` is the key of a photo: `{collection}/{folder}/{photo name}`. */
export function isPhotoKey(key: string): boolean {
  const [collection = "", folder = "", name = "", ...rest] = key.split("/");
  return rest.length === 0 && isCollection(collection) && isFolderName(folder) && isPhotoName(name);
}

/** The site URL of a photo key (the folder is URL-encoded once more, as always). */
export function urlOfKey(key: string): string {
  const [collection, folder, name] = key.split("/") as [string, string, string];
  return `${IMAGE_URL_PREFIX}/${collection}/${encodeURIComponent(folder)}/${name}`;
}

export function photoContentType(name: string): string {
  return name.endsWith(".webp") ? "image/webp" : "image/jpeg";
}
