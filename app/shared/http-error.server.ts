import { STATUS_CODES } from "node:http";

/** An error whose message is safe and meant for the person who made the request. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** A stable name for clients that must tell one refusal from another (e.g. "stale"). */
    readonly code?: string,
    /** The submitted field the refusal is about (e.g. "bedrooms"), so a form can mark it. */
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The short standard text of an HTTP status ("Payload Too Large"), for bodies of refusals. */
export function statusText(status: number): string {
  return STATUS_CODES[status] ?? (status >= 500 ? "Internal Server Error" : "Request Refused");
}
