// 'Ask about this listing' and 'Send us a message' (docs/behaviour.md §27): the form's
// labels, limits and messages, and the check the server runs on what it receives. Labels and
// messages are the issue's, character for character.
import { longDate } from "./listing-facts";
import { parseListingRef } from "./listing-kinds";
import { CONTROL, EMAIL_PATTERN } from "./text-checks";

export { CONTROL, EMAIL_PATTERN };

export const INQUIRY_LABELS = {
  heading: "Ask about this listing",
  contactHeading: "Send us a message",
  name: "Your name",
  email: "E-mail",
  phone: "Phone (optional)",
  message: "Message",
  showing: "I'd like to see it",
  time: "Preferred time",
  send: "Send",
  sent: "Thanks! We'll get back to you soon.",
  privacy: "How we use your details",
} as const;

export const INQUIRY_ERRORS = {
  name: "Enter your name.",
  email: "Enter a valid e-mail address.",
  message: "Write a message.",
  phone: "Enter a phone number of at most 40 characters.",
  time: "Enter a date and time, such as 2027-03-01 10:00.",
  tooLong: (what: string, max: number) => `The ${what} must be at most ${max} characters.`,
  tooFast: "Please check your message and press 'Send' again.",
  failed: "Your message could not be sent. Please try again in a moment.",
} as const;

/**
 * A public form refused by its client's hourly limit: 'Too many {what} from your network. Try
 * again in {n} minutes.' (the inquiry form's, docs/behaviour.md §27; the alerts', §31).
 */
export function tooManyFromNetwork(what: string, waitSeconds: number): string {
  const minutes = Math.ceil(waitSeconds / 60);
  return `Too many ${what} from your network. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/** Field limits (characters). */
export const INQUIRY_LIMITS = { name: 100, email: 254, phone: 40, message: 5000 } as const;
/** At most this many 'Preferred time' inputs. */
export const MAX_PREFERRED_TIMES = 3;

export const LEAD_KINDS = { inquiry: "Inquiry", showing: "Showing request" } as const;
export type LeadKind = keyof typeof LEAD_KINDS;
export const LEAD_STATUSES = {
  new: "New",
  contacted: "Contacted",
  "showing-scheduled": "Showing scheduled",
  closed: "Closed",
} as const;
export type LeadStatus = keyof typeof LEAD_STATUSES;

export function isLeadStatus(value: unknown): value is LeadStatus {
  return typeof value === "string" && Object.hasOwn(LEAD_STATUSES, value);
}
export function isLeadKind(value: unknown): value is LeadKind {
  return typeof value === "string" && Object.hasOwn(LEAD_KINDS, value);
}

export type InquiryField = "name" | "email" | "phone" | "message" | "times";

/** What the form holds, as typed (kept as typed when refused, so nothing is lost). */
export interface InquiryValues {
  name: string;
  email: string;
  phone: string;
  message: string;
  showing: boolean;
  times: string[];
}

export interface InquiryCheck {
  values: InquiryValues;
  errors: Partial<Record<InquiryField, string>>;
}

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** A 'Preferred time' as a date input sends it (YYYY-MM-DDTHH:MM), a real date and time. */
export function isLocalDateTime(text: string): boolean {
  const m = LOCAL_TIME.exec(text);
  if (!m) return false;
  const [, y, mo, d, h, mi] = m.map(Number) as number[];
  const date = new Date(Date.UTC(y as number, (mo as number) - 1, d, h, mi));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === (mo as number) - 1 &&
    date.getUTCDate() === d &&
    (h as number) < 24 &&
    (mi as number) < 60
  );
}

/** 'Tuesday, March 2, 2027 at 10:00' style, without Intl (docs/decisions/0055). */
export function describeLocalTime(text: string): string {
  if (!isLocalDateTime(text)) return text;
  const [date, time] = text.split("T") as [string, string];
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const day = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][
    new Date(Date.UTC(y, m - 1, d)).getUTCDay()
  ];
  return `${day}, ${longDate(date)} at ${time}`;
}

/** Checks a submission's fields (each refused field gets its message; values kept as typed). */
export function checkInquiry(raw: {
  name?: unknown;
  email?: unknown;
  phone?: unknown;
  message?: unknown;
  showing?: unknown;
  times?: unknown;
}): InquiryCheck {
  const text = (v: unknown) => (typeof v === "string" ? v : "");
  const given = raw.times === undefined ? [] : Array.isArray(raw.times) ? raw.times : [raw.times];
  const times = given
    .map(text)
    .map((t) => t.trim())
    .slice(0, MAX_PREFERRED_TIMES);
  const values: InquiryValues = {
    name: text(raw.name),
    email: text(raw.email),
    phone: text(raw.phone),
    message: text(raw.message),
    showing: raw.showing === true || raw.showing === "on" || raw.showing === "yes",
    times,
  };
  const errors: InquiryCheck["errors"] = {};
  const name = values.name.trim();
  if (name === "" || CONTROL.test(name) || /[\r\n]/.test(name)) errors.name = INQUIRY_ERRORS.name;
  else if (name.length > INQUIRY_LIMITS.name) {
    errors.name = INQUIRY_ERRORS.tooLong("name", INQUIRY_LIMITS.name);
  }
  const email = values.email.trim();
  if (email.length > INQUIRY_LIMITS.email || !EMAIL_PATTERN.test(email))
    errors.email = INQUIRY_ERRORS.email;
  const phone = values.phone.trim();
  if (phone.length > INQUIRY_LIMITS.phone || CONTROL.test(phone) || /[\r\n]/.test(phone)) {
    errors.phone = INQUIRY_ERRORS.phone;
  }
  const message = values.message.trim();
  if (message === "" || CONTROL.test(message)) errors.message = INQUIRY_ERRORS.message;
  else if (message.length > INQUIRY_LIMITS.message) {
    errors.message = INQUIRY_ERRORS.tooLong("message", INQUIRY_LIMITS.message);
  }
  if (values.showing && times.some((t) => t !== "" && !isLocalDateTime(t))) {
    errors.times = INQUIRY_ERRORS.time;
  }
  return { values, errors };
}

/** The message the form starts with on a listing's page. */
export function prefilledMessage(address: string): string {
  return `I'm interested in ${address.trim()}.`;
}

/** The inbox's query parameters (docs/behaviour.md §27): a value it does not accept is none. */
export const inboxParam = {
  status: (v: string) => (isLeadStatus(v) ? v : null),
  kind: (v: string) => (isLeadKind(v) ? v : null),
  listing: (v: string) => (parseListingRef(v) ? v : null),
  page: (v: string) => (/^[1-9]\d{0,4}$/.test(v) ? v : null),
};

/** The inbox's filters from its query (docs/behaviour.md §27); a value it does not take is none. */
export function inboxFilterOf(params: URLSearchParams): {
  status?: LeadStatus;
  kind?: LeadKind;
  listing?: string;
} {
  const status = inboxParam.status(params.get("status") ?? "");
  const kind = inboxParam.kind(params.get("kind") ?? "");
  const listing = inboxParam.listing(params.get("listing") ?? "");
  return {
    ...(status ? { status } : {}),
    ...(kind ? { kind } : {}),
    ...(listing ? { listing } : {}),
  };
}
