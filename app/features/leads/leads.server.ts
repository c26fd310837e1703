// Leads (docs/behaviour.md §27): an inquiry or showing request is stored with its
// e-mails (to staff, and a confirmation to the renter) in one transaction, through the outbox
// (docs/decisions/0062-outbox-for-outgoing-mail.md). Staff read and work them in the inbox;
// every change is recorded with who and when. Personal data: admins only, erased on request and
// LEAD_RETENTION_DAYS after a lead is closed, with the e-mail that carried it.

import { ANSWER_ACTIONS, ANSWERED_STATUSES } from "~/domain/first-reply";
import {
  describeLocalTime,
  type InquiryValues,
  LEAD_KINDS,
  LEAD_STATUSES,
  type LeadKind,
  type LeadStatus,
} from "~/domain/inquiry";
import { type Collection, parseListingRef } from "~/domain/listing-kinds";
import { type ListingScope, withinScope } from "~/domain/listing-scope";
import {
  DEFAULT_UNCONFIRMED_CAPS,
  enqueueMail,
  eraseMailOf,
  type UnconfirmedMailCaps,
} from "~/features/mail/index.server";
import type { Db, Queryable } from "~/shared/db.server";
import { recordStaffEvent, staffEventsOf } from "~/shared/staff-events.server";

export interface Lead {
  id: number;
  createdAt: string;
  kind: LeadKind;
  collection: Collection | null;
  listingId: string | null;
  listingAddress: string | null;
  name: string;
  email: string;
  phone: string;
  message: string;
  preferredTimes: string[];
  status: LeadStatus;
  notes: string;
  closedAt: string | null;
}

export interface LeadEvent {
  leadId: number;
  /** ISO 8601. */
  at: string;
  byEmail: string | null;
  action: "received" | "auto-reply" | "status" | "note" | "reply" | "confirm" | "decline";
  detail: Record<string, unknown>;
}

export interface NewLead {
  collection: Collection | null;
  listingId: string | null;
  listingAddress: string | null;
  values: InquiryValues;
  /**
   * The 'Automatic reply' to send the renter instead of the plain confirmation (a question
   * about a listing while it is on; docs/behaviour.md §33), already in the company's words.
   */
  autoReply?: { subject: string; body: string } | null;
}

/** Who hears of a lead, and what the renter's confirmation is signed with. */
export interface LeadMail {
  /** Staff addresses told of each new lead. */
  notify: string[];
  companyName: string;
  officeEmail: string;
  officePhone: string;
  /** The site's address, for links in the e-mails. */
  publicUrl: string;
  /** Caps on the renter's confirmation: their address is not confirmed (docs/behaviour.md §26). */
  unconfirmed?: UnconfirmedMailCaps;
}

const LEAD_COLUMNS = `id::int AS id, created_at AS "createdAt", kind, collection,
  listing_id AS "listingId", listing_address AS "listingAddress", name, email, phone, message,
  preferred_times AS "preferredTimes", status, notes, closed_at AS "closedAt"`;

export const leadRef = (id: number) => `lead:${id}`;

/** The history's event of an 'Automatic reply' sent (by nobody: the site). */
export const AUTO_REPLY_EVENT = "auto-reply";

/** Stores a lead and the e-mails it causes, all or nothing; returns its id. */
export async function storeLead(db: Db, lead: NewLead, mail: LeadMail): Promise<number> {
  const { values } = lead;
  const times = values.showing ? values.times.filter((t) => t !== "") : [];
  const kind: LeadKind = values.showing ? "showing" : "inquiry";
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO leads (kind, collection, listing_id, listing_address, name, email, phone,
         message, preferred_times)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::text[]) RETURNING id::int AS id`,
      [
        kind,
        lead.collection,
        lead.listingId,
        lead.listingAddress,
        values.name.trim(),
        values.email.trim(),
        values.phone.trim(),
        values.message.trim(),
        times,
      ],
    );
    const id = row?.id as number;
    await recordStaffEvent(tx, "lead", id, null, "received");
    const about = lead.listingAddress?.trim() || "a general question";
    const timesText = times.length
      ? `\nPreferred times:\n${times.map((t) => `- ${describeLocalTime(t)}`).join("\n")}\n`
      : "";
    const listingUrl =
      lead.collection && lead.listingId
        ? `${mail.publicUrl}/${lead.collection === "properties" ? "properties" : "new-construction"}/${encodeURIComponent(lead.listingId)}`
        : null;
    await enqueueMail(tx, {
      kind: "lead",
      ref: leadRef(id),
      to: mail.notify,
      replyTo: values.email.trim(),
      subject: `${LEAD_KINDS[kind]}: ${about}`,
      body: [
        `${LEAD_KINDS[kind]} from ${values.name.trim()} about ${about}.`,
        "",
        `E-mail: ${values.email.trim()}`,
        `Phone: ${values.phone.trim() || "—"}`,
        listingUrl ? `Listing: ${listingUrl}` : null,
        timesText,
        values.message.trim(),
        "",
        `Open the inbox: ${mail.publicUrl}/admin/inbox`,
      ]
        .filter((line) => line !== null)
        .join("\n"),
    });
    // The renter's address is unconfirmed: the company's own words and the stored listing's
    // address only, nothing typed into the form (docs/behaviour.md §27). Over the caps the lead
    // is kept and staff are told; only this confirmation is not sent.
    const footer = `You get this e-mail because this address was entered on ${mail.publicUrl}. What we keep and for how long: ${mail.publicUrl}/privacy`;
    if (lead.autoReply) {
      // The 'Automatic reply' (docs/behaviour.md §33) takes the confirmation's place; its time
      // is in the item's history, apart from a person's first reply.
      const sent = await enqueueMail(tx, {
        kind: "lead auto-reply",
        ref: leadRef(id),
        to: [values.email.trim()],
        replyTo: mail.officeEmail,
        subject: lead.autoReply.subject,
        unconfirmed: mail.unconfirmed ?? DEFAULT_UNCONFIRMED_CAPS,
        body: `${lead.autoReply.body}\n\n${footer}`,
      });
      if (sent !== null) await recordStaffEvent(tx, "lead", id, null, AUTO_REPLY_EVENT);
      return id;
    }
    await enqueueMail(tx, {
      kind: "lead-confirmation",
      ref: leadRef(id),
      to: [values.email.trim()],
      replyTo: mail.officeEmail,
      subject: `We received your ${kind === "showing" ? "showing request" : "message"}`,
      unconfirmed: mail.unconfirmed ?? DEFAULT_UNCONFIRMED_CAPS,
      body: [
        "Hello,",
        "",
        `Thank you for your ${kind === "showing" ? "showing request" : "message"} about ${about}. We'll get back to you soon.`,
        "",
        mail.companyName,
        `${mail.officePhone} · ${mail.officeEmail}`,
        "",
        footer,
      ].join("\n"),
    });
    return id;
  });
}

export interface LeadFilter {
  status?: LeadStatus;
  kind?: LeadKind;
  /** 'properties/{id}' or 'newConstruction/{id}'. */
  listing?: string;
  /** A Leasing agent's 'Only these listings' (with /contact's messages); none: every lead. */
  within?: ListingScope;
}

function where(filter: LeadFilter): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (filter.within) parts.push(withinScope(filter.within, params, { general: true }));
  if (filter.status) {
    params.push(filter.status);
    parts.push(`status = $${params.length}`);
  }
  if (filter.kind) {
    params.push(filter.kind);
    parts.push(`kind = $${params.length}`);
  }
  const listing = filter.listing ? parseListingRef(filter.listing) : null;
  if (listing) {
    params.push(listing.collection, listing.id);
    parts.push(`collection = $${params.length - 1} AND listing_id = $${params.length}`);
  }
  return { sql: parts.length ? `WHERE ${parts.join(" AND ")}` : "", params };
}

/** The inbox: newest first, `limit` a page. */
export async function listLeads(
  db: Queryable,
  filter: LeadFilter,
  { limit = 50, offset = 0 }: { limit?: number; offset?: number } = {},
): Promise<{ leads: Lead[]; total: number }> {
  const w = where(filter);
  const leads = await db.query<Lead>(
    `SELECT ${LEAD_COLUMNS} FROM leads ${w.sql}
     ORDER BY created_at DESC, id DESC LIMIT $${w.params.length + 1} OFFSET $${w.params.length + 2}`,
    [...w.params, limit, offset],
  );
  const [count] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM leads ${w.sql}`,
    w.params,
  );
  return { leads, total: count?.n ?? 0 };
}

/** Every lead of the filter, for the CSV (newest first). */
export async function allLeads(db: Queryable, filter: LeadFilter): Promise<Lead[]> {
  const w = where(filter);
  return db.query<Lead>(
    `SELECT ${LEAD_COLUMNS} FROM leads ${w.sql} ORDER BY created_at DESC, id DESC`,
    w.params,
  );
}

/**
 * The median time to a person's first reply (app/domain/first-reply.ts) of the leads received
 * in the `days` before `now` that have one, within a Leasing agent's listings; null when none.
 */
export async function medianFirstReply(
  db: Queryable,
  within: ListingScope | undefined,
  now = new Date(),
  days = 30,
): Promise<{ ms: number; count: number } | null> {
  const params: unknown[] = [
    new Date(now.getTime() - days * 86_400_000),
    [...ANSWER_ACTIONS],
    [...ANSWERED_STATUSES],
  ];
  const scope = withinScope(within, params, {
    general: true,
    collection: "l.collection",
    id: "l.listing_id",
  });
  const [row] = await db.query<{ median: number | string | null; count: number }>(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY secs) AS median, count(*)::int AS count
     FROM (
       SELECT extract(epoch FROM min(e.at) - l.created_at) AS secs
       FROM leads l JOIN lead_events e ON e.lead_id = l.id
       WHERE l.created_at > $1 AND ${scope} AND e.by_email IS NOT NULL
         AND (e.action = ANY($2::text[])
           OR (e.action = 'status' AND e.detail->>'to' = ANY($3::text[])))
       GROUP BY l.id, l.created_at
     ) firsts`,
    params,
  );
  if (!row || row.count === 0 || row.median === null) return null;
  return { ms: Math.round(Number(row.median) * 1000), count: row.count };
}

/** The listings leads were sent about, for the inbox's filter. */
export async function leadListings(
  db: Queryable,
  within: ListingScope = null,
): Promise<{ value: string; address: string }[]> {
  const params: unknown[] = [];
  return db.query(
    `SELECT DISTINCT ON (collection, listing_id) collection || '/' || listing_id AS value,
       listing_address AS address
     FROM leads WHERE listing_id IS NOT NULL AND ${withinScope(within, params)}
     ORDER BY collection, listing_id, created_at DESC`,
    params,
  );
}

/** How many leads are 'New' (the user menu's 'Inbox (3)'), of those the viewer may read. */
export async function countNewLeads(db: Queryable, within: ListingScope = null): Promise<number> {
  const params: unknown[] = [];
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM leads
     WHERE status = 'new' AND ${withinScope(within, params, { general: true })}`,
    params,
  );
  return row?.n ?? 0;
}

/** Whether the viewer may read this lead: it exists, and is within their listings. */
export async function leadIsWithin(
  db: Queryable,
  id: number,
  within: ListingScope,
): Promise<boolean> {
  const params: unknown[] = [id];
  const rows = await db.query(
    `SELECT 1 FROM leads WHERE id = $1 AND ${withinScope(within, params, { general: true })}`,
    params,
  );
  return rows.length > 0;
}

/** The changes recorded for these leads, oldest first. */
export async function leadEvents(db: Queryable, ids: readonly number[]): Promise<LeadEvent[]> {
  const events = await staffEventsOf<LeadEvent["action"]>(db, "lead", ids);
  return events.map(({ itemId, at, ...event }) => ({
    leadId: itemId,
    at: at.toISOString(),
    ...event,
  }));
}

/** Sets a lead's status; false when there is no such lead. Closed leads start their retention. */
export async function setLeadStatus(
  db: Db,
  id: number,
  status: LeadStatus,
  by: string | null,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [before] = await tx.query<{ status: LeadStatus }>(
      "SELECT status FROM leads WHERE id = $1 FOR UPDATE",
      [id],
    );
    if (!before) return false;
    if (before.status !== status) await moveStatus(tx, id, before.status, status, by);
    return true;
  });
}

/**
 * Moves a locked lead from one status to another and records who did it; a closed lead starts
 * its retention, any other status stops it. Call it inside the caller's transaction.
 */
export async function moveStatus(
  tx: Queryable,
  id: number,
  from: LeadStatus,
  to: LeadStatus,
  by: string | null,
): Promise<void> {
  await tx.query(
    `UPDATE leads SET status = $2, updated_at = now(),
       closed_at = CASE WHEN $2 = 'closed' THEN now() ELSE NULL END
     WHERE id = $1`,
    [id, to],
  );
  await recordStaffEvent(tx, "lead", id, by, "status", { from, to });
}

/** Replaces a lead's notes; false when there is no such lead. */
export async function saveLeadNote(
  db: Db,
  id: number,
  notes: string,
  by: string | null,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx.query(
      "UPDATE leads SET notes = $2, updated_at = now() WHERE id = $1 RETURNING id",
      [id, notes],
    );
    if (rows.length === 0) return false;
    await recordStaffEvent(tx, "lead", id, by, "note");
    return true;
  });
}

/**
 * 'Erase this person': every lead from this e-mail address (any case), its history and the
 * e-mail that carried it. Returns how many leads went. (The person's alerts and every other
 * e-mail to them go through the other features' part: server/features.ts, `erasePerson`.)
 */
export async function eraseLeadsOf(db: Db, email: string): Promise<number> {
  // No stored address holds a control character (a NUL is no text to PostgreSQL): none to erase.
  if (/\p{Cc}/u.test(email)) return 0;
  return db.transaction(async (tx) => {
    const rows = await tx.query<{ id: number }>(
      "DELETE FROM leads WHERE lower(email) = lower($1) RETURNING id::int AS id",
      [email.trim()],
    );
    await eraseMailOf(
      tx,
      rows.map((r) => leadRef(r.id)),
    );
    return rows.length;
  });
}

/** Deletes leads closed more than `days` days ago, with their e-mail. */
export async function purgeClosedLeads(db: Db, days: number): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx.query<{ id: number }>(
      `DELETE FROM leads WHERE status = 'closed'
         AND closed_at < now() - make_interval(days => $1) RETURNING id::int AS id`,
      [days],
    );
    await eraseMailOf(
      tx,
      rows.map((r) => leadRef(r.id)),
    );
    return rows.length;
  });
}

export const statusLabel = (status: LeadStatus) => LEAD_STATUSES[status];
