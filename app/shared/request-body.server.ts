// A request body read with a stated byte limit, counted as the bytes arrive (chunked bodies
// too): a declared length over it is refused before anything is read, and reading stops at the
// first chunk past it, so no more than the limit is ever held in memory
// (docs/decisions/0072-request-body-limits.md). server/body-limits.ts caps the same bodies
// before the app sees them.

const KB = 1024;

/**
 * A page form's whole body. The longest form a person can fill in (a 5,000-character message
 * typed in a script of 3-byte characters, each byte percent-encoded: ≈ 45 KB) fits.
 */
export const FORM_BODY_BYTES = 64 * KB;

/** A JSON body of the API (docs/behaviour.md §9: 'JSON bodies 200 KB'). */
export const JSON_BODY_BYTES = 200 * KB;

export const FORM_TOO_LARGE = `The form is too large: at most ${FORM_BODY_BYTES / KB} KB. Shorten what you typed and try again.`;

/** The declared length, or null when the body is chunked (or the header is no number). */
export function declaredLength(request: Request): number | null {
  const value = request.headers.get("content-length");
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  return Number(value);
}

/**
 * The body's bytes, "too-large" past `limit`, or null when it cannot be read (cut off). The
 * stream is not cancelled when refused: cancelling would destroy the connection before the
 * 413 is written; the server closes it after the answer instead (server/body-limits.ts).
 */
export async function readBody(
  request: Request,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | "too-large" | null> {
  const declared = declaredLength(request);
  if (declared !== null && declared > limit) return "too-large";
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) return "too-large";
      chunks.push(value);
    }
  } catch {
    return null;
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/** A refused form: its status and the message shown on the form. */
export interface FormRefusal {
  status: 400 | 413;
  message: string;
}

/** The form of a request, read with `limit` (url-encoded or multipart), or why it was refused. */
export async function readLimitedForm(
  request: Request,
  limit: number,
  unreadable: FormRefusal,
  tooLarge: FormRefusal,
): Promise<FormData | FormRefusal> {
  const bytes = await readBody(request, limit);
  if (bytes === "too-large") return tooLarge;
  if (bytes === null) return unreadable;
  const type = request.headers.get("content-type") ?? "";
  return new Response(bytes, { headers: { "content-type": type } })
    .formData()
    .catch(() => unreadable);
}
