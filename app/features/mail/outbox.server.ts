// The outbox (docs/decisions/0062-outbox-for-outgoing-mail.md): messages are written in the
// transaction of what caused them, and taken, sent and recorded by outbox-worker.server.ts.
import { createHash } from "node:crypto";
import type { Queryable } from "~/shared/db.server";
import { log } from "~/shared/logger.server";

/**
 * Caps on mail to an address nobody has confirmed (docs/behaviour.md §26): per recipient a day
 * (UNCONFIRMED_MAIL_PER_ADDRESS_PER_DAY) and in all an hour (UNCONFIRMED_MAIL_PER_HOUR).
 */
export interface UnconfirmedMailCaps {
  perAddressPerDay: number;
  perHour: number;
}
export const DEFAULT_UNCONFIRMED_CAPS: UnconfirmedMailCaps = { perAddressPerDay: 5, perHour: 100 };

/** How the outbox and the log name a recipient of capped mail: never the address itself. */
export const recipientHash = (address: string) =>
  createHash("sha256").update(address.trim().toLowerCase()).digest("hex");

/** Taken for the count and the insert of capped mail, so that concurrent writes count each other. */
const UNCONFIRMED_LOCK = 8142031;

export interface OutgoingMail {
  /** What caused it ('inquiry', 'reply', ...), shown to staff in the outbox. */
  kind: string;
  /** The record it belongs to ('lead:42'): erased with it (eraseMailOf). */
  ref?: string | null;
  to: string[];
  replyTo?: string | null;
  subject: string;
  /** Plain text. */
  body: string;
  /** An iCalendar invitation (METHOD:REQUEST) sent with it. */
  calendar?: string | null;
  /**
   * One-click unsubscribe (RFC 8058): sent as `List-Unsubscribe: <url>` with
   * `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (docs/behaviour.md §31).
   */
  unsubscribeUrl?: string | null;
  /**
   * Sent to one address nobody has confirmed: fixed text only (nothing the sender typed), and
   * refused beyond these caps (enqueueMail then returns null).
   */
  unconfirmed?: UnconfirmedMailCaps;
  /**
   * Private links, sealed by their feature (docs/decisions/0074): the body holds `{{link:n}}`
   * for the n-th, put in only as the message is sent (the worker's `openLinks`).
   */
  sealedLinks?: Buffer | null;
}

/** Puts the opened links in place of their `{{link:n}}` in a body, for sending only. */
export function withLinks(body: string, links: readonly string[]): string {
  return body.replace(/\{\{link:(\d+)\}\}/g, (whole, n: string) => links[Number(n)] ?? whole);
}

/** Placeholder of the n-th sealed link in a body. */
export const linkPlaceholder = (n: number) => `{{link:${n}}}`;

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
/**
 * How long a worker may take to send one message before another may take it again: well above
 * the mailer's own time-outs (mailer.server.ts: 15 s to connect and greet, 30 s idle).
 */
export const LEASE_SECONDS = 120;

/** The wait before attempt n+1 (after n failed): 1 min, 2, 4, ... at most 4 hours. */
export function backoffSeconds(failedAttempts: number): number {
  return Math.min(60 * 2 ** Math.max(0, failedAttempts - 1), 4 * 3600);
}

/**
 * Writes a message to send; call it inside the transaction of what caused it. Mail to an
 * unconfirmed address over its caps is not written: null, and a log line naming the
 * recipient's hash.
 */
export async function enqueueMail(tx: Queryable, mail: OutgoingMail): Promise<number | null> {
  let hash: string | null = null;
  if (mail.unconfirmed) {
    if (mail.to.length !== 1) throw new Error("unconfirmed mail goes to one address");
    hash = recipientHash(mail.to[0] as string);
    // Held to the end of the caller's transaction: the count below sees every earlier one.
    await tx.query("SELECT pg_advisory_xact_lock($1)", [UNCONFIRMED_LOCK]);
    const [count] = await tx.query<{ day: number; hour: number }>(
      `SELECT count(*) FILTER (WHERE recipient_hash = $1)::int AS day,
         count(*) FILTER (WHERE created_at > now() - interval '1 hour')::int AS hour
       FROM outbox WHERE recipient_hash IS NOT NULL AND created_at > now() - interval '1 day'`,
      [hash],
    );
    const cap =
      (count?.day ?? 0) >= mail.unconfirmed.perAddressPerDay
        ? "per address a day"
        : (count?.hour ?? 0) >= mail.unconfirmed.perHour
          ? "an hour"
          : null;
    if (cap) {
      log().warn(
        { event: "unconfirmed mail refused", kind: mail.kind, recipient: hash, cap },
        `Mail to an unconfirmed address refused: over its cap ${cap}`,
      );
      return null;
    }
  }
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO outbox (kind, to_addresses, reply_to, subject, body, calendar, ref, unsubscribe_url,
       recipient_hash, sealed_links)
     VALUES ($1, $2::text[], $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id::int AS id`,
    [
      mail.kind,
      mail.to,
      mail.replyTo ?? null,
      mail.subject,
      mail.body,
      mail.calendar ?? null,
      mail.ref ?? null,
      mail.unsubscribeUrl ?? null,
      hash,
      mail.sealedLinks ?? null,
    ],
  );
  // Wakes the workers of every instance (they also look every few seconds).
  await tx.query("SELECT pg_notify('outbox', '')");
  log().debug({ outboxId: row?.id, kind: mail.kind }, "Mail queued");
  return row?.id ?? 0;
}

const MESSAGE_COLUMNS = `id::int AS id, created_at AS "createdAt", kind, to_addresses AS "to",
  reply_to AS "replyTo", subject, body, calendar, unsubscribe_url AS "unsubscribeUrl", state, attempts, last_error AS "lastError",
  sent_at AS "sentAt"`;

/**
 * Takes the next due message for this worker, leased for LEASE_SECONDS, so that no other
 * worker (of this or another instance) takes it meanwhile; its `attempts` after the lease is
 * the lease's token. A short statement: the sending happens after it, so a slow mail server
 * never holds a database connection (the embedded database has only one).
 */
export async function leaseNext(db: Queryable): Promise<OutboxMessage | null> {
  const [message] = await db.query<OutboxMessage>(
    // The choice runs once (MATERIALIZED): inside `WHERE id IN (…)` PostgreSQL may rescan it
    // per row, and each rescan skips the row the last one locked, leasing several at once.
    `WITH next AS MATERIALIZED (
       SELECT id AS next_id FROM outbox
       WHERE state = 'waiting' AND next_attempt_at <= now() AND attempts < $2
         AND (lease_until IS NULL OR lease_until < now())
       ORDER BY next_attempt_at, id
       LIMIT 1
       FOR UPDATE SKIP LOCKED)
     UPDATE outbox SET lease_until = now() + make_interval(secs => $1), attempts = attempts + 1
     FROM next WHERE id = next_id
     RETURNING ${MESSAGE_COLUMNS}, ref, sealed_links AS "sealedLinks"`,
    [LEASE_SECONDS, MAX_ATTEMPTS],
  );
  return message ?? null;
}

/** Records a sent message, if this worker's lease on it still holds. */
export async function markSent(
  db: Queryable,
  message: Pick<OutboxMessage, "id" | "attempts">,
): Promise<void> {
  await db.query(
    `UPDATE outbox SET state = 'sent', sent_at = now(), lease_until = NULL, last_error = NULL,
       sealed_links = NULL
     WHERE id = $1 AND attempts = $2 AND state = 'waiting'`,
    [message.id, message.attempts],
  );
}

/**
 * Records a failed attempt, if this worker's lease still holds: due again after the backoff,
 * or failed for good after the last.
 */
export async function markAttemptFailed(
  db: Queryable,
  message: Pick<OutboxMessage, "id" | "attempts">,
  reason: string,
): Promise<"waiting" | "failed"> {
  const state = message.attempts >= MAX_ATTEMPTS ? "failed" : "waiting";
  await db.query(
    `UPDATE outbox SET state = $2, last_error = $3, lease_until = NULL,
       next_attempt_at = now() + make_interval(secs => $4)
     WHERE id = $1 AND attempts = $5 AND state = 'waiting'`,
    [message.id, state, reason.slice(0, 500), backoffSeconds(message.attempts), message.attempts],
  );
  return state;
}

/**
 * Gives up messages whose last attempt never finished (the server stopped while sending,
 * MAX_ATTEMPTS times): a message that takes the server down with it is not tried forever.
 */
export async function failAbandoned(db: Queryable): Promise<void> {
  await db.query(
    `UPDATE outbox SET state = 'failed', lease_until = NULL,
       last_error = coalesce(last_error, 'sending never finished')
     WHERE state = 'waiting' AND attempts >= $1 AND lease_until < now()`,
    [MAX_ATTEMPTS],
  );
}

/** Deletes every message that belongs to these records (their personal data goes with them). */
export async function eraseMailOf(tx: Queryable, refs: readonly string[]): Promise<number> {
  if (refs.length === 0) return 0;
  const rows = await tx.query("DELETE FROM outbox WHERE ref = ANY($1::text[]) RETURNING id", [
    refs,
  ]);
  return rows.length;
}

/**
 * 'Erase this person': every message to, or to be answered at, this address (any case),
 * whatever record it belongs to (docs/behaviour.md §27).
 */
export async function eraseMailTo(tx: Queryable, email: string): Promise<number> {
  const address = email.trim().toLowerCase();
  if (address === "" || /\p{Cc}/u.test(address)) return 0;
  const rows = await tx.query(
    `DELETE FROM outbox
     WHERE lower(reply_to) = $1 OR EXISTS (SELECT 1 FROM unnest(to_addresses) a WHERE lower(a) = $1)
     RETURNING id`,
    [address],
  );
  return rows.length;
}

/**
 * Retention of the outbox (OUTBOX_RETENTION_DAYS, docs/behaviour.md §26): sent messages that many
 * days after they were sent, failed ones after they were written. Waiting ones stay.
 */
export async function purgeOldMail(
  db: Queryable,
  { days, now = new Date() }: { days: number; now?: Date },
): Promise<number> {
  const rows = await db.query(
    `DELETE FROM outbox WHERE state <> 'waiting' AND coalesce(sent_at, created_at) <= $1
     RETURNING id`,
    [new Date(now.getTime() - days * 86_400_000)],
  );
  return rows.length;
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

/** How many messages wait to be sent and how many failed for good (the 'Status' page). */
export async function outboxCounts(db: Queryable): Promise<{ waiting: number; failed: number }> {
  const [row] = await db.query<{ waiting: number; failed: number }>(
    `SELECT count(*) FILTER (WHERE state = 'waiting')::int AS waiting,
       count(*) FILTER (WHERE state = 'failed')::int AS failed FROM outbox`,
  );
  return { waiting: row?.waiting ?? 0, failed: row?.failed ?? 0 };
}

/** 'Sent', 'Waiting' or 'Failed: {reason}' (docs/behaviour.md §26). */
export function stateLabel(message: Pick<OutboxMessage, "state" | "lastError">): string {
  if (message.state === "sent") return "Sent";
  if (message.state === "failed") return `Failed: ${message.lastError ?? "unknown reason"}`;
  return "Waiting";
}
