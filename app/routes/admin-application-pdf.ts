// /admin/applications/{id}/pdf, 'Download PDF' (docs/behaviour.md §32): the whole application
// (every adult's answers, then each document) as one PDF for the file. Admins only.

import {
  buildApplicationFilePdf,
  outsideListings,
  readApplication,
} from "~/features/applications/index.server";
import { actorOf, can, downloadNotFound } from "~/features/auth/index.server";
import { getSiteContent } from "~/features/site-settings/index.server";
import { logEvent } from "~/shared/events.server";
import type { Route } from "./+types/admin-application-pdf";

/** A download has no other method (the same 404 for anyone, as the inbox's CSV). */
export const action = downloadNotFound;

export async function loader({ context, params }: Route.LoaderArgs) {
  // (A resource route: requireStaff's 404 would have no page to show, only "null".)
  if (!can(context.viewer, "applications")) return downloadNotFound();
  const viewer = context.viewer;
  const { key, vault } = context.applications;
  const id = Number(params.id);
  if (!key || !vault || !Number.isSafeInteger(id) || (await outsideListings(context, id))) {
    return downloadNotFound();
  }
  const by = actorOf(viewer);
  const record = await readApplication(context.db, key, id, by);
  if (!record) return downloadNotFound();
  const site = await getSiteContent(context.db);
  const pdf = await buildApplicationFilePdf(record, vault, site.name);
  logEvent("application downloaded", by, { application: id, file: "pdf" });
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="application-${id}.pdf"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
