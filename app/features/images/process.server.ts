import sharp, { type Metadata } from "sharp";
import { VARIANT_WIDTHS, type VariantFormat, type VariantWidth } from "./variants";

export const IMAGE_LIMITS = {
  /** Largest upload accepted, in bytes. */
  maxBytes: 25 * 1024 * 1024,
  /** Largest decoded image, in pixels (guards against decompression bombs). */
  maxPixels: 50_000_000,
  /** Stored originals are at most this wide or tall. */
  maxEdge: 2400,
};

export class ImageRejectedError extends Error {}

export interface ImageVariant {
  width: VariantWidth;
  format: VariantFormat;
  data: Buffer;
}

export interface ProcessedImage {
  data: Buffer;
  width: number;
  height: number;
  /** Smaller copies for srcset (spec naming untouched: these sit beside the .jpg). */
  variants: ImageVariant[];
}

/**
 * Decodes whatever was uploaded (the bytes decide, never the file name), turns it upright and
 * re-encodes it as JPEG. Re-encoding drops every metadata block, GPS included.
 */
export async function processImage(input: Buffer): Promise<ProcessedImage> {
  if (input.length > IMAGE_LIMITS.maxBytes) {
    throw new ImageRejectedError(
      `The image is larger than ${IMAGE_LIMITS.maxBytes / 1024 / 1024} MB.`,
    );
  }
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejectedError("The file is not an image this site can read.");
  }
  if (!meta.width || !meta.height || !meta.format) {
    throw new ImageRejectedError("The file is not an image this site can read.");
  }
  if (meta.width * meta.height > IMAGE_LIMITS.maxPixels) {
    throw new ImageRejectedError(
      `The image has more than ${IMAGE_LIMITS.maxPixels / 1_000_000} million pixels.`,
    );
  }
  try {
    const { data, info } = await sharp(input, {
      limitInputPixels: IMAGE_LIMITS.maxPixels,
      failOn: "error",
    })
      .rotate()
      .resize({
        width: IMAGE_LIMITS.maxEdge,
        height: IMAGE_LIMITS.maxEdge,
        fit: "inside",
        withoutEnlargement: true,
      })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, variants: await makeVariants(data) };
  } catch (error) {
    if (error instanceof ImageRejectedError) throw error;
    throw new ImageRejectedError("The image could not be decoded.");
  }
}

/**
 * WebP for browsers (≈ 30% smaller than JPEG here) and JPEG as the fallback, at every variant
 * width, made from the already re-encoded original (never enlarged). WebP rather than AVIF:
 * AVIF costs seconds per photo on this hardware and uploads must stay under 2 s.
 */
export async function makeVariants(original: Buffer): Promise<ImageVariant[]> {
  const source = sharp(original);
  const jobs: Promise<ImageVariant>[] = [];
  for (const width of VARIANT_WIDTHS) {
    const resized = source.clone().resize({ width, withoutEnlargement: true });
    jobs.push(
      resized
        .clone()
        .webp({ quality: 72, effort: 2 })
        .toBuffer()
        .then((data) => ({ width, format: "webp" as const, data })),
      resized
        .clone()
        .jpeg({ quality: 75, progressive: true })
        .toBuffer()
        .then((data) => ({ width, format: "jpg" as const, data })),
    );
  }
  return Promise.all(jobs);
}
