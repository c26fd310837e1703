// What every page action answers (docs/architecture.md, "One answer shape"): success with a
// message, or a refusal with the form's error and its fields' errors, the answer's status and
// the request's reference (the id its X-Request-Id header carries; decision 0034). Faults are
// not answers: pageFault() makes them the error page with the same reference.

/** A refusal's messages: the form's own (`form`) and one per field, by the field's name. */
export type FormErrors = Record<string, string>;

export type Succeeded<T extends object = object> = { ok: true; message?: string } & T;

export type Refused<T extends object = object> = {
  ok: false;
  errors: FormErrors;
  /** The request's id, as 'Reference: {id}' names it. */
  reference: string | null;
} & T;

export type ActionResult<S extends object = object, R extends object = object> =
  | Succeeded<S>
  | Refused<R>;
