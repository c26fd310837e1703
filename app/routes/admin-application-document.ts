// /admin/applications/{id}/documents/{documentId}: one applicant's document, decrypted, as a
// download (Content-Disposition: attachment), recorded in the application's history. Admins
// only; the only route that serves an application's document (docs/behaviour.md §32). Named
// `{kind}-{id}.{pdf|jpg|png}` from the checked type, never the uploaded name (decision 0073).

import { outsideListings, readDocument } from "~/features/applications/index.server";
import { actorOf, can, downloadNotFound } from "~/features/auth/index.server";
import { logEvent } from "~/shared/events.server";
import type { Route } from "./+types/admin-application-document";

/** The extension of each type a document is stored as (the checked type, never the name's). */
const EXTENSIONS: Record<string, string> = {
  "application/pdf": "pdf",
  "image/jpeg": "jpg",
  "image/png": "png",
};

/** A download has no other method (the same 404 for anyone, as the inbox's CSV). */
export const action = downloadNotFound;

export async function loader({ context, params }: Route.LoaderArgs) {
  // (A resource route: requireStaff's 404 would have no page to show, only "null".)
  if (!can(context.viewer, "applications")) return downloadNotFound();
  const viewer = context.viewer;
  const { key, vault } = context.applications;
  const id = Number(params.id);
  const documentId = Number(params.documentId);
  if (!key || !vault || !Number.isSafeInteger(id) || !Number.isSafeInteger(documentId)) {
    return downloadNotFound();
  }
  if (await outsideListings(context, id)) return downloadNotFound();
  const by = actorOf(viewer);
  const document = await readDocument(context.db, key, id, documentId, by);
  const bytes = document ? await vault.read(document.storageKey) : null;
  const extension = document ? EXTENSIONS[document.contentType] : undefined;
  if (!document || !bytes || !extension) return downloadNotFound();
  logEvent("application downloaded", by, { application: id, document: documentId });
  const kind = document.kind.replace(/[^a-z]/g, "") || "document";
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": document.contentType,
      "Content-Disposition": `attachment; filename="${kind}-${documentId}.${extension}"`,
      "Content-Length": String(bytes.length),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
