// 'Your showing' (docs/behaviour.md §33): what the private 'Change or cancel' link opens, its
// cancellation (the seat is free at once; the renter gets a withdrawn invitation, staff are
// told), and the move to another time (the new time is booked first, so a time taken meanwhile
// leaves the showing as it was).
import type { AppLoadContext } from "react-router";
import { listingPath } from "~/domain/listing-kinds";
import { type OfferedTime, SHOWING_LABELS } from "~/domain/showing-booking";
import {
  isOfferedStart,
  longDayLabel,
  type ShowingHours,
  slotOf,
  timeLabel,
} from "~/domain/showing-slots";
import { enqueueMail } from "~/features/mail/index.server";
import { getSiteContent } from "~/features/site-settings/index.server";
import type { Queryable } from "~/shared/db.server";
import { log } from "~/shared/logger.server";
import { invitationFor, offered, submitBooking } from "./book.server";
import { getShowingHours } from "./hours.server";
import { cancelByToken, freeSlots, type Showing, showingByToken } from "./showings.server";

export interface ManagedShowing {
  address: string;
  /** The listing's page. */
  href: string;
  day: string;
  time: string;
  status: Showing["status"];
  /** Still ahead and live: it may be moved or cancelled. */
  open: boolean;
  /** Other free times of the listing (when open). */
  times: OfferedTime[];
}

/** What the link opens, or null for an unknown link. */
export async function managedShowing(
  context: Pick<AppLoadContext, "db">,
  token: string,
  now = new Date(),
): Promise<ManagedShowing | null> {
  const showing = await showingByToken(context.db, token);
  if (!showing) return null;
  const hours = await getShowingHours(context.db);
  const slot = slotOf(hours, showing.start);
  const open =
    (showing.status === "booked" || showing.status === "confirmed") &&
    showing.start.getTime() > now.getTime();
  const times = open
    ? (await freeSlots(context.db, hours, showing.listing, now))
        .filter((s) => s.start.getTime() !== showing.start.getTime())
        .map(offered)
    : [];
  return {
    address: showing.listing.address,
    href: listingPath(showing.listing.collection, showing.listing.id),
    day: longDayLabel(slot.date),
    time: timeLabel(slot.time),
    status: showing.status,
    open,
    times,
  };
}

/** Tells the renter and staff of a cancelled showing, in the cancelling transaction. */
async function cancelledMail(
  context: Pick<AppLoadContext, "db" | "env">,
  tx: Queryable,
  showing: Showing,
  hours: ShowingHours,
  byRenter: boolean,
) {
  const site = await getSiteContent(tx);
  const slot = slotOf(hours, showing.start);
  const when = `${longDayLabel(slot.date)} at ${timeLabel(slot.time)}`;
  const ref = `showing:${showing.id}`;
  await enqueueMail(tx, {
    kind: "showing cancelled",
    ref,
    to: [showing.email],
    replyTo: site.office.email,
    subject: `Showing cancelled: ${showing.listing.address}`,
    body: [
      "Hello,",
      "",
      `${SHOWING_LABELS.cancelled} (${showing.listing.address}, ${when})`,
      "",
      site.name,
      `${site.office.phone} · ${site.office.email}`,
    ].join("\n"),
    calendar: invitationFor(showing.id, slot, hours, showing.listing, site, "CANCEL"),
    unconfirmed: context.env.mail.unconfirmed,
  });
  await enqueueMail(tx, {
    kind: "showing cancelled (staff)",
    ref,
    to: context.env.leads.notify.length ? context.env.leads.notify : [site.office.email],
    subject: `Showing cancelled: ${showing.listing.address}, ${when}`,
    body: `${showing.name} (${showing.email}) ${byRenter ? "cancelled" : "had"} the showing of ${showing.listing.address} on ${when}.`,
  });
}

export type ManageAnswer =
  | { ok: true; message: string }
  | { ok: false; status: number; error: string };

/**
 * 'Cancel showing' from the private link, or 'Choose another time' (`moveTo`: the new time is
 * booked for the same person, then the old one cancelled).
 */
export async function cancelShowing(
  context: AppLoadContext,
  token: string,
  moveTo: Date | null = null,
  now = new Date(),
): Promise<ManageAnswer> {
  const showing = await showingByToken(context.db, token);
  if (!showing) return { ok: false, status: 404, error: "This link is not valid any more." };
  const hours = await getShowingHours(context.db);
  if (moveTo) {
    if (!isOfferedStart(hours, now, moveTo)) {
      return { ok: false, status: 409, error: SHOWING_LABELS.taken };
    }
    const form = new FormData();
    form.set("listing", `${showing.listing.collection}/${showing.listing.id}`);
    form.set("start", moveTo.toISOString());
    for (const [k, v] of Object.entries({
      name: showing.name,
      email: showing.email,
      phone: showing.phone,
      moveIn: showing.moveIn ?? "",
      people: showing.people === null ? "" : String(showing.people),
      elapsed: String(Number.MAX_SAFE_INTEGER),
    }))
      form.set(k, v);
    const booked = await submitBooking(context, form, now);
    if (!booked.ok) {
      return { ok: false, status: booked.status, error: SHOWING_LABELS.taken };
    }
    await cancelByToken(context.db, token);
    log().info({ event: "showing moved", showingId: showing.id }, "showing moved");
    return { ok: true, message: booked.message };
  }
  const cancelled = await cancelByToken(context.db, token, (tx, s) =>
    cancelledMail(context, tx, s, hours, true),
  );
  if (!cancelled) return { ok: true, message: SHOWING_LABELS.cancelled };
  log().info({ event: "showing cancelled", showingId: cancelled.id }, "showing cancelled");
  return { ok: true, message: SHOWING_LABELS.cancelled };
}
