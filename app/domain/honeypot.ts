// The public forms' honeypot (docs/behaviour.md §27): its own module, with no imports, so that
// the form kit can name it without bringing the inquiry rules into every page with a form.

/** The hidden field people never see and scripts fill in. */
export const HONEYPOT_FIELD = "website";
