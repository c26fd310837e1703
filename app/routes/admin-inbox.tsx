// /admin/inbox, 'Inbox' (docs/behaviour.md §27): every lead, newest first, 50 a page, filtered
// by status, kind and listing; each one's status, notes and history; 'Erase this person';
// 'Export CSV'. Admins only. Updated live as leads arrive or change.

import { data, Link } from "react-router";
import { z } from "zod";
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
import { checkedBy, parseForm, refused, succeeded } from "~/shared/action-result.server";
import { logEvent } from "~/shared/events.server";
import { pageFault } from "~/shared/page-fault.server";
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
/** A lead's id, as the forms that act on one lead send it. */
const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const InboxForm = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("status"),
      id,
      status: z.string().refine(isLeadStatus, "Choose one of the statuses."),
    }),
    z.object({
      intent: z.literal("note"),
      id,
      notes: checkedBy(checkStaffNotes).transform((checked) => checked.notes),
    }),
    z.object({
      intent: z.enum(["reply", "confirm", "decline"]),
      id,
      text: z.string().catch(""),
      time: z.string().optional().catch(undefined),
      otherTime: z.string().optional().catch(undefined),
    }),
    z.object({
      intent: z.literal("erase"),
      email: z
        .string("Name the e-mail address to erase.")
        .refine((e) => e.trim() !== "" && e.length <= 254, "Name the e-mail address to erase."),
    }),
  ],
  { error: "Unknown action." },
);

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
  const parsed = await parseForm(request, InboxForm);
  const intent = parsed.ok ? parsed.data.intent : parsed.form?.get("intent");
  // 'Erase this person' is the Owner's and the Manager's: 404 to others, as any page they may not see.
  if (intent === "erase" && !can(viewer, "people:erase")) throw data(null, { status: 404 });
  const gone = "This item is no longer in the inbox.";
  // An id that names no lead is a lead no longer there.
  if (!parsed.ok) {
    // An id that names no lead is a lead that is gone (erased, or purged meanwhile).
    if (parsed.errors.id) return refused(context, 404, gone);
    return refused(context, parsed.status, parsed.message);
  }
  const input = parsed.data;
  try {
    if (input.intent === "erase") {
      // Leads, alerts, applications and e-mail: every feature's part (docs/behaviour.md §27, §32).
      const erased = await context.erasePerson(input.email, { actorId: viewer.user?.sub ?? null });
      // Who erased, and how much: never whose (the address is the person's own data).
      logEvent("person erased", by, { items: erased });
      return succeeded(
        `Erased ${erased} item${erased === 1 ? "" : "s"} from ${input.email.trim()}.`,
      );
    }
    // A lead outside a Leasing agent's listings is, to them, not in the inbox.
    const within = viewer.listings ?? null;
    if (within !== null && !(await leadIsWithin(context.db, input.id, within))) {
      return refused(context, 404, gone);
    }
    if (input.intent === "status") {
      if (!(await setLeadStatus(context.db, input.id, input.status, by))) {
        return refused(context, 404, gone);
      }
      logEvent("lead status changed", by, { lead: input.id, status: input.status });
      return succeeded("Status saved.");
    }
    if (input.intent === "note") {
      if (!(await saveLeadNote(context.db, input.id, input.notes, by))) {
        return refused(context, 404, gone);
      }
      return succeeded("Note saved.");
    }
    const time = input.time === "other" ? (input.otherTime ?? "").trim() : (input.time ?? "");
    const answer: Answer =
      input.intent === "confirm"
        ? { kind: input.intent, time, text: input.text }
        : { kind: input.intent, text: input.text };
    const result = await answerLead(context.db, input.id, answer, by, await leadMailOf(context));
    if (!result.ok) return refused(context, result.status, result.error);
    return succeeded(ANSWERED[input.intent]);
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
