// One JSON access line per request, and the request id every line about the request carries
// (docs/decisions/0034-structured-logs-request-ids-and-health.md). Written by hand rather than
// with pino-http: this runs for every kept page, and pino-http's two child loggers per request
// cost more than the rest of the answer (0034, Figures).
import { randomUUID } from "node:crypto";
import type http from "node:http";
import proxyaddr from "proxy-addr";
import { rootLogger, writeJsonLine } from "~/shared/logger.server";
import { redactUrl } from "~/shared/redact-url";
import { isRefusalByDesign } from "~/shared/refusal-by-design.server";

/** What a proxy's id may look like (nginx's $request_id is 32 hex digits); else we make one. */
const PROXY_ID = /^[\w.:@+=/-]{1,128}$/;
const PROBES = new Set(["/healthz", "/readyz"]);

export type TrustProxyFn = (address: string, hop: number) => boolean;

/**
 * Sets `req.id` and answers with `X-Request-Id`: the proxy's `X-Request-Id` when the connection
 * comes from a trusted proxy (TRUST_PROXY), else a new random UUID, so a client cannot plant ids
 * in the logs. Logs the access line when the response ends (or is aborted); returns the id.
 */
export function requestLog(trustProxy: TrustProxyFn) {
  return (req: http.IncomingMessage, res: http.ServerResponse): string => {
    const given = req.headers["x-request-id"];
    const peer = req.socket.remoteAddress;
    const id =
      typeof given === "string" && PROXY_ID.test(given) && peer && trustProxy(peer, 0)
        ? given
        : randomUUID();
    (req as http.IncomingMessage & { id?: string }).id = id;
    res.setHeader("X-Request-Id", id);
    const start = Date.now();
    const done = (error?: unknown) => {
      res.off("finish", done);
      res.off("close", done);
      res.off("error", done);
      accessLine(req, res, id, Date.now() - start, error, trustProxy);
    };
    res.on("finish", done);
    res.on("close", done);
    res.on("error", done);
    return id;
  };
}

function accessLine(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  id: string,
  responseTime: number,
  error: unknown,
  trustProxy: TrustProxyFn,
) {
  const url = redactUrl(urlOf(req));
  const probe = PROBES.has(pathOf(url));
  // A refusal by design (sign-in not configured) was explained once at start: not an error here.
  const failed = error instanceof Error || (res.statusCode >= 500 && !isRefusalByDesign(res));
  // Load balancers' probes every few seconds would drown the log: debug unless they fail.
  const level = failed ? (probe ? "warn" : "error") : probe ? "debug" : "info";
  const logger = rootLogger();
  if (!logger.isLevelEnabled(level)) return;
  const message = failed
    ? `${req.method} ${url} ${res.statusCode} failed`
    : `${req.method} ${url} ${res.statusCode} ${responseTime} ms`;
  // The line's fields as JSON, made by hand: it is written for every request, and pino's
  // generic serialiser cost more than the rest of a kept page's answer (0034, Figures).
  const remote = clientAddress(req, trustProxy);
  const json = JSON.stringify;
  const members = `"reqId":${json(id)},"req":{"id":${json(id)},"method":${json(req.method)},"url":${json(url)}${
    remote === undefined ? "" : `,"remoteAddress":${json(remote)}`
  }},"res":{"statusCode":${res.statusCode}},"responseTime":${responseTime}`;
  // A thrown error (rare): pino serialises it, its stack and own properties, beside the same fields.
  if (error instanceof Error) logger[level]({ ...JSON.parse(`{${members}}`), err: error }, message);
  else writeJsonLine(logger, level, members, message);
}

/**
 * The client's address as Express's req.ip computes it (this runs before Express, for kept
 * pages too): the peer, or what the trusted proxies (TRUST_PROXY) name in X-Forwarded-For.
 */
function clientAddress(req: http.IncomingMessage, trustProxy: TrustProxyFn): string | undefined {
  const peer = req.socket?.remoteAddress;
  if (peer === undefined || req.headers["x-forwarded-for"] === undefined) return peer;
  return proxyaddr(req, trustProxy);
}

/** The URL as requested (Express's mounted routers shorten `req.url` while they run). */
function urlOf(req: http.IncomingMessage) {
  return (req as http.IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? "/";
}

function pathOf(url: string) {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

/** The request's id as set by requestLog() (for error bodies and logs). */
export function requestId(req: http.IncomingMessage): string | undefined {
  const id = (req as http.IncomingMessage & { id?: unknown }).id;
  return typeof id === "string" ? id : undefined;
}
