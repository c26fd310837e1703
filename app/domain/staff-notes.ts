// Staff notes on a lead or an application (docs/behaviour.md §27, §32): one rule for both.

/** The longest note, in characters. */
export const STAFF_NOTES_MAX = 5000;

export const STAFF_NOTES_ERROR = `Notes must be text of at most ${STAFF_NOTES_MAX} characters.`;

/**
 * The notes to store, or null when they cannot be: not text, too long, or holding a NUL, which
 * PostgreSQL's text cannot hold (it would fail the write instead of refusing it).
 */
export function staffNotesOf(value: unknown): string | null {
  return typeof value === "string" && value.length <= STAFF_NOTES_MAX && !value.includes("\u0000")
    ? value
    : null;
}
