// What an uploaded document may be (docs/behaviour.md §32, docs/decisions/0073): run only inside
// the document worker (document-worker.server.ts), never on the main thread. The bytes decide the
// type, from their first bytes only; images are decoded and re-encoded (metadata dropped); a PDF
// must be unencrypted, every compressed stream must stay within a decompression budget, and it
// may hold only what a scanned document needs (pages, text, images): no actions, forms, scripts,
// embedded files, launch or remote links.
import { inflateSync } from "node:zlib";
import { PDFDocument, PDFStream } from "pdf-lib";
import sharp, { type Sharp } from "sharp";
import { DOCUMENT_LIMITS } from "~/domain/rental-application";
import { HttpError } from "~/shared/http-error.server";

export type DocumentType = (typeof DOCUMENT_LIMITS.types)[number];

/** Largest decoded document image, in pixels (the photo upload's limit). */
export const DOCUMENT_MAX_PIXELS = 50_000_000;
/** What a PDF's compressed streams may inflate to, all together (a scanned 10 MB PDF: far less). */
export const PDF_INFLATED_BYTES = 128 * 1024 * 1024;

export const DOCUMENT_ERRORS = {
  tooBig: `A file may be at most ${DOCUMENT_LIMITS.bytes / 1024 / 1024} MB.`,
  type: "Send a JPEG, PNG or PDF file.",
  damaged: "The file could not be read: it is damaged or incomplete.",
  encrypted: "The PDF is password-protected. Send it without a password.",
  active:
    "The PDF contains scripts, forms, links, actions or attached files. Print it to a new PDF and send that.",
  tooManyPixels: `The image has more than ${DOCUMENT_MAX_PIXELS / 1_000_000} million pixels.`,
  tooComplex:
    "The file is too large or too complex to check once unpacked. Print or scan it to a new PDF, JPEG or PNG and send that.",
  busy: "Too many documents are being checked right now. Send it again in a minute.",
} as const;

/**
 * A refusal with the message the renter sees (and the answer's status: 422 unless said): an
 * HttpError, so any route it reaches answers it as one (docs/decisions/0058).
 */
export class DocumentRejectedError extends HttpError {
  constructor(message: string, status = 422) {
    super(status, message, "document", "file");
  }
}

const PDF_MAGIC = Buffer.from("%PDF-");
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const startsWith = (bytes: Buffer, magic: Buffer) =>
  bytes.length >= magic.length && bytes.subarray(0, magic.length).equals(magic);

/**
 * Names a scanned document never needs: actions run on opening or on events (/OpenAction, /AA),
 * forms (/AcroForm, /XFA), scripts, embedded files, launch, remote or web links, form submission.
 */
const ACTIVE_PDF =
  /\/(OpenAction|AA|AcroForm|XFA|JavaScript|JS|Launch|EmbeddedFiles?|RichMedia|GoToR|GoToE|URI|SubmitForm|ImportData|Sound|Movie)\b/;

/** Checks an upload and returns what is kept: re-encoded image bytes, or the PDF as sent. */
export async function checkDocumentNow(
  bytes: Buffer,
): Promise<{ data: Buffer; type: DocumentType }> {
  if (bytes.length === 0) throw new DocumentRejectedError(DOCUMENT_ERRORS.damaged);
  if (bytes.length > DOCUMENT_LIMITS.bytes) throw new DocumentRejectedError(DOCUMENT_ERRORS.tooBig);
  // The signature at offset 0, never "somewhere near the start" (an HTML page can hold "%PDF-").
  if (startsWith(bytes, PDF_MAGIC)) return { data: await checkPdf(bytes), type: "application/pdf" };
  const format = startsWith(bytes, JPEG_MAGIC)
    ? "jpeg"
    : startsWith(bytes, PNG_MAGIC)
      ? "png"
      : null;
  if (!format) throw new DocumentRejectedError(DOCUMENT_ERRORS.type);
  let meta: Awaited<ReturnType<Sharp["metadata"]>>;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new DocumentRejectedError(DOCUMENT_ERRORS.damaged);
  }
  if (meta.format !== format) throw new DocumentRejectedError(DOCUMENT_ERRORS.type);
  if ((meta.width ?? 0) * (meta.height ?? 0) > DOCUMENT_MAX_PIXELS) {
    throw new DocumentRejectedError(DOCUMENT_ERRORS.tooManyPixels);
  }
  try {
    const image = sharp(bytes, { limitInputPixels: DOCUMENT_MAX_PIXELS, failOn: "error" }).rotate();
    const data =
      format === "png"
        ? await image.png().toBuffer()
        : await image.jpeg({ quality: 90 }).toBuffer();
    return { data, type: format === "png" ? "image/png" : "image/jpeg" };
  } catch {
    throw new DocumentRejectedError(DOCUMENT_ERRORS.damaged);
  }
}

/**
 * Inflates every `stream … endstream` that inflates, with zlib's own output cap, before pdf-lib
 * sees the file: pdf-lib inflates object streams whole, so a 1 MB file whose one stream holds
 * 1 GB of zeros would otherwise take a gigabyte and seconds (docs/decisions/0073).
 */
export function checkInflatedSize(bytes: Buffer, budget = PDF_INFLATED_BYTES): void {
  let left = budget;
  let at = 0;
  for (;;) {
    const start = bytes.indexOf("stream", at, "latin1");
    if (start < 0) return;
    at = start + 6;
    if (bytes.subarray(start - 3, start).toString("latin1") === "end") continue;
    let from = at;
    if (bytes[from] === 0x0d) from++;
    if (bytes[from] === 0x0a) from++;
    const end = bytes.indexOf("endstream", from, "latin1");
    if (end < 0) return;
    at = end + 9;
    let inflated: Buffer;
    try {
      inflated = inflateSync(bytes.subarray(from, end), {
        maxOutputLength: Math.max(1, left),
        finishFlush: 2, // Z_SYNC_FLUSH: a stream cut short still counts what it holds
      });
    } catch (error) {
      if (
        error instanceof RangeError ||
        (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE"
      ) {
        throw new DocumentRejectedError(DOCUMENT_ERRORS.tooComplex);
      }
      continue; // not Flate (JPEG, JBIG2, …) or not a stream at all
    }
    left -= inflated.length;
    if (left <= 0) throw new DocumentRejectedError(DOCUMENT_ERRORS.tooComplex);
  }
}

async function checkPdf(bytes: Buffer): Promise<Buffer> {
  checkInflatedSize(bytes);
  try {
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    if (pdf.isEncrypted) throw new DocumentRejectedError(DOCUMENT_ERRORS.encrypted);
    // pdf-lib reads lazily: a broken file may load and fail only here.
    if (pdf.getPageCount() === 0) throw new DocumentRejectedError(DOCUMENT_ERRORS.damaged);
    // Compressed object streams could hide a name from a plain scan: look at every object.
    // A stream's dictionary only: its bytes (images, page text) are data, and 10 MB of them
    // would hold "/AA" by chance.
    for (const [, object] of pdf.context.enumerateIndirectObjects()) {
      const text = object instanceof PDFStream ? object.dict.toString() : object.toString();
      if (ACTIVE_PDF.test(text)) {
        throw new DocumentRejectedError(DOCUMENT_ERRORS.active);
      }
    }
    if (ACTIVE_PDF.test(pdf.catalog.toString())) {
      throw new DocumentRejectedError(DOCUMENT_ERRORS.active);
    }
  } catch (error) {
    if (error instanceof DocumentRejectedError) throw error;
    if (/encrypt/i.test(String(error))) throw new DocumentRejectedError(DOCUMENT_ERRORS.encrypted);
    throw new DocumentRejectedError(DOCUMENT_ERRORS.damaged);
  }
  return bytes;
}
