// Test helper: the JSON lines the app logs (app/shared/logger.server.ts), caught in memory.
// Start capturing before the app is created: request loggers are children of the logger of then.
import { configureLogging, type LogLevel, replaceRootLogger } from "~/shared/logger.server";

export interface LogLine {
  level: number;
  msg?: string;
  reqId?: string;
  err?: { message: string; stack?: string };
  req?: { id?: string; method?: string; url?: string; remoteAddress?: string };
  res?: { statusCode?: number };
  [key: string]: unknown;
}

/** pino's level numbers. */
export const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 } as const;

export function captureLogs(level: LogLevel = "debug") {
  const lines: LogLine[] = [];
  const previous = configureLogging(level, {
    write(chunk: string) {
      for (const line of chunk.split("\n")) if (line) lines.push(JSON.parse(line) as LogLine);
    },
  });
  return {
    lines,
    /** Lines at `level` (a pino level number), optionally whose message includes `text`. */
    at: (lvl: number, text?: string) =>
      lines.filter((l) => l.level === lvl && (text === undefined || l.msg?.includes(text))),
    clear: () => void lines.splice(0),
    restore: () => void replaceRootLogger(previous),
  };
}
