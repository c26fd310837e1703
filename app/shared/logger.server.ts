// Structured JSON logs (pino), one line per event, on stdout
// (docs/decisions/0034-structured-logs-request-ids-and-health.md). Code logs through `log()`:
// inside a request it is that request's logger, so every line carries its `reqId`.
import { AsyncLocalStorage } from "node:async_hooks";
import pino, { type DestinationStream, type Logger } from "pino";

export type { Logger };
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function create(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      timestamp: () => `,"time":"${isoNow()}"`,
      serializers: { err: pino.stdSerializers.err },
    },
    destination ?? pino.destination({ sync: true }),
  );
}

/** The ISO time of the current millisecond, made once per millisecond (many lines share one). */
let lastMs = 0;
let lastIso = new Date(0).toISOString();
function isoNow(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastIso = new Date(now).toISOString();
  }
  return lastIso;
}

// Before configureLogging() (tests, tools) the level comes straight from LOG_LEVEL.
let root = create(
  (LOG_LEVELS as readonly string[]).includes(process.env.LOG_LEVEL ?? "")
    ? (process.env.LOG_LEVEL as LogLevel)
    : "info",
);
/** A request's id, and its logger once something has logged (most requests never do). */
interface RequestScope {
  reqId: string;
  logger?: Logger;
  /** Where this request's audit events are stored (events.server.ts), for its own site. */
  audit?: unknown;
}
// One per process, even where the server's code and the built routes are two copies of this
// module (tests run the server from source beside the build): a request's scope reaches both.
const SCOPE_KEY = Symbol.for("leasing-site.request-scope");
const scopes = globalThis as { [SCOPE_KEY]?: AsyncLocalStorage<RequestScope> };
scopes[SCOPE_KEY] ??= new AsyncLocalStorage<RequestScope>();
const requestScope = scopes[SCOPE_KEY];

/**
 * Sets the process's logger once the environment is read (or a test's capturing stream);
 * returns the one it replaces.
 */
export function configureLogging(level: LogLevel, destination?: DestinationStream): Logger {
  return replaceRootLogger(create(level, destination ?? batchedStdout()));
}

/**
 * The server's stdout: the lines of one turn of the event loop go out in one write, made when
 * the turn ends (and at exit), instead of a write per line. Under load that is one write for
 * many requests' access lines; an idle server still writes each line at once
 * (docs/decisions/0034-structured-logs-request-ids-and-health.md, Figures).
 */
function batchedStdout(): DestinationStream {
  // Synchronous: a line handed over is written before the process can exit.
  const stdout = pino.destination({ sync: true });
  let lines: string[] = [];
  const flush = () => {
    if (lines.length === 0) return;
    const text = lines.join("");
    lines = [];
    stdout.write(text);
  };
  process.once("exit", flush);
  return {
    write(line: string) {
      if (lines.push(line) === 1) setImmediate(flush);
    },
  };
}

/** Puts `logger` in place as the process's logger; returns the one it replaces. */
export function replaceRootLogger(logger: Logger): Logger {
  const previous = root;
  root = logger;
  return previous;
}

/** The process's logger, for lines that belong to no request. */
export function rootLogger(): Logger {
  return root;
}

/** The current request's logger (its lines carry `reqId`), else the process's logger. */
export function log(): Logger {
  const scope = requestScope.getStore();
  if (!scope) return root;
  // Made on first use: a child logger for every request was a sixth of a kept page's CPU
  // (docs/decisions/0034-structured-logs-request-ids-and-health.md, Figures).
  scope.logger ??= root.child({ reqId: scope.reqId });
  return scope.logger;
}

/** Runs `fn` as request `reqId`: log() gives lines carrying it, through every await that follows. */
export function withRequestId<T>(reqId: string, fn: () => T, audit?: unknown): T {
  return requestScope.run({ reqId, audit }, fn);
}

/** The current request's audit store (withRequestId), if any. */
export function requestAudit(): unknown {
  return requestScope.getStore()?.audit;
}

/**
 * Writes one line exactly as `logger[level](object, msg)` would, from the object's JSON members
 * (`"a":1,"b":"x"`, values already JSON): the access line is written for every request, and
 * pino's generic serialising cost more than the rest of a kept page's answer
 * (docs/decisions/0034-structured-logs-request-ids-and-health.md, Figures). The caller checks
 * the level is enabled.
 */
export function writeJsonLine(logger: Logger, level: LogLevel, members: string, msg: string) {
  const internals = logger as unknown as Record<symbol, unknown>;
  const stream = internals[pino.symbols.streamSym] as DestinationStream;
  const bindings = internals[pino.symbols.chindingsSym] as string;
  const number = logger.levels.values[level];
  stream.write(
    `{"level":${number},"time":"${isoNow()}"${bindings},${members},"msg":${JSON.stringify(msg)}}\n`,
  );
}
