// 'Book showing' (docs/behaviour.md §33): the spam checks the inquiry form has (a hidden field,
// the time since the page loaded), the fields, the listing (available, with showings), the
// chosen time (still offered and free), the client's hourly limit, then the booking and its
// e-mails in one transaction. A refusal books and sends nothing, and gives back what was typed.
import { type AppLoadContext, data, type UNSAFE_DataWithResponseInit } from "react-router";
import { z } from "zod";
import { tooManyFromNetwork } from "~/domain/inquiry";
import { type Collection, listingPath, parseListingRef } from "~/domain/listing-kinds";
import {
  type BookingField,
  type BookingValues,
  bookedText,
  checkBooking,
  type OfferedTime,
  SHOWING_ERRORS,
  SHOWING_LABELS,
} from "~/domain/showing-booking";
import {
  isOfferedStart,
  longDayLabel,
  type ShowingHours,
  type Slot,
  slotOf,
  timeLabel,
} from "~/domain/showing-slots";
import { formStartOf, SPAM_GUARD_FIELDS, spamCheck } from "~/domain/spam-guard";
import { linkCollector } from "~/features/applications/index.server";
import { getListing } from "~/features/listings/index.server";
import { enqueueMail } from "~/features/mail/index.server";
import { getSiteContent } from "~/features/site-settings/index.server";
import { readFields, textFields } from "~/shared/action-result.server";
import type { Queryable } from "~/shared/db.server";
import { log } from "~/shared/logger.server";
import { getShowingHours } from "./hours.server";
import { showingInvitation } from "./invitation.server";
import { planShowingJobs } from "./reminder-plan.server";
import { NO_SHOWINGS_HTML, scheduleSectionHtml } from "./schedule-section.server";
import {
  bookShowing,
  freeSlots,
  manageUrl,
  type Showing,
  type ShowingListing,
} from "./showings.server";

/**
 * Whether a stored listing takes bookings: its 'Showings' is 'Open hours' (stored empty), and a
 * property only while available.
 */
export const takesBookings = (listing: {
  collection: Collection;
  currently_available?: boolean | null;
  showings?: string | null;
}) =>
  (listing.showings ?? null) === null &&
  (listing.collection !== "properties" || listing.currently_available === true);

/**
 * 'Schedule a showing' for a detail page: the listing and its free times, or null when it takes
 * no bookings (a property not available, or no open day in 'Showing hours').
 */
export async function showingsFor(
  context: Pick<AppLoadContext, "db">,
  listing: {
    collection: Collection;
    id: string;
    address: string;
    currently_available?: boolean | null;
    showings?: string | null;
  },
  now = new Date(),
): Promise<{ listing: ShowingListing; times: OfferedTime[] } | null> {
  if (!takesBookings(listing)) return null;
  const hours = await getShowingHours(context.db);
  if (!Object.values(hours.week).some(Boolean)) return null;
  const slots = await freeSlots(context.db, hours, listing, now);
  const { collection, id, address } = listing;
  return { listing: { collection, id, address }, times: slots.map(offered) };
}

/**
 * The address of a listing's 'Schedule a showing' when it offers times now (open hours, and a
 * property while available), for the inquiry's automatic reply; else null.
 */
export async function scheduleUrlFor(
  context: Pick<AppLoadContext, "db" | "env">,
  listing: Parameters<typeof showingsFor>[1],
): Promise<string | null> {
  const offer = await showingsFor(context, listing);
  if (!offer || offer.times.length === 0) return null;
  return `${context.env.publicUrl}${listingPath(listing.collection, listing.id)}#schedule-h`;
}

/**
 * A detail page's loader answer with 'Schedule a showing' added (the routes compose it, so
 * listings does not depend on showings).
 */
export async function withShowings<
  D extends {
    listing: {
      collection: Collection;
      id: string;
      address: string;
      currently_available?: boolean | null;
      showings?: string | null;
    } | null;
  },
>(context: Pick<AppLoadContext, "db">, answer: UNSAFE_DataWithResponseInit<D>) {
  const { listing } = answer.data;
  const offer = listing ? await showingsFor(context, listing) : null;
  // 'No showings': the inquiry form's 'I'd like to see it' is hidden too, by the stylesheet
  // alone (the detail pages' JavaScript budget, docs/decisions/0077).
  const panelHtml = offer
    ? scheduleSectionHtml(offer)
    : listing?.showings === "none"
      ? NO_SHOWINGS_HTML
      : null;
  return data({ ...answer.data, panelHtml }, answer.init ?? undefined);
}

/** A slot as the page gives it to the form. */
export const offered = (slot: Slot): OfferedTime => ({
  start: slot.start.toISOString(),
  date: slot.date,
  time: slot.time,
});

export type BookingAnswer =
  | { ok: true; message: string; listing: ShowingListing }
  | {
      ok: false;
      status: number;
      errors: Partial<Record<BookingField | "form", string>>;
      values: BookingValues;
      listing: ShowingListing | null;
      /** The times offered now (refreshed after a time was taken). */
      slots: OfferedTime[];
      started: number;
    };

/** The form as sent: any form parses, and checkBooking says what is wrong with it. */
const bookingForm = z.object(
  textFields(
    "name",
    "email",
    "phone",
    "moveIn",
    "people",
    "start",
    "listing",
    ...SPAM_GUARD_FIELDS,
  ),
);

export async function submitBooking(
  context: AppLoadContext,
  form: FormData,
  now = new Date(),
): Promise<BookingAnswer> {
  const fields = readFields(form, bookingForm);
  const check = checkBooking(fields);
  const { values } = check;
  const started = formStartOf(fields, now.getTime());

  const ref = parseListingRef(fields.listing);
  const found = ref ? await getListing(context.db, ref.collection, ref.id) : null;
  const hours = await getShowingHours(context.db);
  const listing: ShowingListing | null =
    ref && found ? { collection: ref.collection, id: ref.id, address: found.address } : null;
  const refuse = async (
    status: number,
    errors: Partial<Record<BookingField | "form", string>>,
  ): Promise<BookingAnswer> => ({
    ok: false,
    status,
    errors,
    values,
    listing,
    slots: listing ? (await freeSlots(context.db, hours, listing, now)).map(offered) : [],
    started,
  });

  if (!listing || !found || !takesBookings(found)) {
    return refuse(404, { form: SHOWING_LABELS.noTimes });
  }
  if (!check.person || !check.start) return refuse(400, check.errors);

  // A person never fills the hidden field; a script that did is told nothing was wrong.
  const spam = spamCheck(fields, now.getTime());
  if (spam === "honeypot") {
    log().info({ event: "showing refused", reason: "honeypot" }, "showing refused");
  }
  if (spam) return refuse(400, { form: SHOWING_ERRORS.tooFast });

  const start = check.start;
  if (!isOfferedStart(hours, now, start)) return refuse(409, { start: SHOWING_LABELS.taken });

  const wait = (await context.limit?.("showing")) ?? 0;
  if (wait > 0) return refuse(429, { form: tooManyFromNetwork("bookings", wait) });

  const slot = slotOf(hours, start);
  const site = await getSiteContent(context.db);
  const result = await bookShowing(
    context.db,
    { listing, start, end: slot.end, person: check.person },
    hours,
    async (tx, showing, token) => {
      await bookedMail(context, tx, showing, token, hours, site);
      await planShowingJobs(context.scheduler, tx, showing, hours, now);
    },
  );
  if (!result.ok) return refuse(409, { start: SHOWING_LABELS.taken });
  log().info({ event: "showing booked", showingId: result.showing.id }, "showing booked");
  return {
    ok: true,
    message: bookedText(longDayLabel(slot.date), timeLabel(slot.time)),
    listing,
  };
}

export function invitationFor(
  id: number,
  slot: Slot,
  hours: Pick<ShowingHours, "timeZone">,
  listing: ShowingListing,
  site: { name: string; office: { email: string; phone: string } },
  method: "REQUEST" | "CANCEL" = "REQUEST",
) {
  return showingInvitation({
    uid: `showing-${id}@leasing-site`,
    sequence: method === "CANCEL" ? 1 : 0,
    start: slot.start,
    end: slot.end,
    timeZone: hours.timeZone,
    address: listing.address,
    companyName: site.name,
    officeEmail: site.office.email,
    officePhone: site.office.phone,
    method,
  });
}

/**
 * The e-mails of a booked showing, in its transaction: the renter's, in the company's words only
 * (the address was typed by the sender; docs/behaviour.md §33), with the private link and the
 * invitation; and staff's, with the renter's details (reply-to the renter, so that 'Erase this
 * person' takes it with the rest).
 */
export async function bookedMail(
  context: Pick<AppLoadContext, "env" | "applications">,
  tx: Queryable,
  showing: Showing,
  token: string,
  hours: ShowingHours,
  site: { name: string; office: { email: string; phone: string } },
  heading = "booked",
) {
  const { listing } = showing;
  const slot = { ...slotOf(hours, showing.start), end: showing.end };
  const day = longDayLabel(slot.date);
  const time = timeLabel(slot.time);
  const links = linkCollector();
  const key = context.applications.key;
  const url = manageUrl(context.env.publicUrl, token);
  // The link is sealed in the outbox when the site has its data key (docs/decisions/0074).
  const manage = key ? links.add(url) : url;
  const ref = `showing:${showing.id}`;
  await enqueueMail(tx, {
    kind: "showing booked",
    ref,
    to: [showing.email],
    replyTo: site.office.email,
    subject: `Your showing: ${listing.address}`,
    body: [
      "Hello,",
      "",
      bookedText(day, time),
      `Where: ${listing.address}`,
      "",
      `${SHOWING_LABELS.manage}: ${manage}`,
      "",
      "The invitation is attached: open it to add the showing to your calendar.",
      "",
      site.name,
      `${site.office.phone} · ${site.office.email}`,
    ].join("\n"),
    calendar: invitationFor(showing.id, slot, hours, listing, site),
    unconfirmed: context.env.mail.unconfirmed,
    sealedLinks: key ? links.sealed(key, ref) : null,
  });
  await enqueueMail(tx, {
    kind: "showing booked (staff)",
    ref,
    to: context.env.leads.notify.length ? context.env.leads.notify : [site.office.email],
    replyTo: showing.email,
    subject: `Showing ${heading}: ${listing.address}, ${day} at ${time}`,
    body: [
      `${showing.name} ${heading === "booked" ? "booked a showing" : "moved their showing"} of ${listing.address}.`,
      `When: ${day} at ${time}`,
      `E-mail: ${showing.email}`,
      showing.phone ? `Phone: ${showing.phone}` : null,
      showing.moveIn ? `Move-in date: ${showing.moveIn}` : null,
      showing.people ? `People who will live here: ${showing.people}` : null,
      "",
      `${context.env.publicUrl}/admin/showings`,
    ]
      .filter((line) => line !== null)
      .join("\n"),
  });
}
