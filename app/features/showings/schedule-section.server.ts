// 'Schedule a showing' on the detail pages (docs/behaviour.md §33), made into markup on the
// server: the next free times grouped by day, each a link to /showings/book with that time
// chosen, where the renter gives their details. The page keeps the markup as it is, so no
// script is sent for it (the detail pages' JavaScript budget, docs/decisions/0077).
import { type OfferedTime, SHOWING_LABELS, timesByDay } from "~/domain/showing-booking";
import { shortDayLabel, timeLabel } from "~/domain/showing-slots";
import type { ShowingListing } from "./showings.server";

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
const html = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

export const bookingHref = (listing: ShowingListing, start: string) =>
  `/showings/book?${new URLSearchParams({ listing: `${listing.collection}/${listing.id}`, start })}`;

export function scheduleSectionHtml(offer: { listing: ShowingListing; times: OfferedTime[] }) {
  const days = timesByDay(offer.times);
  const body =
    days.length === 0
      ? `<p>${html(SHOWING_LABELS.noTimes)}</p>`
      : days
          .map(
            ([date, times]) =>
              `<div class="showing-day"><h3 class="h6">${html(shortDayLabel(date))}</h3><ul class="showing-times">${times
                .map(
                  (t) =>
                    `<li><a class="btn btn-outline btn-sm" href="${html(bookingHref(offer.listing, t.start))}">${html(timeLabel(t.time))}</a></li>`,
                )
                .join("")}</ul></div>`,
          )
          .join("");
  return `<section class="showings" aria-labelledby="schedule-h"><h2 id="schedule-h" class="h4">${html(SHOWING_LABELS.heading)}</h2>${body}</section>`;
}

/** A listing with 'No showings': a mark the stylesheet hides 'I'd like to see it' by. */
export const NO_SHOWINGS_HTML = '<div class="no-showings" hidden></div>';
