// 'Export CSV' on the inbox (docs/behaviour.md §27): every lead of the chosen filters, as an
// attachment. Admins only (404 for anyone else).
import { inboxFilterOf, LEAD_KINDS, LEAD_STATUSES } from "~/domain/inquiry";
import { can, downloadNotFound } from "~/features/auth/index.server";
import { allLeads } from "~/features/leads/index.server";
import { toCsv } from "~/shared/csv.server";
import type { Route } from "./+types/admin-inbox-export";

// Anyone but an admin: a 404 that says what it is, for every method (there is no page here).
export const action = downloadNotFound;

export async function loader({ context, request }: Route.LoaderArgs) {
  if (!can(context.viewer, "leads")) return downloadNotFound();
  const leads = await allLeads(context.db, {
    ...inboxFilterOf(new URL(request.url).searchParams),
    within: context.viewer.listings,
  });
  const rows = leads.map((l) => [
    new Date(l.createdAt).toISOString(),
    LEAD_KINDS[l.kind],
    LEAD_STATUSES[l.status],
    l.listingAddress ?? "",
    l.name,
    l.email,
    l.phone,
    l.message,
    l.preferredTimes.join("\n"),
    l.notes,
  ]);
  // Formulas guarded and line breaks quoted (decision 0077): names and messages are typed by visitors.
  const csv = toCsv([
    [
      "received",
      "kind",
      "status",
      "listing",
      "name",
      "email",
      "phone",
      "message",
      "preferred_times",
      "notes",
    ],
    ...rows,
  ]);
  return new Response(csv, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="inbox.csv"',
      "cache-control": "no-store",
    },
  });
}
