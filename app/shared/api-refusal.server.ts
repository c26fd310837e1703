// The JSON API's error body (docs/architecture.md, "One answer shape"): a page action's refusal
// (`ok`, `errors` by field or `form`, `reference`: the request's id) with the API's documented
// `error`, and `code` and `field` when the refusal names them. A fault keeps `requestId` too.
import type { Response } from "express";

export interface ApiRefusalOf {
  message: string;
  code?: string;
  field?: string;
  /** Faults: the request's id, which the body names even where a proxy drops headers. */
  requestId?: string;
}

export function apiRefusal({ message, code, field, requestId }: ApiRefusalOf, header: unknown) {
  return {
    ok: false as const,
    error: message,
    errors: { [field ?? "form"]: message },
    reference: requestId ?? (typeof header === "string" ? header : null),
    ...(code ? { code } : {}),
    ...(field ? { field } : {}),
    ...(requestId ? { requestId } : {}),
  };
}

/** Answers a refusal with `status` and the API's error body. */
export function sendApiRefusal(res: Response, status: number, message: string): void {
  res.status(status).json(apiRefusal({ message }, res.getHeader("X-Request-Id")));
}
