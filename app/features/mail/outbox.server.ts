// The outbox (docs/decisions/0062-outbox-for-outgoing-mail.md): messages are written in the
// transaction of what caused them, and taken, sent and recorded by outbox-worker.server.ts.
import type { Queryable } from "~/shared/db.server";

export interface OutgoingMail {
  /** What caused it ('inquiry', 'reply', ...), shown to staff in the outbox. */
  kind: string;
  to: string[];
  replyTo?: string | null;
  subject: string;
  /** Plain text. */
  body: string;
  /** An iCalendar invitation (METHOD:REQUEST) sent with it. */
  calendar?: string | null;
}

export interface OutboxMessage extends OutgoingMail {
  id: number;
  createdAt: string;
  state: "waiting" | "sent" | "failed";
  attempts: number;
  lastError: string | null;
  sentAt: string | null;
}

/** How many times a message is tried before it is given up as failed. */
export const MAX_ATTEMPTS = 8;
/** How long a worker may take to send a message before another may take it again. */
export const LEASE_SECONDS = 120;

/** The wait before attempt n+1 (after n failed): 1 min, 2, 4, ... at most 4 hours. */
export function backoffSeconds(failedAttempts: number): number {
  return Math.min(60 * 2 ** Math.max(0, failedAttempts - 1), 4 * 3600);
}

/** Writes a message to send; call it inside the transaction of what caused it. */
export async function enqueueMail(tx: Queryable, mail: OutgoingMail): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO outbox (kind, to_addresses, reply_to, subject, body, calendar)
     VALUES ($1, $2::text[], $3, $4, $5, $6) RETURNING id::int AS id`,
    [mail.kind, mail.to, mail.replyTo ?? null, mail.subject, mail.body, mail.calendar ?? null],
  );
  // Wakes the workers of every instance (they also look every few seconds).
  await tx.query("SELECT pg_notify('outbox', '')");
  return row?.id ?? 0;
}

const MESSAGE_COLUMNS = `id::int AS id, created_at AS "createdAt", kind, to_addresses AS "to",
  reply_to AS "replyTo", subject, body, calendar, state, attempts, last_error AS "lastError",
  sent_at AS "sentAt"`;

/**
 * Takes up to `limit` due messages for this worker: each is leased for LEASE_SECONDS, so no
 * other worker (of this or another instance) takes it meanwhile. A short transaction: the
 * sending happens after it, so a slow mail server never holds a database connection.
 */
export async function leaseDue(
  db: { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> },
  limit: number,
): Promise<OutboxMessage[]> {
  return db.transaction((tx) =>
    tx.query<OutboxMessage>(
      `UPDATE outbox SET lease_until = now() + make_interval(secs => $2), attempts = attempts + 1
       WHERE id IN (
         SELECT id FROM outbox
         WHERE state = 'waiting' AND next_attempt_at <= now()
           AND (lease_until IS NULL OR lease_until < now())
         ORDER BY next_attempt_at, id
         LIMIT $1
         FOR UPDATE SKIP LOCKED)
       RETURNING ${MESSAGE_COLUMNS}`,
      [limit, LEASE_SECONDS],
    ),
  );
}

export async function markSent(db: Queryable, id: number): Promise<void> {
  await db.query(
    `UPDATE outbox SET state = 'sent', sent_at = now(), lease_until = NULL, last_error = NULL
     WHERE id = $1`,
    [id],
  );
}

/** Records a failed attempt: due again after the backoff, or failed for good after the last. */
export async function markAttemptFailed(
  db: Queryable,
  message: Pick<OutboxMessage, "id" | "attempts">,
  reason: string,
): Promise<"waiting" | "failed"> {
  const state = message.attempts >= MAX_ATTEMPTS ? "failed" : "waiting";
  await db.query(
    `UPDATE outbox SET state = $2, last_error = $3, lease_until = NULL,
       next_attempt_at = now() + make_interval(secs => $4)
     WHERE id = $1`,
    [message.id, state, reason.slice(0, 500), backoffSeconds(message.attempts)],
  );
  return state;
}

/** The outbox as staff read it: newest first. */
export async function listOutbox(
  db: Queryable,
  { limit = 50, offset = 0 }: { limit?: number; offset?: number } = {},
): Promise<{ messages: OutboxMessage[]; total: number }> {
  const messages = await db.query<OutboxMessage>(
    `SELECT ${MESSAGE_COLUMNS} FROM outbox ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`,
    [limit, offset],
  );
  const [count] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox");
  return { messages, total: count?.n ?? 0 };
}

/** 'Sent', 'Waiting' or 'Failed: {reason}' (issue 21). */
export function stateLabel(message: Pick<OutboxMessage, "state" | "lastError">): string {
  if (message.state === "sent") return "Sent";
  if (message.state === "failed") return `Failed: ${message.lastError ?? "unknown reason"}`;
  return "Waiting";
}
