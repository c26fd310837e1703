// Timeouts of the HTTP server, so slow or idle clients cannot hold connections indefinitely
// (slowloris). Live streams are unaffected: they send a heartbeat every 25 s.
import type { Server } from "node:http";

export const HTTP_TIMEOUTS = {
  /** The request line and headers must arrive within this (a browser sends them at once). */
  headersMs: 10_000,
  /** The whole request, body included: room for a large photo upload on a slow uplink. */
  requestMs: 300_000,
  /** An idle kept-alive connection is closed after this. */
  keepAliveMs: 5_000,
  /** A connection on which nothing moves either way for this long is closed (longer than any
   * legitimate pause, such as the server processing a batch of photos before it answers). */
  idleSocketMs: 300_000,
  /** How often Node checks the headers and request limits (its default, 30 s, would add up to
   * 30 s to each). */
  checkIntervalMs: 2_000,
} as const;

/** Call right after `listen()` (before it reports listening, so the check interval applies). */
export function applyHttpTimeouts<T extends Server>(server: T, timeouts = HTTP_TIMEOUTS): T {
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  server.keepAliveTimeout = timeouts.keepAliveMs;
  server.setTimeout(timeouts.idleSocketMs);
  // Read by Node when the server starts listening (not in the type definitions).
  (server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    timeouts.checkIntervalMs;
  return server;
}
