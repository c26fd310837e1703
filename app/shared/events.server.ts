// Audit events: one `event` log line for each thing staff or operators will want to find later
// (who did what, with the request id through log()). docs/decisions/0034-structured-logs-request-ids-and-health.md.
import { log } from "./logger.server";

export type AuditEvent =
  | "sign-in"
  | "sign-in refused"
  | "admin granted"
  | "admin revoked"
  | "staff role changed"
  | "settings saved"
  | "listing erased"
  | "photo erased"
  | "listings exported"
  | "listings imported"
  | "backup"
  | "restore";

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
}
