// 'Notify me when it's available' and 'E-mail me new matches' (docs/behaviour.md
// §31): the forms' labels and messages, in one place for the pages, the server and the tests.
import { EMAIL_PATTERN, INQUIRY_ERRORS, INQUIRY_LIMITS } from "./inquiry";

export const ALERT_LABELS = {
  listingHeading: "Notify me when it's available",
  listingIntro:
    "Leave your e-mail address: we'll write to you once, when this property is available again.",
  searchHeading: "E-mail me new matches",
  searchIntro:
    "Leave your e-mail address: once a day, we'll send you new listings that match this search.",
  email: "E-mail",
  listingButton: "Notify me",
  searchButton: "E-mail me new matches",
  sent: "Check your e-mail: we sent you a link to confirm. Nothing is sent before you do.",
  confirmHeading: "Confirm your e-mail alert",
  confirmButton: "Confirm",
  confirmed: "Thanks! Your alert is on. Every e-mail we send has a link to stop it.",
  unsubscribeHeading: "Unsubscribe",
  unsubscribeIntro: "Stop these e-mails and delete your e-mail address from our alerts.",
  unsubscribeButton: "Unsubscribe",
  unsubscribed: "You are unsubscribed: we deleted your e-mail address from every alert.",
  invalidLink: "This link is not valid any more. If you still want an alert, ask for it again.",
} as const;

export const ALERT_ERRORS = {
  email: INQUIRY_ERRORS.email,
  // Says nothing went out: "check your e-mail address" read as "check your e-mail" (decision 0077).
  tooFast:
    "Your alert was not saved and no e-mail was sent: the form came in too soon after the page opened. Make sure the address is right and press the button again.",
  failed: "Your alert could not be saved. Please try again in a moment.",
  mailCapped:
    "We have sent as many e-mails to this address as we may for now, so your alert was not saved. Please try again tomorrow.",
} as const;

/** Days an unconfirmed alert is kept before it is deleted. */
export const ALERT_CONFIRM_DAYS = 7;
/** At most this many listings in one daily e-mail of new matches. */
export const DIGEST_MAX_LISTINGS = 20;

/** The e-mail address of a form as typed, or an error. */
export function checkAlertEmail(raw: unknown): { email: string; error?: string } {
  const email = typeof raw === "string" ? raw : "";
  const trimmed = email.trim();
  if (
    trimmed.length > INQUIRY_LIMITS.email ||
    !EMAIL_PATTERN.test(trimmed) ||
    /[\p{Cc}\p{Cs}]/u.test(trimmed)
  ) {
    return { email, error: ALERT_ERRORS.email };
  }
  return { email: trimmed };
}
