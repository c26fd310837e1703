import fs from "node:fs/promises";
import sharp, { type Metadata } from "sharp";
import { HttpError } from "~/shared/http-error.server";
import { sharpJob } from "./sharp-queue.server";
import { VARIANT_WIDTHS, type VariantFormat, type VariantWidth } from "./variants";

export const IMAGE_LIMITS = {
  /** Largest upload accepted, in bytes. */
  maxBytes: 25 * 1024 * 1024,
  /** Largest decoded image, in pixels (guards against decompression bombs). */
  maxPixels: 50_000_000,
  /** Stored originals are at most this wide or tall. */
  maxEdge: 2400,
};

/** A file that is no photo this site takes: a refusal of the upload (HTTP 400), with its reason. */
export class ImageRejectedError extends HttpError {
  constructor(message: string) {
    super(400, message);
    this.name = "ImageRejectedError";
  }
}

export interface ImageVariant {
  width: VariantWidth;
  format: VariantFormat;
  data: Buffer;
}

export interface ProcessedImage {
  data: Buffer;
  width: number;
  height: number;
  /** Smaller copies for srcset (the documented naming untouched: these sit beside the .jpg). */
  variants: ImageVariant[];
}

/** Photo formats accepted, by what the bytes decode as (sharp's format names). */
const PHOTO_FORMATS = new Set(["jpeg", "png", "webp", "gif", "heif"]);
const ACCEPTED = "JPEG, PNG, WebP, AVIF, HEIC or GIF";
export const NOT_AN_IMAGE = "The file is not an image this site can read.";

/** The checks every image upload passes before any pixel is decoded (size, format, pixels). */
async function checkUpload(input: Buffer | string): Promise<Metadata> {
  const size = typeof input === "string" ? (await fs.stat(input)).size : input.length;
  if (size > IMAGE_LIMITS.maxBytes) {
    throw new ImageRejectedError(
      `The image is larger than ${IMAGE_LIMITS.maxBytes / 1024 / 1024} MB.`,
    );
  }
  let meta: Metadata;
  try {
    // Reads the header only: dimensions and format, before any pixel is decoded.
    meta = await sharpJob(() => sharp(input, { limitInputPixels: false }).metadata());
  } catch {
    throw new ImageRejectedError(NOT_AN_IMAGE);
  }
  if (!meta.width || !meta.height || !meta.format) throw new ImageRejectedError(NOT_AN_IMAGE);
  if (!PHOTO_FORMATS.has(meta.format)) {
    throw new ImageRejectedError(
      `${formatLabel(meta.format)} files are not accepted. Send a photo: ${ACCEPTED}.`,
    );
  }
  if (meta.width * meta.height > IMAGE_LIMITS.maxPixels) {
    throw new ImageRejectedError(
      `The image has more than ${IMAGE_LIMITS.maxPixels / 1_000_000} million pixels.`,
    );
  }
  return meta;
}

/**
 * Decodes whatever was uploaded (the bytes decide, never the file name), turns it upright and
 * re-encodes it as JPEG. Re-encoding drops every metadata block, GPS included. Only photo
 * formats are taken: libvips also reads SVG, PDF, TIFF and more, which have no place here.
 * `input` is the upload's temporary file (or its bytes).
 */
export async function processImage(input: Buffer | string): Promise<ProcessedImage> {
  const meta = await checkUpload(input);
  try {
    const { data, info } = await sharpJob(() =>
      sharp(input, { limitInputPixels: IMAGE_LIMITS.maxPixels, failOn: "error", animated: false })
        .rotate()
        .resize({
          width: IMAGE_LIMITS.maxEdge,
          height: IMAGE_LIMITS.maxEdge,
          fit: "inside",
          withoutEnlargement: true,
        })
        .flatten({ background: "#ffffff" })
        .jpeg({ quality: 82, mozjpeg: true })
        .toBuffer({ resolveWithObject: true }),
    );
    return { data, width: info.width, height: info.height, variants: await makeVariants(data) };
  } catch (error) {
    if (error instanceof ImageRejectedError) throw error;
    if (meta.format === "heif" && meta.compression === "hevc") {
      throw new ImageRejectedError(
        "HEIC photos cannot be decoded on this server. Send it as JPEG (most phones can).",
      );
    }
    throw new ImageRejectedError(
      "The image could not be decoded: the file is damaged or incomplete.",
    );
  }
}

/** A logo is shown at most this wide (the hero shows it at twice the navbar's 80 px, doubled). */
const LOGO_MAX_WIDTH = 640;

/**
 * A logo upload: the same checks as a photo (the bytes decide; SVG, PDF and the like refused;
 * size and pixel limits), upright and without metadata, but kept as PNG so transparency stays.
 */
export async function processLogo(input: Buffer | string) {
  await checkUpload(input);
  try {
    const { data, info } = await sharpJob(() =>
      sharp(input, { limitInputPixels: IMAGE_LIMITS.maxPixels, failOn: "error", animated: false })
        .rotate()
        .resize({
          width: LOGO_MAX_WIDTH,
          height: LOGO_MAX_WIDTH,
          fit: "inside",
          withoutEnlargement: true,
        })
        .png({ compressionLevel: 9, palette: true })
        .toBuffer({ resolveWithObject: true }),
    );
    return { data, width: info.width, height: info.height };
  } catch {
    throw new ImageRejectedError(
      "The image could not be decoded: the file is damaged or incomplete.",
    );
  }
}

function formatLabel(format: string) {
  const labels: Record<string, string> = {
    svg: "SVG",
    pdf: "PDF",
    tiff: "TIFF",
    jp2k: "JPEG 2000",
  };
  return labels[format] ?? `${format.toUpperCase()}`;
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
    // Each encode is one queued job: a burst of uploads never takes every core.
    jobs.push(
      sharpJob(() => resized.clone().webp({ quality: 72, effort: 2 }).toBuffer()).then((data) => ({
        width,
        format: "webp" as const,
        data,
      })),
      sharpJob(() => resized.clone().jpeg({ quality: 75, progressive: true }).toBuffer()).then(
        (data) => ({ width, format: "jpg" as const, data }),
      ),
    );
  }
  return Promise.all(jobs);
}
