// /admin/applications/{id}/pdf, 'Download PDF' (docs/behaviour.md §32): the whole application
// (every adult's answers, then each document) as one PDF for the file. Admins only.

import { requireAdminPage } from "~/features/admin/guard.server";
import { buildApplicationFilePdf, readApplication } from "~/features/applications/index.server";
import { getSiteContent } from "~/features/site-settings/index.server";
import type { Route } from "./+types/admin-application-pdf";

/** A download has no other method: the same 404 for anyone, as the inbox's CSV. */
export function action() {
  return new Response("Not Found", {
    status: 404,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const viewer = requireAdminPage(context);
  const { key, vault } = context.applications;
  const id = Number(params.id);
  if (!key || !vault || !Number.isSafeInteger(id))
    return new Response("Not found", { status: 404 });
  const by = viewer.user?.email ?? viewer.user?.sub ?? null;
  const record = await readApplication(context.db, key, id, by);
  if (!record) return new Response("Not found", { status: 404 });
  const site = await getSiteContent(context.db);
  const pdf = await buildApplicationFilePdf(record, vault, site.name);
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="application-${id}.pdf"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
