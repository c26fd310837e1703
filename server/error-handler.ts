// The app's last error handler: whatever failed, the visitor gets the status and its own short
// text (JSON under /api, where clients read `error`), never internals; server faults are logged.
import type { ErrorRequestHandler } from "express";
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from "~/shared/db.server";
import { statusText } from "~/shared/http-error.server";
import { log } from "~/shared/logger.server";
import { redactUrl } from "~/shared/redact-url";

/** The 4xx/5xx status an error carries (Express, body-parser, http-errors style), else 500. */
export function errorStatus(error: unknown): number {
  // The database is away (restart, failover): a temporary 503, not a fault of the request.
  if (isDatabaseUnavailable(error)) return 503;
  const { status, statusCode } = (error ?? {}) as { status?: unknown; statusCode?: unknown };
  const candidate = status ?? statusCode;
  return typeof candidate === "number" &&
    Number.isInteger(candidate) &&
    candidate >= 400 &&
    candidate <= 599
    ? candidate
    : 500;
}

export const finalErrorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const status = errorStatus(error);
  // Logged with the request's id (log() is the request's logger), which the answer's
  // X-Request-Id header also carries: staff can find this line from what a visitor quotes.
  const unavailable = isDatabaseUnavailable(error);
  if (unavailable)
    log().warn(
      `${req.method} ${redactUrl(req.originalUrl)}: database unavailable (${(error as Error).message})`,
    );
  else if (status >= 500)
    log().error({ err: error }, `${req.method} ${redactUrl(req.originalUrl)} failed`);
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = unavailable ? DATABASE_UNAVAILABLE.message : statusText(status);
  if (unavailable) res.set("Retry-After", String(DATABASE_UNAVAILABLE.retryAfterSeconds));
  res.status(status);
  if (req.path === "/api" || req.path.startsWith("/api/")) res.json({ error: text });
  else res.type("text/plain").send(text);
};
