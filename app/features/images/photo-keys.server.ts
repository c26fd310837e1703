// Photo URLs and object keys: one photo is `/images/{collection}/{folder}/{name}` on the site and
// `{collection}/{folder}/{name}` in the store (a file under DATA_DIR/images, or a bucket object),
// where folder is the listing's folder name (storage-names.ts) and name the spec's
// `image_{timestamp}_{index}.jpg` or one of its variants (docs/decisions/0038-object-storage.md).
import { isCollection } from "~/domain/listing-kinds";
import { decodeSegment, isFolderName, isPhotoName } from "./storage-names";

export const IMAGE_URL_PREFIX = "/images";

const URL_SHAPE = /^\/images\/([^/]+)\/([^/]+)\/([^/]+)$/;

/** The site's own files (docs/behaviour.md §18): the logo and the rental application PDF. */
export type SiteFileKind = "logo" | "application";
export const SITE_FILE_EXTENSION: Record<SiteFileKind, string> = {
  logo: "png",
  application: "pdf",
};
/** Site files are `/images/site/{name}` on the site and `site/{name}` in the store. */
export const SITE_PREFIX = "site/";
const SITE_NAME = /^(?:logo_\d{1,16}\.png|application_\d{1,16}\.pdf)$/;
const SITE_URL_SHAPE = /^\/images\/site\/([^/]+)$/;
/**
 * Photos that only the change history or a deleted listing still names wait under
 * `.trash/{photo key}` (never served) until their listing is purged (docs/behaviour.md §21, §22).
 */
export const TRASH_PREFIX = ".trash/";

/** Whether `url` names one of the site's own files (which the listing checks never accept). */
export function isSiteUrl(url: string): boolean {
  const match = SITE_URL_SHAPE.exec(url);
  return match !== null && SITE_NAME.test(match[1] ?? "");
}

/** Whether `key` is the key of a site file: `site/{logo_… .png | application_… .pdf}`. */
export function isSiteKey(key: string): boolean {
  return key.startsWith(SITE_PREFIX) && SITE_NAME.test(key.slice(SITE_PREFIX.length));
}

/** The trash key of a photo key. */
export function trashKeyOf(key: string): string {
  return `${TRASH_PREFIX}${key}`;
}

/** Every key a backup copies: photos, site files and photos in the trash. */
export function isStoredKey(key: string): boolean {
  if (key.startsWith(TRASH_PREFIX)) return isPhotoKey(key.slice(TRASH_PREFIX.length));
  return isPhotoKey(key) || isSiteKey(key);
}

/**
 * The key behind one of our URLs (original or variant), or null when it is not one of ours. The
 * folder segment is decoded once and must be one plain name (no `/`, `\`, `..`, NUL, dot), the
 * file name one of our photo names.
 */
export function keyOfUrl(url: string): string | null {
  if (isSiteUrl(url)) return `${SITE_PREFIX}${url.slice("/images/site/".length)}`;
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
  if (isSiteKey(key)) return `${IMAGE_URL_PREFIX}/${key}`;
  const [collection, folder, name] = key.split("/") as [string, string, string];
  return `${IMAGE_URL_PREFIX}/${collection}/${encodeURIComponent(folder)}/${name}`;
}

export function photoContentType(name: string): string {
  if (name.endsWith(".png")) return "image/png";
  if (name.endsWith(".pdf")) return "application/pdf";
  return name.endsWith(".webp") ? "image/webp" : "image/jpeg";
}
