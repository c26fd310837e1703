// The public forms' spam checks (docs/behaviour.md §27): the hidden field people never fill, and
// the time since the page loaded, measured in the browser when the page's script runs
// ('elapsed'), else from the page's own render time ('started'; a page kept for a while only
// makes it longer). The form kit's SpamGuardFields send all three.
import { HONEYPOT_FIELD } from "./honeypot";

export { HONEYPOT_FIELD };

/** A submission sooner than this after the page loaded is a script's, not a person's. */
export const MIN_SUBMIT_MS = 3000;

/** The spam guard's fields, as the form kit names them. */
export const SPAM_GUARD_FIELDS = [HONEYPOT_FIELD, "started", "elapsed"] as const;

/** What a submission sends of the spam guard's fields, as typed. */
export interface SpamGuardValues {
  [HONEYPOT_FIELD]: string;
  started: string;
  elapsed: string;
}

const positive = (text: string) => {
  const n = Number(text);
  return text !== "" && Number.isFinite(n) && n > 0 ? n : null;
};

/** When the form's page was made (ms): the form's own word, else `now`. */
export const formStartOf = (fields: Pick<SpamGuardValues, "started">, now: number) =>
  positive(fields.started) ?? now;

/** Which check a submission fails: the honeypot, the time, or none (null). */
export function spamCheck(fields: SpamGuardValues, now: number): "honeypot" | "too-fast" | null {
  if (fields[HONEYPOT_FIELD] !== "") return "honeypot";
  const waited = positive(fields.elapsed) ?? now - formStartOf(fields, now);
  return waited >= MIN_SUBMIT_MS ? null : "too-fast";
}
