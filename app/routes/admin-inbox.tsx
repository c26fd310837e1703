// /admin/inbox, 'Inbox' (docs/behaviour.md §27): every lead, newest first, 50 a page, filtered
// by status, kind and listing; each one's status, notes and history; 'Erase this person';
// 'Export CSV'. Admins only. Updated live as leads arrive or change.

import { data, Link } from "react-router";
import { inboxFilterOf, inboxParam, isLeadStatus } from "~/domain/inquiry";
import { APPLICATION_STATUSES } from "~/domain/rental-application";
import { checkStaffNotes } from "~/domain/staff-notes";
import { listApplications } from "~/features/applications/index.server";
import { actorOf, can, requireStaff } from "~/features/auth/index.server";
import { pageMeta } from "~/features/layout";
import { InboxList } from "~/features/leads";
import {
  type Answer,
  answerLead,
  leadEvents,
  leadIsWithin,
  leadListings,
  leadMailOf,
  listLeads,
  medianFirstReply,
  saveLeadNote,
  setLeadStatus,
} from "~/features/leads/index.server";
import { inboxShowings } from "~/features/showings/index.server";
import { logEvent } from "~/shared/events.server";
import { pageFault } from "~/shared/page-fault.server";
import { isForm, readForm } from "~/shared/read-form.server";
import type { Route } from "./+types/admin-inbox";

const PAGE_SIZE = 50;
/** The newest applications shown above the leads; the rest on /admin/applications. */
const APPLICATIONS_SHOWN = 10;
/** What staff are told once an answer is on its way (the outbox sends it). */
const ANSWERED = {
  reply: "Reply sent.",
  confirm: "Showing confirmed; the invitation is on its way.",
  decline: "Declined; the renter is told.",
} as const;
/** The forms that act on one lead (by its `id`). */
const LEAD_INTENTS = new Set(["status", "note", "reply", "confirm", "decline"]);

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Inbox", "Admin: inquiries and showing requests.", matches),
  { name: "robots", content: "noindex" },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const viewer = requireStaff(context, "leads");
  const params = new URL(request.url).searchParams;
  const filter = inboxFilterOf(params);
  const within = viewer.listings;
  const page = Number(inboxParam.page(params.get("page") ?? "1") ?? "1");
  const { leads, total } = await listLeads(
    context.db,
    { ...filter, within },
    {
      limit: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
    },
  );
  const events = await leadEvents(
    context.db,
    leads.map((l) => l.id),
  );
  // Online applications are in the inbox too, as kind 'Application' (docs/behaviour.md §32).
  const key = context.applications.key;
  const applications = key
    ? (await listApplications(context.db, key, { limit: APPLICATIONS_SHOWN, within })).applications
    : [];
  // Booked showings are in the inbox too, as kind 'Showing' (docs/behaviour.md §33).
  const showings = await inboxShowings(context, within);
  return {
    applications,
    showings,
    mayErase: can(viewer, "people:erase"),
    filter,
    page,
    pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    total,
    listings: await leadListings(context.db, within),
    medianReply: await medianFirstReply(context.db, within),
    leads: leads.map((lead) => ({
      ...lead,
      createdAt: new Date(lead.createdAt).toISOString(),
      events: events
        .filter((e) => e.leadId === lead.id)
        .map((e) => ({ ...e, at: new Date(e.at).toISOString() })),
    })),
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const viewer = requireStaff(context, "leads");
  const by = actorOf(viewer);
  const form = await readForm(request);
  const refuse = (error: string, status = 400) => data({ error }, { status });
  if (!isForm(form)) return refuse(form.message, form.status);
  const intent = form.get("intent");
  const id = Number(form.get("id"));
  const gone = "This item is no longer in the inbox.";
  // 'Erase this person' is the Owner's and the Manager's: 404 to others, as any page they may not see.
  if (intent === "erase" && !can(viewer, "people:erase")) throw data(null, { status: 404 });
  // A lead outside a Leasing agent's listings is, to them, not in the inbox.
  const within = viewer.listings ?? null;
  const onALead = typeof intent === "string" && LEAD_INTENTS.has(intent);
  try {
    if (onALead && within !== null && !(await leadIsWithin(context.db, id, within))) {
      return refuse(gone, 404);
    }
    if (intent === "status") {
      const status = form.get("status");
      if (!Number.isSafeInteger(id)) return refuse(gone, 404);
      if (!isLeadStatus(status)) return refuse("Choose one of the statuses.");
      if (!(await setLeadStatus(context.db, id, status, by))) return refuse(gone, 404);
      logEvent("lead status changed", by, { lead: id, status });
      return { ok: "Status saved." };
    }
    if (intent === "note") {
      const checked = checkStaffNotes(form.get("notes"));
      if (!Number.isSafeInteger(id)) return refuse(gone, 404);
      if ("error" in checked) return refuse(checked.error);
      if (!(await saveLeadNote(context.db, id, checked.notes, by))) return refuse(gone, 404);
      return { ok: "Note saved." };
    }
    if (intent === "reply" || intent === "confirm" || intent === "decline") {
      if (!Number.isSafeInteger(id)) return refuse(gone, 404);
      const text = typeof form.get("text") === "string" ? (form.get("text") as string) : "";
      const chosen = form.get("time");
      const other = form.get("otherTime");
      const time =
        chosen === "other" ? (typeof other === "string" ? other.trim() : "") : String(chosen ?? "");
      const answer: Answer =
        intent === "confirm" ? { kind: intent, time, text } : { kind: intent, text };
      const result = await answerLead(context.db, id, answer, by, await leadMailOf(context));
      if (!result.ok) return refuse(result.error, result.status);
      return { ok: ANSWERED[intent] };
    }
    if (intent === "erase") {
      const email = form.get("email");
      if (typeof email !== "string" || email.trim() === "" || email.length > 254) {
        return refuse("Name the e-mail address to erase.");
      }
      // Leads, alerts, applications and e-mail: every feature's part (docs/behaviour.md §27, §32).
      const erased = await context.erasePerson(email, { actorId: viewer.user?.sub ?? null });
      // Who erased, and how much: never whose (the address is the person's own data).
      logEvent("person erased", by, { items: erased });
      return { ok: `Erased ${erased} item${erased === 1 ? "" : "s"} from ${email.trim()}.` };
    }
    return refuse("Unknown action.");
  } catch (error) {
    pageFault(error, { request, context });
  }
}

export default function Inbox({ loaderData, actionData }: Route.ComponentProps) {
  const { applications, showings, ...leads } = loaderData;
  return (
    <section>
      <h1>Inbox</h1>
      {applications.length > 0 ? (
        <ul className="inbox-applications" aria-label="Applications">
          {applications.map((a) => (
            <li key={a.id}>
              <span className="inbox-kind">Application</span>{" "}
              <Link to={`/admin/applications/${a.id}`}>{a.applicantName || `#${a.id}`}</Link>
              {a.listingAddress ? ` · ${a.listingAddress}` : ""} · {APPLICATION_STATUSES[a.status]}
            </li>
          ))}
          <li>
            <Link to="/admin/applications">All applications</Link>
          </li>
        </ul>
      ) : null}
      {showings.length > 0 ? (
        <ul className="inbox-applications inbox-showings" aria-label="Showings">
          {showings.map((s) => (
            <li key={s.id}>
              <span className="inbox-kind">Showing</span> {s.name} ·{" "}
              <Link to={s.href}>{s.address}</Link> · {s.when} · {s.status}
            </li>
          ))}
          <li>
            <Link to="/admin/showings">All showings</Link>
          </li>
        </ul>
      ) : null}
      <InboxList {...leads} answer={actionData ?? null} />
    </section>
  );
}
