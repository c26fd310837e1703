// The app's one error handler (docs/decisions/0058-one-error-model.md): every error of an Express
// route, the API's included, ends here. A refusal (HttpError, or a library's refusal that
// asHttpError() turns into one) is answered with its status and its message; a database outage
// with 503 and its message; anything else is a fault: a generic 500 with the request's id, and
// the cause in the log only. JSON under /api (app/shared/api-refusal.server.ts); plain text elsewhere.
import type { ErrorRequestHandler } from "express";
import { apiRefusal } from "~/shared/api-refusal.server";
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from "~/shared/db.server";
import { asHttpError, statusText } from "~/shared/http-error.server";
import { log } from "~/shared/logger.server";
import { redactUrl } from "~/shared/redact-url";

/** What the API says about a fault: the details stay in the log (docs/behaviour.md §8). */
export const FAULT_MESSAGE = "Something went wrong on the server.";

/** The status of a fault: a 5xx the error carries (http-errors style), else 500. */
function faultStatus(error: unknown): number {
  const { status, statusCode } = (error ?? {}) as { status?: unknown; statusCode?: unknown };
  const candidate = status ?? statusCode;
  return typeof candidate === "number" &&
    Number.isInteger(candidate) &&
    candidate >= 500 &&
    candidate <= 599
    ? candidate
    : 500;
}

interface Answer {
  status: number;
  message: string;
  code?: string;
  field?: string;
  /** Faults only: the request's id, also in the X-Request-Id header, for staff to quote. */
  requestId?: string;
}

export const finalErrorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const api = req.path === "/api" || req.path.startsWith("/api/");
  const where = `${req.method} ${redactUrl(req.originalUrl)}`;
  const refusal = asHttpError(error);
  let answer: Answer;
  if (refusal) {
    const { status, message, code, field } = refusal;
    // Refusals of bad requests are the client's mistake: the access line is enough.
    answer = { status, message, code, field };
  } else if (isDatabaseUnavailable(error)) {
    // The database is away (restart, failover): a temporary 503, not a fault of the request.
    log().warn(`${where}: database unavailable (${(error as Error).message})`);
    res.set("Retry-After", String(DATABASE_UNAVAILABLE.retryAfterSeconds));
    answer = { status: 503, message: DATABASE_UNAVAILABLE.message };
  } else {
    // Logged with the request's id (log() is the request's logger), which the answer carries
    // too: staff find this line from what an admin or a visitor quotes.
    const status = faultStatus(error);
    log().error({ err: error }, `${where} failed`);
    const requestId = res.getHeader("X-Request-Id");
    answer = {
      status,
      message: api ? FAULT_MESSAGE : statusText(status),
      requestId: typeof requestId === "string" ? requestId : undefined,
    };
  }
  if (res.headersSent) {
    res.end();
    return;
  }
  res.status(answer.status);
  if (api) res.json(apiRefusal(answer, res.getHeader("X-Request-Id")));
  else res.type("text/plain").send(answer.message);
};
