// 'Your showing' (docs/behaviour.md §33): what the private 'Change or cancel' link opens, its
// cancellation (the seat is free at once; the renter gets a withdrawn invitation, staff are
// told), and the move to another time (the new time is booked first, so a time taken meanwhile
// leaves the showing as it was).
import type { AppLoadContext } from "react-router";
import { tooManyFromNetwork } from "~/domain/inquiry";
import { listingPath } from "~/domain/listing-kinds";
import { bookedText, type OfferedTime, SHOWING_LABELS } from "~/domain/showing-booking";
import {
  isOfferedStart,
  longDayLabel,
  type ShowingHours,
  slotOf,
  timeLabel,
} from "~/domain/showing-slots";
import { getListing } from "~/features/listings/index.server";
import { enqueueMail } from "~/features/mail/index.server";
import { getSiteContent } from "~/features/site-settings/index.server";
import type { Queryable } from "~/shared/db.server";
import { log } from "~/shared/logger.server";
import { bookedMail, invitationFor, offered, takesBookings } from "./book.server";
import { getShowingHours } from "./hours.server";
import { planShowingJobs } from "./reminder-plan.server";
import {
  cancelByToken,
  confirmByToken,
  freeSlots,
  moveShowing,
  type Showing,
  showingByToken,
} from "./showings.server";

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
  const listing = open
    ? await getListing(context.db, showing.listing.collection, showing.listing.id)
    : null;
  const times =
    listing && takesBookings(listing)
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

/**
 * Tells the renter (the invitation withdrawn) of a showing cancelled or moved, in that
 * transaction, and staff (reply-to the renter) of one the renter cancelled or nobody confirmed.
 * Only staff hear of a move's old time: the renter's new booking e-mail says the rest.
 */
export async function showingNoticeMail(
  context: Pick<AppLoadContext, "env">,
  tx: Queryable,
  showing: Showing,
  hours: ShowingHours,
  why: "cancelled" | "moved" | "unconfirmed" | "staff",
) {
  const site = await getSiteContent(tx);
  const slot = { ...slotOf(hours, showing.start), end: showing.end };
  const when = `${longDayLabel(slot.date)} at ${timeLabel(slot.time)}`;
  const { address } = showing.listing;
  const ref = `showing:${showing.id}`;
  const again = `To book another time: ${context.env.publicUrl}${listingPath(showing.listing.collection, showing.listing.id)}`;
  const lines = {
    moved: [
      `Your showing of ${address} on ${when} was moved: this time is taken off your calendar.`,
    ],
    cancelled: [`${SHOWING_LABELS.cancelled} It was ${address}, ${when}.`],
    unconfirmed: [`${SHOWING_LABELS.notConfirmed} It was ${address}, ${when}.`, "", again],
    staff: [`${SHOWING_LABELS.cancelled} It was ${address}, ${when}.`, "", again],
  }[why];
  await enqueueMail(tx, {
    kind: "showing cancelled",
    ref,
    to: [showing.email],
    replyTo: site.office.email,
    subject: `Showing ${why === "moved" ? "moved" : "cancelled"}: ${address}`,
    body: [
      "Hello,",
      "",
      ...lines,
      "",
      site.name,
      `${site.office.phone} · ${site.office.email}`,
    ].join("\n"),
    calendar: invitationFor(showing.id, slot, hours, showing.listing, site, "CANCEL"),
    unconfirmed: context.env.mail.unconfirmed,
  });
  if (why === "moved" || why === "staff") return;
  await enqueueMail(tx, {
    kind: "showing cancelled (staff)",
    ref,
    to: context.env.leads.notify.length ? context.env.leads.notify : [site.office.email],
    replyTo: showing.email,
    subject: `Showing cancelled: ${address}, ${when}`,
    body:
      why === "unconfirmed"
        ? `The showing of ${address} on ${when} by ${showing.name} (${showing.email}) was cancelled: it was not confirmed in time.`
        : `${showing.name} (${showing.email}) cancelled the showing of ${address} on ${when}.`,
  });
}

export type ManageAnswer =
  | { ok: true; message: string }
  | { ok: false; status: number; error: string };

const GONE = SHOWING_LABELS.gone;

/** 'Cancel showing' from the private link. Cancelling twice answers the same. */
export async function cancelShowing(context: AppLoadContext, token: string): Promise<ManageAnswer> {
  const hours = await getShowingHours(context.db);
  const cancelled = await cancelByToken(context.db, token, (tx, s) =>
    showingNoticeMail(context, tx, s, hours, "cancelled"),
  );
  if (cancelled) {
    log().info({ event: "showing cancelled", showingId: cancelled.id }, "showing cancelled");
  } else if (!(await showingByToken(context.db, token))) {
    return { ok: false, status: 404, error: GONE };
  }
  return { ok: true, message: SHOWING_LABELS.cancelled };
}

/** 'Confirm I'm coming' from a reminder's link (or the booking's). Confirming twice is fine. */
export async function confirmShowing(
  context: AppLoadContext,
  token: string,
  now = new Date(),
): Promise<ManageAnswer> {
  const confirmed = await confirmByToken(context.db, token, now);
  if (!confirmed) return { ok: false, status: 409, error: GONE };
  log().info({ event: "showing confirmed", showingId: confirmed.id }, "showing confirmed");
  return { ok: true, message: SHOWING_LABELS.confirmedNow };
}

/**
 * 'Choose another time': the new time must be offered, free and at a listing that still takes
 * bookings; the move is one transaction (showings.server.ts, moveShowing). The renter gets the
 * new booking's e-mail and the old invitation withdrawn; staff are told.
 */
export async function moveShowingTo(
  context: AppLoadContext,
  token: string,
  start: Date,
  now = new Date(),
): Promise<ManageAnswer> {
  const showing = await showingByToken(context.db, token);
  if (!showing) return { ok: false, status: 404, error: GONE };
  const hours = await getShowingHours(context.db);
  const listing = await getListing(context.db, showing.listing.collection, showing.listing.id);
  if (!listing || !takesBookings(listing)) return { ok: false, status: 409, error: GONE };
  if (!isOfferedStart(hours, now, start)) {
    return { ok: false, status: 409, error: SHOWING_LABELS.taken };
  }
  const wait = (await context.limit?.("showing")) ?? 0;
  if (wait > 0) return { ok: false, status: 429, error: tooManyFromNetwork("bookings", wait) };
  const site = await getSiteContent(context.db);
  const end = new Date(start.getTime() + hours.slotMinutes * 60_000);
  const moved = await moveShowing(
    context.db,
    token,
    { start, end },
    hours,
    now,
    async (tx, from, to, newToken) => {
      await showingNoticeMail(context, tx, from, hours, "moved");
      await bookedMail(context, tx, to, newToken, hours, site, "moved");
      await planShowingJobs(context.scheduler, tx, to, hours, now);
    },
  );
  if (!moved.ok) {
    return moved.reason === "gone"
      ? { ok: false, status: 409, error: GONE }
      : { ok: false, status: 409, error: SHOWING_LABELS.taken };
  }
  log().info({ event: "showing moved", showingId: moved.to.id }, "showing moved");
  const slot = slotOf(hours, start);
  return { ok: true, message: bookedText(longDayLabel(slot.date), timeLabel(slot.time)) };
}
