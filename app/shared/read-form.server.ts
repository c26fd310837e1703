// A page action's form. A body that is no form (JSON, a cut-off upload, a wrong content type)
// is bad input like any other: refused with a message, never a 5xx (docs/decisions/0036-resilience-suites.md).
import { data } from "react-router";

export const FORM_UNREADABLE = "The form could not be read. Reload the page and try again.";

/** The request's form, or null when its body is not one. */
export const readForm = (request: Request) => request.formData().catch(() => null);

/** The public forms' answer to an unreadable body: the form's empty answer with one error. */
export const unreadableFormAnswer = <T extends object>(empty: T) =>
  data({ ok: false as const, errors: { form: FORM_UNREADABLE }, ...empty }, { status: 400 });
