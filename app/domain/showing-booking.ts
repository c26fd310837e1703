// Booking a showing on a listing (docs/behaviour.md §33): the labels and messages (the issue's,
// character for character) and the check of what the form sends. Name, e-mail and phone are
// checked as the inquiry form checks them, with its messages.

import { INQUIRY_ERRORS, INQUIRY_LABELS, INQUIRY_LIMITS } from "./inquiry";
import { isIsoDate } from "./listing-facts";
import { CONTROL, EMAIL_PATTERN } from "./text-checks";

export const SHOWING_LABELS = {
  heading: "Schedule a showing",
  name: INQUIRY_LABELS.name,
  email: INQUIRY_LABELS.email,
  phone: INQUIRY_LABELS.phone,
  moveIn: "Move-in date (optional)",
  people: "People who will live here (optional)",
  book: "Book showing",
  manage: "Change or cancel",
  yours: "Your showing",
  another: "Choose another time",
  cancel: "Cancel showing",
  sure: "Are you sure?",
  cancelled: "Your showing is cancelled.",
  taken: "That time was just taken. Please choose another.",
  noTimes: "No times are open in the next days. Ask about this listing instead.",
  confirm: "Confirm I'm coming",
  /** The reminder's link to cancel (it opens 'Are you sure?'). */
  cancelLink: "Cancel",
  confirmedNow: "Thank you: your showing is confirmed.",
  notConfirmed: "Your showing was cancelled because it was not confirmed in time.",
  /** Asked of a showing that is cancelled, past or unknown, by its link or on 'Showings'. */
  gone: "This showing cannot be changed any more.",
} as const;

/** A showing's status as staff see it on 'Showings'. */
export const SHOWING_STATUS_LABELS = {
  booked: "Booked",
  confirmed: "Confirmed",
  cancelled: "Cancelled",
  completed: "Completed",
  "no-show": "No-show",
} as const;

/** The buttons of 'Showings', by the status each sets. */
export const AGENDA_ACTIONS = {
  completed: "Completed",
  "no-show": "No-show",
  cancelled: "Cancel",
} as const;
export type AgendaAction = keyof typeof AGENDA_ACTIONS;

/** 'You're booked for Tuesday, December 1 at 10:30 AM.' */
export const bookedText = (day: string, time: string) => `You're booked for ${day} at ${time}.`;

export const SHOWING_ERRORS = {
  ...INQUIRY_ERRORS,
  moveIn: "Enter a date such as 2027-03-01, or leave it empty.",
  people: "Enter a number from 1 to 20, or leave it empty.",
  time: "Choose a time.",
  tooFast: "Please check your details and press 'Book showing' again.",
} as const;

/** A free time as a page gives it to the form: the instant, its local day and time. */
export interface OfferedTime {
  start: string;
  date: string;
  time: string;
}

/** At most this many days of times are shown: the next days that have any. */
export const DAYS_SHOWN = 7;

/** Free times grouped by their local day, the first DAYS_SHOWN days that have any. */
export function timesByDay(times: OfferedTime[]): [string, OfferedTime[]][] {
  const days = new Map<string, OfferedTime[]>();
  for (const t of times) {
    const day = days.get(t.date);
    if (day) day.push(t);
    else if (days.size < DAYS_SHOWN) days.set(t.date, [t]);
  }
  return [...days];
}

export type BookingField = "name" | "email" | "phone" | "moveIn" | "people" | "start";

export interface BookingValues {
  name: string;
  email: string;
  phone: string;
  moveIn: string;
  people: string;
  /** The chosen start, as an ISO 8601 instant. */
  start: string;
}

export interface BookingCheck {
  values: BookingValues;
  errors: Partial<Record<BookingField, string>>;
  /** The checked values, when there are no errors. */
  person: {
    name: string;
    email: string;
    phone: string;
    moveIn: string | null;
    people: number | null;
  } | null;
  start: Date | null;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

/** Checks a booking's fields; every refused field gets its message, values kept as typed. */
export function checkBooking(raw: Partial<Record<keyof BookingValues, unknown>>): BookingCheck {
  const text = (v: unknown) => (typeof v === "string" ? v.slice(0, 10_000) : "");
  const values: BookingValues = {
    name: text(raw.name),
    email: text(raw.email),
    phone: text(raw.phone),
    moveIn: text(raw.moveIn),
    people: text(raw.people),
    start: text(raw.start),
  };
  const errors: BookingCheck["errors"] = {};
  const name = values.name.trim();
  const email = values.email.trim();
  const phone = values.phone.trim();
  const moveIn = values.moveIn.trim();
  const people = values.people.trim();
  if (!name || CONTROL.test(name) || /[\r\n]/.test(name)) errors.name = SHOWING_ERRORS.name;
  else if (name.length > INQUIRY_LIMITS.name)
    errors.name = SHOWING_ERRORS.tooLong("name", INQUIRY_LIMITS.name);
  if (email.length > INQUIRY_LIMITS.email || !EMAIL_PATTERN.test(email))
    errors.email = SHOWING_ERRORS.email;
  if (phone.length > INQUIRY_LIMITS.phone || CONTROL.test(phone) || /[\r\n]/.test(phone))
    errors.phone = SHOWING_ERRORS.phone;
  // A real date of this century or the next (the database refuses a year 0).
  const realDate = isIsoDate(moveIn) && moveIn >= "2000-01-01" && moveIn <= "2199-12-31";
  if (moveIn && !realDate) errors.moveIn = SHOWING_ERRORS.moveIn;
  if (people && !(/^\d{1,2}$/.test(people) && Number(people) >= 1 && Number(people) <= 20))
    errors.people = SHOWING_ERRORS.people;
  const start = ISO_INSTANT.test(values.start) ? new Date(values.start) : null;
  if (!start || Number.isNaN(start.getTime())) errors.start = SHOWING_ERRORS.time;
  const ok = Object.keys(errors).length === 0;
  return {
    values,
    errors,
    person: ok
      ? { name, email, phone, moveIn: moveIn || null, people: people ? Number(people) : null }
      : null,
    start: ok ? start : null,
  };
}
