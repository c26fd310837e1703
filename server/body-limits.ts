// Every request body has a stated byte limit, by route, in the one table below
// (docs/decisions/0072-request-body-limits.md; nginx's per-location limits in
// deploy/nginx-leasing-site.conf match it). Before any reader runs:
// - a compressed body (Content-Encoding) is refused with 415: no reader decodes one, and a
//   decoded body could be a thousand times larger than what was sent;
// - bodies over their limit by Content-Length are refused at once with 413 and the limit's
//   message, without a page; only the 'Documents' step answers on its form (a person's file
//   too big), without reading the body; a page's form sent chunked (no browser does) is 411;
// - every body, chunked ones too, is counted as its bytes arrive from the socket: at the first
//   chunk past the limit the body ends there for its reader (which counts too and refuses), the
//   socket is read no further, and the connection closes after the answer.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type express from "express";
import { CSV_MAX_BYTES } from "~/domain/listing-csv";
import { DOCUMENT_ERRORS, UPLOAD_REQUEST_BYTES } from "~/features/applications/index.server";
import { tooLargeInTotal, UPLOAD_LIMITS } from "~/features/images/index.server";
import { csvTooLarge } from "~/features/listings/index.server";
import { HttpError } from "~/shared/http-error.server";
import { FORM_BODY_BYTES, FORM_TOO_LARGE, JSON_BODY_BYTES } from "~/shared/request-body.server";

export interface BodyLimit {
  /** Bytes of the body as sent. */
  bytes: number;
  /** The 413's message: what happened and what to do. */
  message: string;
  /** A page's action answers the refusal itself, on its form; this layer only caps reading. */
  answeredByPage?: boolean;
}

interface Rule {
  /** The path's start, lower-cased (React Router matches page paths whatever their case). */
  prefix: string;
  multipart?: boolean;
  limit: BodyLimit;
}

const MB = 1024 * 1024;

/** The first rule whose prefix (and, if set, multipart) matches applies; else FORM_LIMIT. */
export const BODY_LIMITS: readonly Rule[] = [
  // Staff's CSV import and its dry run: the file is the body.
  {
    prefix: "/api/listings-csv/",
    limit: { bytes: CSV_MAX_BYTES, message: csvTooLarge().message },
  },
  // Photo uploads (listings, site settings): the files' total, and every field at its limit.
  {
    prefix: "/api/",
    multipart: true,
    limit: {
      bytes:
        UPLOAD_LIMITS.maxTotalBytes + UPLOAD_LIMITS.maxFields * UPLOAD_LIMITS.maxFieldBytes + MB,
      message: tooLargeInTotal().message,
    },
  },
  { prefix: "/api/", limit: { bytes: JSON_BODY_BYTES, message: "The request is too large." } },
  // The application's 'Documents' step: one document and the form's few fields.
  {
    prefix: "/rental-application/continue",
    multipart: true,
    limit: { bytes: UPLOAD_REQUEST_BYTES, message: DOCUMENT_ERRORS.tooBig, answeredByPage: true },
  },
];

/** Every other body: a page's form (or the sign-in's), small. */
export const FORM_LIMIT: BodyLimit = { bytes: FORM_BODY_BYTES, message: FORM_TOO_LARGE };

/**
 * Browsers send every form with its length; a page's form sent chunked comes from a script, and
 * is refused before anything is read or rendered (docs/decisions/0072-request-body-limits.md).
 */
export const LENGTH_REQUIRED =
  "The form was sent without its length (Content-Length). Send it again from the page.";

export const COMPRESSED_BODY =
  "The request body must be sent uncompressed (no Content-Encoding). Send it again without compression.";

export function bodyLimitOf(
  path: string,
  contentType: string | undefined,
  rules: readonly Rule[] = BODY_LIMITS,
): BodyLimit {
  const lower = path.toLowerCase();
  const multipart = (contentType ?? "").toLowerCase().startsWith("multipart/");
  const rule = rules.find((r) => lower.startsWith(r.prefix) && (!r.multipart || multipart));
  return rule?.limit ?? FORM_LIMIT;
}

/** How long a refused request's connection stays open, unread, so the client reads the answer. */
const CLOSE_AFTER_REFUSAL_MS = 1000;

export function bodyLimits(rules: readonly Rule[] = BODY_LIMITS): express.RequestHandler {
  return (req, res, next) => {
    const declared = req.headers["content-length"];
    const chunked = req.headers["transfer-encoding"] !== undefined;
    if (!chunked && (declared === undefined || declared === "0")) return next();
    const encoding = (req.headers["content-encoding"] ?? "identity").trim().toLowerCase();
    if (encoding !== "identity" && encoding !== "") {
      stopReading(req, res);
      res.set("Accept-Encoding", "identity");
      return next(new HttpError(415, COMPRESSED_BODY));
    }
    const limit = bodyLimitOf(req.path, req.headers["content-type"], rules);
    const api = req.path === "/api" || req.path.startsWith("/api/");
    if (chunked && !api) {
      stopReading(req, res);
      return next(new HttpError(411, LENGTH_REQUIRED));
    }
    // Refused as plain text, no page rendered, unless the page shows it on its form (a document
    // a person picked that is too big): a kept page is not slowed by a flood of refusals.
    if (!limit.answeredByPage && !chunked && Number(declared) > limit.bytes) {
      stopReading(req, res);
      return next(new HttpError(413, limit.message));
    }
    capBody(req, res, limit.bytes);
    next();
  };
}

/**
 * Counts the body's bytes as Node's HTTP parser hands them to the request (its `push`), before
 * any reader, so a reader that buffers is still bounded. Past the limit the chunk that crossed
 * it is passed on (the reader's own count then refuses) and the body ends; nothing more is
 * passed on, and returning false stops reading the socket.
 */
function capBody(req: IncomingMessage, res: ServerResponse, limit: number) {
  closeGently(req.socket);
  const push = req.push.bind(req);
  // Bytes Node buffered before this ran (the middleware before it may have waited) count too.
  let seen = req.readableLength;
  let capped = false;
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (capped) return false;
    if (chunk === null) return push(null);
    seen += (chunk as Buffer).length;
    if (seen <= limit) return push(chunk, encoding);
    capped = true;
    closeAfterAnswer(req, res);
    push(chunk, encoding);
    // Ended here for its reader. Marked complete first: a request that ends incomplete is
    // destroyed with its socket, and the answer would be lost.
    req.complete = true;
    push(null);
    return false;
  };
}

/**
 * Reads no more of the request: the answer goes out as soon as it is ready (saying the
 * connection closes), then the connection is half-closed and, a moment later, closed.
 */
function stopReading(req: IncomingMessage, res: ServerResponse) {
  req.pause();
  // Counts as taken by a reader (at most Node's small buffer is read): after the answer, Node
  // would otherwise read the rest and throw it away until the connection closes.
  req.read(0);
  closeAfterAnswer(req, res);
}

function closeAfterAnswer(req: IncomingMessage, res: ServerResponse) {
  if (!res.headersSent) res.setHeader("Connection", "close");
  const socket = req.socket;
  closeGently(socket);
  res.once("finish", () => socket.destroySoon());
  res.once("close", () => {
    if (!res.writableFinished) socket.destroy();
  });
}

/**
 * Closing a socket with unread bytes resets the connection, and the client may lose the answer
 * (seen here as EPIPE and ECONNRESET before the answer): Node's own close after a
 * "Connection: close" answer (destroySoon) only half-closes this one, and the socket is closed
 * a moment later.
 */
function closeGently(socket: Socket) {
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), CLOSE_AFTER_REFUSAL_MS).unref();
  };
}
