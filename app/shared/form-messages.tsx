// The public forms' error messages ('Ask about this listing', 'Notify me...'): written by the page,
// next to their fields, never left to the browser's own validation (docs/behaviour.md §27).

/** A refusal of the whole form (unreadable, too many from the network), announced at once. */
export function FormError({ message }: { message?: string }) {
  return message ? (
    <p className="field-error" role="alert">
      {message}
    </p>
  ) : null;
}

/** A field's error, below it; `id` is what the field's aria-describedby names. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p className="field-error" id={id}>
      {message}
    </p>
  ) : null;
}

/** Marks a field invalid and ties it to its FieldError, when it has one. */
export const invalidField = (errorId: string, message?: string) =>
  message ? { "aria-invalid": true as const, "aria-describedby": errorId } : {};
