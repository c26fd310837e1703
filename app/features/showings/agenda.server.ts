// The staff's 'Showings' (docs/behaviour.md §33, "Staff agenda"): today's showings and the next
// 7 days', in the company's time zone, and the buttons 'Completed', 'No-show' and 'Cancel' (which
// e-mails the renter). A Leasing agent limited to 'Only these listings' sees and changes those
// listings' showings alone.
import type { AppLoadContext } from "react-router";
import { listingPath } from "~/domain/listing-kinds";
import type { ListingScope } from "~/domain/listing-scope";
import {
  type AgendaAction,
  SHOWING_STATUS_LABELS as STATUS_LABELS,
} from "~/domain/showing-booking";
import { localParts, longDayLabel, slotOf, timeLabel, zonedInstant } from "~/domain/showing-slots";
import { logEvent } from "~/shared/events.server";
import { getShowingHours } from "./hours.server";
import { showingNoticeMail } from "./manage.server";
import { newestShowings, setShowingStatus, showingsBetween } from "./showings.server";

export interface AgendaRow {
  id: number;
  today: boolean;
  when: string;
  address: string;
  href: string;
  name: string;
  email: string;
  phone: string;
  answers: string[];
  status: string;
  /** The buttons that apply: 'Cancel' while ahead; 'Completed' and 'No-show' from its day on. */
  actions: AgendaAction[];
}

/** Midnight of the `n`th day from today in the zone, or the first minute that exists that day. */
function dayStart(today: string, n: number, timeZone: string): Date {
  const date = new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000)
    .toISOString()
    .slice(0, 10);
  for (let m = 0; m < 180; m++) {
    const at = zonedInstant(date, m, timeZone);
    if (at) return at;
  }
  return new Date(Date.parse(`${date}T00:00:00Z`));
}

export async function showingAgenda(
  context: Pick<AppLoadContext, "db">,
  scope: ListingScope,
  now = new Date(),
): Promise<AgendaRow[]> {
  const hours = await getShowingHours(context.db);
  const today = localParts(now, hours.timeZone).date;
  const from = dayStart(today, 0, hours.timeZone);
  const showings = await showingsBetween(
    context.db,
    from,
    dayStart(today, 8, hours.timeZone),
    scope,
  );
  const tomorrow = dayStart(today, 1, hours.timeZone).getTime();
  return showings.map((s) => {
    const live = s.status === "booked" || s.status === "confirmed";
    const actions: AgendaAction[] = [];
    if (live && s.start.getTime() < tomorrow) actions.push("completed", "no-show");
    if (live && s.start > now) actions.push("cancelled");
    const slot = slotOf(hours, s.start);
    return {
      id: s.id,
      today: s.start.getTime() < tomorrow,
      when: `${longDayLabel(slot.date)}, ${timeLabel(slot.time)}`,
      address: s.listing.address,
      href: listingPath(s.listing.collection, s.listing.id),
      name: s.name,
      email: s.email,
      phone: s.phone,
      answers: [
        s.moveIn ? `Move-in date: ${s.moveIn}` : null,
        s.people ? `People: ${s.people}` : null,
      ].filter((a) => a !== null),
      status: STATUS_LABELS[s.status],
      actions,
    };
  });
}

/** One booking as the Inbox lists it, as an item of kind 'Showing'. */
export interface InboxShowing {
  id: number;
  name: string;
  address: string;
  href: string;
  when: string;
  status: string;
}

/** The newest bookings for the Inbox (of the listings in `scope`), newest first. */
export async function inboxShowings(
  context: Pick<AppLoadContext, "db">,
  scope: ListingScope,
  limit = 10,
): Promise<InboxShowing[]> {
  const hours = await getShowingHours(context.db);
  return (await newestShowings(context.db, limit, scope)).map((s) => {
    const slot = slotOf(hours, s.start);
    return {
      id: s.id,
      name: s.name,
      address: s.listing.address,
      href: listingPath(s.listing.collection, s.listing.id),
      when: `${longDayLabel(slot.date)}, ${timeLabel(slot.time)}`,
      status: STATUS_LABELS[s.status],
    };
  });
}

/**
 * A button of the agenda on one live showing of the staff member's listings: the new status, or
 * null (unknown, out of scope, or already completed, a no-show or cancelled). 'Cancel' frees the
 * seat at once and e-mails the renter, in the same transaction.
 */
export async function markShowing(
  context: Pick<AppLoadContext, "db" | "env">,
  id: number,
  action: AgendaAction,
  by: { actorId: string | null; scope: ListingScope },
  now = new Date(),
): Promise<string | null> {
  const hours = await getShowingHours(context.db);
  const tomorrow = dayStart(localParts(now, hours.timeZone).date, 1, hours.timeZone);
  // 'Cancel' a showing still ahead (the renter is told); 'Completed' or 'No-show' one of today
  // or before, never one days ahead (its seat would be given away unseen).
  const when =
    action === "cancelled"
      ? { from: now, to: new Date(8_640_000_000_000) }
      : { from: new Date(0), to: tomorrow };
  const changed = await context.db.transaction(async (tx) => {
    const showing = await setShowingStatus(tx, id, action, when, by.scope);
    if (showing && action === "cancelled") {
      await showingNoticeMail(context, tx, showing, hours, "staff");
    }
    return showing;
  });
  if (!changed) return null;
  logEvent("showing status changed", by.actorId, { showing: id, status: action });
  return STATUS_LABELS[action];
}
