// The one way a page action answers and reads its input (app/shared/action-result.ts): a form
// read with its byte limit and parsed by a zod schema; success with a message; a refusal with
// its status, messages and the request's reference.
import { type AppLoadContext, data } from "react-router";
import { z } from "zod";
import type { FormErrors, Refused, Succeeded } from "./action-result";
import { isForm, readForm } from "./read-form.server";

export type { ActionResult, FormErrors, Refused, Succeeded } from "./action-result";

type NoMore = Record<never, never>;

export function succeeded<T extends object = NoMore>(message?: string, more?: T): Succeeded<T> {
  return { ok: true, ...(message === undefined ? {} : { message }), ...(more as T) };
}

/** A refusal: a message for the form, or messages by field (`form` for the form's own). */
export function refused<T extends object = NoMore>(
  context: Pick<AppLoadContext, "requestId">,
  status: number,
  errors: string | FormErrors,
  more?: T,
) {
  const answer = {
    ok: false as const,
    errors: typeof errors === "string" ? { form: errors } : errors,
    reference: context.requestId ?? null,
    ...(more as T),
  } as Refused<T>;
  return data(answer, { status });
}

export type ParsedForm<T> =
  | { ok: true; data: T; form: FormData }
  | {
      ok: false;
      status: number;
      /** The first message of each field; the form's own under `form`. */
      errors: FormErrors;
      /** The first message of all: what a form that shows one message shows. */
      message: string;
      /** The form, when it could be read (a refusal may depend on a field of it). */
      form?: FormData;
    };

interface FieldOptions {
  /** Fields a form may send several times (all their values, in order); others give the first. */
  repeated?: readonly string[];
}

/**
 * The request's form (at most FORM_BODY_BYTES, counted as it arrives) parsed by `schema`. A
 * field sent twice is read as its first value, as FormData.get does, unless it is `repeated`.
 * `invalid` is the one message for any field the schema refuses, for forms whose fields are the
 * page's own (hidden, or chosen from a list); otherwise each refusal says its schema's message.
 */
export async function parseForm<S extends z.ZodType>(
  request: Request,
  schema: S,
  { invalid, repeated }: FieldOptions & { invalid?: string } = {},
): Promise<ParsedForm<z.output<S>>> {
  const form = await readForm(request);
  if (!isForm(form)) {
    return {
      ok: false,
      status: form.status,
      errors: { form: form.message },
      message: form.message,
    };
  }
  const parsed = schema.safeParse(fieldsOf(form, repeated));
  if (parsed.success) return { ok: true, data: parsed.data, form };
  const errors: FormErrors = {};
  for (const issue of parsed.error.issues) {
    const field = typeof issue.path[0] === "string" ? issue.path[0] : "form";
    errors[field] ??= issue.message;
  }
  const message = invalid ?? parsed.error.issues[0]?.message ?? "The form could not be read.";
  return { ok: false, status: 400, errors, message, form };
}

/**
 * A form already read (a public form's submission, whose refusals give back what was typed),
 * parsed by a schema that takes any form: its fields made of `formText` and `formTexts`.
 */
export function readFields<S extends z.ZodType>(
  form: FormData,
  schema: S,
  { repeated }: FieldOptions = {},
): z.output<S> {
  return schema.parse(fieldsOf(form, repeated));
}

function fieldsOf(form: FormData, repeated: readonly string[] = []) {
  const fields: Record<string, FormDataEntryValue | FormDataEntryValue[]> = {};
  for (const [name, value] of form) {
    if (repeated.includes(name)) {
      const values = fields[name];
      if (Array.isArray(values)) values.push(value);
      else fields[name] = [value];
    } else if (!(name in fields)) fields[name] = value;
  }
  return fields;
}

/** A text field as typed; "" when it is missing or not text (a file). */
export const formText = z.string().catch("");

/** Text fields by name, for a schema's shape: `z.object({ ...textFields("name", "email") })`. */
export const textFields = <N extends string>(...names: N[]) =>
  Object.fromEntries(names.map((name) => [name, formText])) as Record<N, typeof formText>;

/** A field sent once per input (several 'Preferred time' inputs): its texts, in order. */
export const formTexts = z
  .array(z.unknown())
  .catch([])
  .transform((values) => values.filter((v): v is string => typeof v === "string"));

/**
 * A field checked by one of the domain's own checks (which answer the value or `{ error }`), as
 * a schema: the domain keeps its messages and stays free of zod.
 */
export const checkedBy = <T>(check: (value: unknown) => T | { error: string }) =>
  z.unknown().transform((value, ctx) => {
    const result = check(value);
    if (typeof result === "object" && result !== null && "error" in result) {
      ctx.addIssue({ code: "custom", message: result.error });
      return z.NEVER;
    }
    return result as T;
  });
