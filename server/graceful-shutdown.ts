// SIGTERM/SIGINT (docs/decisions/0035-graceful-shutdown.md): stop accepting connections, let the
// requests in flight finish (an upload being received is completed and stored), end live
// streams with a reconnect hint, close the database, exit; all within SHUTDOWN_TIMEOUT_SECONDS.
import type http from "node:http";
import { rootLogger } from "~/shared/logger.server";

export interface ShutdownParts {
  server: http.Server;
  /** The site: readiness turns 503, answers close their connections, live streams end. */
  site: { beginShutdown(): void };
  /** Closes the live hub, the database and the rest, once no request is left. */
  closeServices(): Promise<void>;
  timeoutMs: number;
}

/** Resolves "clean" when everything closed in time, "forced" when the time limit cut it short. */
export async function shutDown(parts: ShutdownParts): Promise<"clean" | "forced"> {
  const started = Date.now();
  const { server } = parts;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<"forced">((resolve) => {
    timer = setTimeout(() => resolve("forced"), parts.timeoutMs);
  });
  const drained = new Promise<void>((resolve) => server.close(() => resolve()));
  parts.site.beginShutdown();
  // close() drops the connections idle right now; a kept-alive connection whose request ends
  // later becomes idle then, so keep dropping idle ones until none is left.
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  server.closeIdleConnections();
  try {
    const outcome = await Promise.race([drained.then(() => "clean" as const), deadline]);
    if (outcome === "forced") {
      rootLogger().warn(
        `Requests still running after ${parts.timeoutMs / 1000} s: closing their connections`,
      );
      server.closeAllConnections();
    }
    const closed = await Promise.race([
      parts.closeServices().then(() => "clean" as const),
      // The database gets what is left of the limit, and at least a second.
      new Promise<"forced">((resolve) => {
        const left = Math.max(1000, parts.timeoutMs - (Date.now() - started));
        setTimeout(() => resolve("forced"), left).unref();
      }),
    ]);
    return outcome === "clean" && closed === "clean" ? "clean" : "forced";
  } finally {
    clearInterval(sweep);
    clearTimeout(timer);
  }
}

/** Wires SIGTERM and SIGINT to shutDown(), then exits: 0 when clean, 1 when cut short. */
export function shutDownOnSignals(parts: ShutdownParts) {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const log = rootLogger();
    log.info({ signal }, `${signal}: no new connections; waiting for requests in flight`);
    void shutDown(parts).then(
      (outcome) => {
        log.info({ outcome }, outcome === "clean" ? "Stopped" : "Stopped (time limit reached)");
        process.exit(outcome === "clean" ? 0 : 1);
      },
      (error: unknown) => {
        log.error({ err: error }, "Shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}
