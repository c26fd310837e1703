// The server's one error type (docs/decisions/0058-one-error-model.md): a refusal whose status and
// message are meant for the person who made the request. Anything else that fails is a fault:
// server/error-handler.ts answers it with a generic 500 and the request's id, and logs the cause.
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
    this.name = "HttpError";
  }
}

/** A refusal of what was submitted (a bad field, an image that is none...): HTTP 400. */
export function isValidationError(error: unknown): error is HttpError {
  return error instanceof HttpError && error.status === 400;
}

/** The short standard text of an HTTP status ("Payload Too Large"), for bodies of refusals. */
export function statusText(status: number): string {
  return STATUS_CODES[status] ?? (status >= 500 ? "Internal Server Error" : "Request Refused");
}

/**
 * The refusal an error stands for, or undefined for a fault. Besides HttpError itself, the
 * refusals of the libraries under the app: Express decoding a path parameter (URIError), the
 * body parser (`type`), and other http-errors style errors with a 4xx status, whose message
 * is shown only when they mark it as meant for the client (`expose`).
 */
export function asHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (error instanceof URIError) {
    return new HttpError(
      400,
      "The URL is not valid: a part of it is not correctly percent-encoded.",
    );
  }
  const refusal = (error ?? {}) as {
    type?: unknown;
    status?: unknown;
    statusCode?: unknown;
    expose?: unknown;
    message?: unknown;
  };
  if (refusal.type === "entity.parse.failed") {
    return new HttpError(400, "The request body is not valid JSON.");
  }
  if (refusal.type === "entity.too.large") return new HttpError(413, "The request is too large.");
  const status = refusal.status ?? refusal.statusCode;
  if (typeof status !== "number" || !Number.isInteger(status) || status < 400 || status > 499) {
    return undefined;
  }
  return new HttpError(
    status,
    refusal.expose === true && typeof refusal.message === "string" && refusal.message
      ? `${statusText(status)}: ${refusal.message}`
      : statusText(status),
  );
}
