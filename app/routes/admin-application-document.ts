// /admin/applications/{id}/documents/{documentId}: one applicant's document, decrypted, as a
// download (Content-Disposition: attachment), recorded in the application's history. Admins
// only; the only route that serves an application's document (docs/behaviour.md §32).
import { actorOf, downloadNotFound } from "~/features/admin/guard.server";
import { readDocument } from "~/features/applications/index.server";
import type { Route } from "./+types/admin-application-document";

/** A file name for the header: what was uploaded, in ASCII and as UTF-8 (RFC 6266). */
export function attachment(name: string) {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** A download has no other method (the same 404 for anyone, as the inbox's CSV). */
export const action = downloadNotFound;

export async function loader({ context, params }: Route.LoaderArgs) {
  // (A resource route: requireAdminPage's 404 would have no page to show, only "null".)
  if (!context.viewer.isAdmin) return downloadNotFound();
  const viewer = context.viewer;
  const { key, vault } = context.applications;
  const id = Number(params.id);
  const documentId = Number(params.documentId);
  if (!key || !vault || !Number.isSafeInteger(id) || !Number.isSafeInteger(documentId)) {
    return downloadNotFound();
  }
  const by = actorOf(viewer);
  const document = await readDocument(context.db, key, id, documentId, by);
  const bytes = document ? await vault.read(document.storageKey) : null;
  if (!document || !bytes) return downloadNotFound();
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": document.contentType,
      "Content-Disposition": attachment(document.name),
      "Content-Length": String(bytes.length),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
