import { buildApplicationPdf, getSiteContent } from "~/features/content/index.server";
import type { Route } from "./+types/rental-application-pdf";

// The generated form is made once per content: it changes only when the settings do.
let cached: { key: string; bytes: Promise<Uint8Array> } | undefined;

/**
 * The company's own PDF when one was uploaded on the site settings page, else the fillable form
 * generated from the company content (docs/behaviour.md §15, §18). Revalidated on every
 * request (ETag), so a new form is seen at once.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const content = await getSiteContent(context.db);
  let bytes: Uint8Array | null = null;
  let tag: string;
  if (content.applicationPdf) {
    bytes = await context.images.read(content.applicationPdf);
    tag = content.applicationPdf;
  } else tag = "";
  if (!bytes) {
    const key = JSON.stringify(content);
    if (cached?.key !== key) cached = { key, bytes: buildApplicationPdf(content) };
    bytes = await cached.bytes;
    tag = `generated-${hash(key)}`;
  }
  const etag = `"${hash(tag)}"`;
  const headers = {
    "Content-Type": "application/pdf",
    "Content-Disposition": 'inline; filename="rental-application.pdf"',
    "Cache-Control": "public, no-cache",
    ETag: etag,
  };
  if (request.headers.get("if-none-match") === etag) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(bytes as unknown as BodyInit, { headers });
}

/** A short, stable tag (FNV-1a): not for security, only to tell versions apart. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16);
}
