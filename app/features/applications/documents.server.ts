// An application's documents (issue 22 items 2 and 7): photo ID and proof of income as JPEG, PNG
// or PDF. The bytes decide the type, never the name. Images are decoded and re-encoded (every
// metadata block, GPS included, is dropped); PDFs must load, be unencrypted and carry no script,
// launch action or embedded file. What is kept is sealed (seal.server.ts) and stored under
// `applications/` of a private backend: DATA_DIR/private on disk (outside the served photo
// folder), the private bucket with S3 (docs/decisions/0052); only an admin route reads it back.
import { randomUUID } from "node:crypto";
import { PDFDocument } from "pdf-lib";
import sharp from "sharp";
import { DOCUMENT_LIMITS } from "~/domain/rental-application";
import { type BlobBackend, IMAGE_LIMITS, readAll, sharpJob } from "~/features/images/index.server";
import { documentContext } from "./names.server";
import { type KeyMaterial, seal, unseal } from "./seal.server";

export class DocumentRejectedError extends Error {}

export const DOCUMENT_ERRORS = {
  tooBig: `A file may be at most ${DOCUMENT_LIMITS.bytes / 1024 / 1024} MB.`,
  type: "Send a JPEG, PNG or PDF file.",
  damaged: "The file could not be read: it is damaged or incomplete.",
  encrypted: "The PDF is password-protected. Send it without a password.",
  active: "The PDF contains scripts or attached files. Print it to a new PDF and send that.",
  tooManyPixels: `The image has more than ${IMAGE_LIMITS.maxPixels / 1_000_000} million pixels.`,
} as const;

export type DocumentType = (typeof DOCUMENT_LIMITS.types)[number];

const isPdf = (bytes: Buffer) => bytes.subarray(0, 1024).includes(Buffer.from("%PDF-"));
/** PDF names that run or carry something (an /OpenAction that only sets the view is fine). */
const ACTIVE_PDF = /\/(JavaScript|JS|Launch|EmbeddedFiles?|RichMedia)\b/;

/** Checks an upload and returns what is kept: re-encoded image bytes, or the PDF as sent. */
export async function checkDocument(bytes: Buffer): Promise<{ data: Buffer; type: DocumentType }> {
  if (bytes.length === 0) throw new DocumentRejectedError(DOCUMENT_ERRORS.damaged);
  if (bytes.length > DOCUMENT_LIMITS.bytes) throw new DocumentRejectedError(DOCUMENT_ERRORS.tooBig);
  if (isPdf(bytes)) return { data: await checkPdf(bytes), type: "application/pdf" };
  let format: string | undefined;
  let pixels = 0;
  try {
    const meta = await sharpJob(() => sharp(bytes, { limitInputPixels: false }).metadata());
    format = meta.format;
    pixels = (meta.width ?? 0) * (meta.height ?? 0);
  } catch {
    throw new DocumentRejectedError(DOCUMENT_ERRORS.type);
  }
  if (format !== "jpeg" && format !== "png") throw new DocumentRejectedError(DOCUMENT_ERRORS.type);
  if (pixels > IMAGE_LIMITS.maxPixels)
    throw new DocumentRejectedError(DOCUMENT_ERRORS.tooManyPixels);
  try {
    const image = sharp(bytes, {
      limitInputPixels: IMAGE_LIMITS.maxPixels,
      failOn: "error",
    }).rotate();
    const data = await sharpJob(() =>
      format === "png" ? image.png().toBuffer() : image.jpeg({ quality: 90 }).toBuffer(),
    );
    return { data, type: format === "png" ? "image/png" : "image/jpeg" };
  } catch {
    throw new DocumentRejectedError(DOCUMENT_ERRORS.damaged);
  }
}

async function checkPdf(bytes: Buffer): Promise<Buffer> {
  try {
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    if (pdf.isEncrypted) throw new DocumentRejectedError(DOCUMENT_ERRORS.encrypted);
    // pdf-lib reads lazily: a broken file may load and fail only here.
    if (pdf.getPageCount() === 0) throw new DocumentRejectedError(DOCUMENT_ERRORS.damaged);
    // Compressed object streams could hide a name from a plain scan: look at every object.
    for (const [, object] of pdf.context.enumerateIndirectObjects()) {
      if (ACTIVE_PDF.test(object.toString())) {
        throw new DocumentRejectedError(DOCUMENT_ERRORS.active);
      }
    }
  } catch (error) {
    if (error instanceof DocumentRejectedError) throw error;
    if (/encrypt/i.test(String(error))) throw new DocumentRejectedError(DOCUMENT_ERRORS.encrypted);
    throw new DocumentRejectedError(DOCUMENT_ERRORS.damaged);
  }
  return bytes;
}

/** Sealed documents in a private backend; keys `applications/{application id}/{uuid}`. */
export class DocumentVault {
  constructor(
    private readonly backend: BlobBackend,
    private readonly key: KeyMaterial,
  ) {}

  async store(applicationId: number, data: Buffer): Promise<string> {
    const storageKey = `applications/${applicationId}/${randomUUID()}`;
    await this.backend.put(storageKey, seal(this.key, data, documentContext(storageKey)), {
      contentType: "application/octet-stream",
      cacheControl: "private, no-store",
    });
    return storageKey;
  }

  /** The document's bytes, or null when it is gone. */
  async read(storageKey: string): Promise<Buffer | null> {
    const blob = await this.backend.get(storageKey);
    if (!blob) return null;
    return unseal(this.key, await readAll(blob), documentContext(storageKey));
  }

  async remove(storageKeys: readonly string[]): Promise<void> {
    for (const storageKey of storageKeys) await this.backend.delete(storageKey);
  }
}
