// Staff notes on a lead or an application (docs/behaviour.md §27, §32): one rule for both.

/** The longest note, in characters. */
export const STAFF_NOTES_MAX = 5000;

export const STAFF_NOTES_ERRORS = {
  text: `Notes must be text of at most ${STAFF_NOTES_MAX} characters.`,
  // PostgreSQL's text cannot hold a NUL: the write would fail instead of being refused.
  unsavable: "The notes hold a character that cannot be saved. Remove it and try again.",
} as const;

/** The notes to store, or the refusal's message. */
export function checkStaffNotes(value: unknown): { notes: string } | { error: string } {
  if (typeof value !== "string" || value.length > STAFF_NOTES_MAX) {
    return { error: STAFF_NOTES_ERRORS.text };
  }
  if (value.includes("\u0000")) return { error: STAFF_NOTES_ERRORS.unsavable };
  return { notes: value };
}
