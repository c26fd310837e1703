import sharp, { type Metadata } from "sharp";

export const IMAGE_LIMITS = {
  /** Largest upload accepted, in bytes. */
  maxBytes: 25 * 1024 * 1024,
  /** Largest decoded image, in pixels (guards against decompression bombs). */
  maxPixels: 50_000_000,
  /** Stored originals are at most this wide or tall. */
  maxEdge: 2400,
};

export class ImageRejectedError extends Error {}

export interface ProcessedImage {
  data: Buffer;
  width: number;
  height: number;
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
    return { data, width: info.width, height: info.height };
  } catch {
    throw new ImageRejectedError("The image could not be decoded.");
  }
}
