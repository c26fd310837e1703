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
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: pino.stdSerializers.err },
    },
    destination ?? pino.destination({ sync: true }),
  );
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
}
const requestScope = new AsyncLocalStorage<RequestScope>();

/**
 * Sets the process's logger once the environment is read (or a test's capturing stream);
 * returns the one it replaces.
 */
export function configureLogging(level: LogLevel, destination?: DestinationStream): Logger {
  return replaceRootLogger(create(level, destination));
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
export function withRequestId<T>(reqId: string, fn: () => T): T {
  return requestScope.run({ reqId }, fn);
}
