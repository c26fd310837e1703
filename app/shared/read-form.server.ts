// A page action's form. A body that is no form (JSON, a cut-off upload, a wrong content type)
// is bad input like any other: refused with a message, never a 5xx (docs/decisions/0036-resilience-suites.md).
// It is read with a limit counted as it arrives (docs/decisions/0072-request-body-limits.md).
import {
  FORM_BODY_BYTES,
  FORM_TOO_LARGE,
  type FormRefusal,
  readLimitedForm,
} from "./request-body.server";

export type { FormRefusal } from "./request-body.server";

export const FORM_UNREADABLE = "The form could not be read. Reload the page and try again.";

const UNREADABLE: FormRefusal = { status: 400, message: FORM_UNREADABLE };
const TOO_LARGE: FormRefusal = { status: 413, message: FORM_TOO_LARGE };

/** The request's form (at most FORM_BODY_BYTES), or why it was refused. */
export const readForm = (request: Request, limit = FORM_BODY_BYTES) =>
  readLimitedForm(request, limit, UNREADABLE, TOO_LARGE);

export const isForm = (read: FormData | FormRefusal): read is FormData => read instanceof FormData;
