// Staff's answers from the inbox (docs/behaviour.md §27): 'Reply', 'Confirm
// showing' (with an iCalendar invitation) and 'Decline'. Each answer is one transaction: the
// e-mail to the renter is written to the outbox (docs/decisions/0062), the answer is kept in the
// item's thread (lead_events) with who and when, and the status moves on. Nothing of it happens
// when any part is refused.
import { createEvent, type EventAttributes } from "ics";
import {
  describeLocalTime,
  INQUIRY_LIMITS,
  isLocalDateTime,
  type LeadStatus,
} from "~/domain/inquiry";
import { ANSWER_ERRORS, SHOWING_MINUTES } from "~/domain/inquiry-answers";
import { enqueueMail } from "~/features/mail/index.server";
import type { Db, Queryable } from "~/shared/db.server";
import { countStaffEvents, recordStaffEvent } from "~/shared/staff-events.server";
import { type LeadMail, leadRef, moveStatus } from "./leads.server";

export type Answer =
  | { kind: "reply"; text: string }
  | { kind: "confirm"; time: string; text: string }
  | { kind: "decline"; text: string };

export type AnswerResult = { ok: true } | { ok: false; status: 400 | 404; error: string };

/** What each answer does to the status: a reply marks a new item contacted. */
function nextStatus(answer: Answer, current: LeadStatus): LeadStatus {
  if (answer.kind === "confirm") return "showing-scheduled";
  if (answer.kind === "decline") return "closed";
  return current === "new" ? "contacted" : current;
}

interface AnsweredLead {
  id: number;
  kind: "inquiry" | "showing";
  name: string;
  email: string;
  message: string;
  listingAddress: string | null;
  createdAt: string;
  status: LeadStatus;
}

/** Checks an answer's fields; null when it may be sent. */
export function checkAnswer(answer: Answer): string | null {
  if (answer.text.length > INQUIRY_LIMITS.message) return ANSWER_ERRORS.tooLong;
  if (answer.text.includes("\u0000")) return ANSWER_ERRORS.unsendable;
  if (answer.kind === "reply" && answer.text.trim() === "") return ANSWER_ERRORS.reply;
  if (answer.kind === "confirm" && !isLocalDateTime(answer.time)) return ANSWER_ERRORS.time;
  return null;
}

/** Sends an answer to a lead's renter, keeps it in the thread and moves the status on. */
export async function answerLead(
  db: Db,
  id: number,
  answer: Answer,
  by: string | null,
  mail: LeadMail,
): Promise<AnswerResult> {
  const refused = checkAnswer(answer);
  if (refused) return { ok: false, status: 400, error: refused };
  return db.transaction(async (tx) => {
    const [lead] = await tx.query<AnsweredLead>(
      `SELECT id::int AS id, kind, name, email, message, listing_address AS "listingAddress",
         created_at AS "createdAt", status
       FROM leads WHERE id = $1 FOR UPDATE`,
      [id],
    );
    if (!lead) return { ok: false, status: 404, error: "This item is no longer in the inbox." };
    if (answer.kind !== "reply" && lead.kind !== "showing") {
      return { ok: false, status: 400, error: ANSWER_ERRORS.notShowing };
    }
    const email = await composeAnswer(tx, lead, answer, mail);
    await enqueueMail(tx, {
      kind: answer.kind === "reply" ? "reply" : `showing-${answer.kind}`,
      ref: leadRef(lead.id),
      to: [lead.email],
      replyTo: mail.officeEmail,
      ...email,
    });
    await recordStaffEvent(tx, "lead", lead.id, by, answer.kind, {
      subject: email.subject,
      text: answer.text.trim(),
      ...(answer.kind === "confirm" ? { time: answer.time } : {}),
    });
    const status = nextStatus(answer, lead.status);
    if (status !== lead.status) {
      await moveStatus(tx, lead.id, lead.status, status, by);
    } else {
      await tx.query("UPDATE leads SET updated_at = now() WHERE id = $1", [lead.id]);
    }
    return { ok: true };
  });
}

const signature = (mail: LeadMail) =>
  ["", mail.companyName, `${mail.officePhone} · ${mail.officeEmail}`].join("\n");

const quoted = (text: string) =>
  text
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");

async function composeAnswer(
  tx: Queryable,
  lead: AnsweredLead,
  answer: Answer,
  mail: LeadMail,
): Promise<{ subject: string; body: string; calendar?: string }> {
  const text = answer.text.trim();
  const address = lead.listingAddress?.trim() || null;
  const sent = new Date(lead.createdAt).toISOString().slice(0, 10);
  const original = `\n\nYou wrote on ${sent}:\n${quoted(lead.message)}`;
  if (answer.kind === "reply") {
    return {
      subject: address ? `Re: ${address}` : `Re: your message to ${mail.companyName}`,
      body: `${text}\n${signature(mail)}${original}`,
    };
  }
  const where = address ?? mail.companyName;
  if (answer.kind === "decline") {
    return {
      subject: `About your showing request for ${where}`,
      body: [
        `Hello ${lead.name},`,
        "",
        `Thank you for your interest in ${where}. We're sorry, but we can't arrange a showing at this time.`,
        ...(text ? ["", text] : []),
        "",
        `If you have any questions, reply to this e-mail or call us at ${mail.officePhone}.`,
        signature(mail),
      ].join("\n"),
    };
  }
  // A showing confirmed again (another time) updates the same calendar event: same UID, the
  // next SEQUENCE (RFC 5545 §3.8.7.4).
  const earlier = await countStaffEvents(tx, "lead", lead.id, "confirm");
  const when = describeLocalTime(answer.time);
  return {
    subject: `Showing confirmed: ${where}, ${when}`,
    body: [
      `Hello ${lead.name},`,
      "",
      `Your showing of ${where} is confirmed for ${when}.`,
      ...(text ? ["", text] : []),
      "",
      "The invitation is attached: open it to add the showing to your calendar.",
      signature(mail),
    ].join("\n"),
    calendar: showingInvitation({
      uid: `showing-${lead.id}@${new URL(mail.publicUrl).hostname}`,
      sequence: earlier,
      time: answer.time,
      address: where,
      renter: { name: lead.name, email: lead.email },
      mail,
    }),
  };
}

/**
 * The invitation (iCalendar, METHOD:REQUEST) for a showing at a local time: a "floating" time
 * (RFC 5545 §3.3.5), the listing's own local time as the renter proposed it and staff chose it;
 * the site keeps no time zone (docs/decisions/0065-answers-from-the-inbox.md).
 */
export function showingInvitation(input: {
  uid: string;
  sequence: number;
  time: string;
  address: string;
  renter: { name: string; email: string };
  mail: LeadMail;
}): string {
  const [date, clock] = input.time.split("T") as [string, string];
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const [h, min] = clock.split(":").map(Number) as [number, number];
  // A parameter value (CN) may not hold a double quote (RFC 5545 §3.2): the library would
  // escape it with a backslash, which calendars do not read.
  const cn = (name: string) => name.replaceAll('"', "'");
  const organizer = { name: cn(input.mail.companyName), email: input.mail.officeEmail };
  const attendee = {
    name: cn(input.renter.name),
    email: input.renter.email,
    rsvp: true,
    partstat: "NEEDS-ACTION",
    role: "REQ-PARTICIPANT",
  } as const;
  const event = {
    productId: `-//${cn(input.mail.companyName)}//Showings//EN`,
    method: "REQUEST",
    uid: input.uid,
    sequence: input.sequence,
    start: [y, m, d, h, min],
    startInputType: "local",
    startOutputType: "local",
    duration: { minutes: SHOWING_MINUTES },
    title: `Showing: ${input.address}`,
    location: input.address,
    description: `${input.mail.companyName} · ${input.mail.officePhone} · ${input.mail.officeEmail}`,
    status: "CONFIRMED",
  } as const satisfies EventAttributes;
  // The library checks e-mail addresses more narrowly than the form does (an address with
  // letters beyond ASCII is refused): the invitation then goes without that person, never not
  // at all.
  for (const people of [{ organizer, attendees: [attendee] }, { organizer }, {}]) {
    const { error, value } = createEvent({ ...event, ...people });
    if (!error && value) return value;
  }
  throw new Error("the invitation could not be made");
}
