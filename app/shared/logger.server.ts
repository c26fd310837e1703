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
const requestScope = new AsyncLocalStorage<Logger>();

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
  return requestScope.getStore() ?? root;
}

/** Runs `fn` with `logger` as what log() returns, through every await that follows. */
export function withRequestLogger<T>(logger: Logger, fn: () => T): T {
  return requestScope.run(logger, fn);
}
