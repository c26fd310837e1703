// Audit events: one `event` log line for each thing staff or operators will want to find later
// (who did what, with the request id through log()). docs/decisions/0034-structured-logs-request-ids-and-health.md.
import { log, requestAudit } from "./logger.server";

export type AuditEvent =
  | "sign-in"
  | "sign-in refused"
  | "admin granted"
  | "admin revoked"
  | "staff role changed"
  | "staff listings changed"
  | "signed out everywhere"
  | "passkey added"
  | "passkey removed"
  | "settings saved"
  | "listing erased"
  | "photo erased"
  | "listings exported"
  | "listings imported"
  | "backup"
  | "restore"
  | "listing added"
  | "listing saved"
  | "listing deleted"
  | "listing restored"
  | "availability changed"
  | "lead status changed"
  | "person erased"
  | "application status changed"
  | "application downloaded"
  | "showing hours saved"
  | "showing status changed";

/** Where audit events are also stored ('Activity', the activity feature). */
export type AuditSink = (
  event: AuditEvent,
  who: string | null,
  details: Record<string, unknown>,
) => void;
// Shared by every copy of this module in the process, as the request scope is (logger.server.ts).
const SINK_KEY = Symbol.for("leasing-site.audit-sink");
const shared = globalThis as { [SINK_KEY]?: AuditSink | null };

/**
 * The store for events outside any request (the scheduler, the CLI over the control socket):
 * set by the server process; each request's own comes with it (withRequestId).
 */
export function setAuditSink(next: AuditSink | null): void {
  shared[SINK_KEY] = next;
}

/**
 * Writes `{"event": event, "who": who, ...details}` at info level. `who` is the acting user's
 * e-mail (or subject), `"cli"` for the command line, or null when nobody is known.
 */
export function logEvent(
  event: AuditEvent,
  who: string | null,
  details: Record<string, unknown> = {},
): void {
  log().info({ ...details, event, who }, event);
  const sink = (requestAudit() as AuditSink | undefined) ?? shared[SINK_KEY];
  sink?.(event, who, details);
}
