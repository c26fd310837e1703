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

/**
 * The request's form (at most FORM_BODY_BYTES, counted as it arrives) parsed by `schema`. A
 * field sent twice is read as its first value, as FormData.get does. `invalid` is the one
 * message for any field the schema refuses, for forms whose fields are the page's own (hidden,
 * or chosen from a list); otherwise each refusal says its schema's message.
 */
export async function parseForm<S extends z.ZodType>(
  request: Request,
  schema: S,
  { invalid }: { invalid?: string } = {},
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
  const fields: Record<string, FormDataEntryValue> = {};
  for (const [name, value] of form) if (!(name in fields)) fields[name] = value;
  const parsed = schema.safeParse(fields);
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
