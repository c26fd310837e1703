// The form kit every form uses, public and staff (docs/decisions/0032-layers-and-feature-surfaces.md,
// its amendment): a field with its label, hint and the server's message; the form's own message;
// the submit button with its pending state; the public forms' spam-guard fields. One module: a
// page loading a form loads the kit as one file, which measured fewer bytes on the pages with
// public forms than a module per part (docs/decisions/0032-layers-and-feature-surfaces.md).
// Every message is written by the page, next to its field, never left to the browser's own
// validation (docs/behaviour.md §27).
import type {
  ButtonHTMLAttributes,
  FormEvent,
  InputHTMLAttributes,
  ReactNode,
  TextareaHTMLAttributes,
} from "react";
import { HONEYPOT_FIELD } from "~/domain/honeypot";

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

// A field: ids follow one pattern, the input is `id`, its message `${id}-error`, its hint
// `${id}-hint`; a textarea when `rows` is given.
export interface TextFieldProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name" | "className"> {
  id: string;
  name?: string;
  label: ReactNode;
  /** The server's message for this field, when it refused it. */
  error?: string;
  hint?: ReactNode;
  /** A textarea of this many rows instead of an input. */
  rows?: number;
}

export function TextField({ id, name, label, error, hint, rows, ...input }: TextFieldProps) {
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean);
  const common = {
    id,
    name,
    className: "form-control",
    ...(error ? { "aria-invalid": true as const } : {}),
    ...(described.length > 0 ? { "aria-describedby": described.join(" ") } : {}),
  };
  return (
    <>
      <label className="form-label" htmlFor={id}>
        {label}
      </label>
      {rows ? (
        <textarea
          rows={rows}
          {...(input as TextareaHTMLAttributes<HTMLTextAreaElement>)}
          {...common}
        />
      ) : (
        <input {...input} {...common} />
      )}
      {hint ? (
        <p className="form-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </>
  );
}

// A form's submit button: disabled while its answer is awaited, so a double press sends once;
// with `busyText`, a spinner and that text meanwhile (docs/behaviour.md §4's 'Saving...').
export interface SubmitButtonProps
  extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type" | "disabled"> {
  pending: boolean;
  busyText?: string;
  children: ReactNode;
}

export function SubmitButton({
  pending,
  busyText,
  children,
  className = "btn btn-primary",
  ...button
}: SubmitButtonProps) {
  return (
    <button type="submit" className={className} disabled={pending} {...button}>
      {pending && busyText ? (
        <>
          <span className="spinner" aria-hidden="true" />
          {busyText}
        </>
      ) : (
        children
      )}
    </button>
  );
}

// The hidden fields of the public forms that scripts trip over (docs/behaviour.md §27, §31):
// when the page was made, how long it was open as the browser measured it (set on submit), and
// a honeypot people never see. The server's checks are submitInquiry()'s and submitAlert()'s.
export function SpamGuardFields({ id, started }: { id: string; started: number }) {
  return (
    <>
      <input type="hidden" name="started" value={started} />
      <input type="hidden" name="elapsed" defaultValue="" />
      <div className="hp" aria-hidden="true">
        <label htmlFor={`${id}-hp`}>Leave this empty</label>
        <input
          id={`${id}-hp`}
          name={HONEYPOT_FIELD}
          tabIndex={-1}
          autoComplete="off"
          defaultValue=""
        />
      </div>
    </>
  );
}

/** The form's onSubmit: how long the page was open, as this browser measured it. */
export function recordElapsed(event: FormEvent<HTMLFormElement>) {
  const field = event.currentTarget.elements.namedItem("elapsed") as HTMLInputElement | null;
  if (field) field.value = String(Math.round(performance.now()));
}
