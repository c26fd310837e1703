// One JSON access line per request, and the request id every line about the request carries
// (docs/decisions/0034-structured-logs-request-ids-and-health.md).
import { randomUUID } from "node:crypto";
import type http from "node:http";
import { pinoHttp } from "pino-http";
import { type Logger, rootLogger } from "~/shared/logger.server";

/** What a proxy's id may look like (nginx's $request_id is 32 hex digits); else we make one. */
const PROXY_ID = /^[\w.:@+=/-]{1,128}$/;
const PROBES = new Set(["/healthz", "/readyz"]);

export type TrustProxyFn = (address: string, hop: number) => boolean;

/**
 * Sets `req.id` and `req.log` and answers with `X-Request-Id`: the proxy's `X-Request-Id` when
 * the connection comes from a trusted proxy (TRUST_PROXY), else a new random UUID, so a client
 * cannot plant ids in the logs. Logs the access line when the response ends (or is aborted).
 */
export function requestLog(trustProxy: TrustProxyFn) {
  const middleware = pinoHttp({
    logger: rootLogger(),
    quietReqLogger: true,
    genReqId(req, res) {
      const given = req.headers["x-request-id"];
      const peer = req.socket.remoteAddress;
      const id =
        typeof given === "string" && PROXY_ID.test(given) && peer && trustProxy(peer, 0)
          ? given
          : randomUUID();
      res.setHeader("X-Request-Id", id);
      return id;
    },
    serializers: {
      req: (req: { id: unknown; method: string; url: string; remoteAddress?: string }) => ({
        id: req.id,
        method: req.method,
        url: req.url,
        remoteAddress: req.remoteAddress,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    // Load balancers' probes every few seconds would drown the log: debug unless they fail.
    customLogLevel(req, res, error) {
      if (error || res.statusCode >= 500) return PROBES.has(pathOf(req)) ? "warn" : "error";
      return PROBES.has(pathOf(req)) ? "debug" : "info";
    },
    // A 5xx without an error object: pino-http makes one up ("failed with status code …",
    // with a stack of its own); the status says it all, and the real error has its own line.
    customErrorObject(_req, res, error, fields) {
      const made = `failed with status code ${res.statusCode}`;
      if (error.message !== made) return fields;
      const { err: _made, ...rest } = fields as Record<string, unknown>;
      return rest;
    },
    customSuccessMessage: (req, res, ms) =>
      `${req.method} ${urlOf(req)} ${res.statusCode} ${ms} ms`,
    customErrorMessage: (req, res) => `${req.method} ${urlOf(req)} ${res.statusCode} failed`,
  });
  return (req: http.IncomingMessage, res: http.ServerResponse): Logger => {
    middleware(req, res);
    return (req as http.IncomingMessage & { log: Logger }).log;
  };
}

/** The URL as requested (Express's mounted routers shorten `req.url` while they run). */
function urlOf(req: http.IncomingMessage) {
  return (req as http.IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url;
}

function pathOf(req: http.IncomingMessage) {
  const url = urlOf(req) ?? "/";
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

/** The request's id as set by requestLog() (for error bodies and logs). */
export function requestId(req: http.IncomingMessage): string | undefined {
  const id = (req as http.IncomingMessage & { id?: unknown }).id;
  return typeof id === "string" ? id : undefined;
}
