// 'Notify me when it's available' and 'E-mail me new matches' (docs/behaviour.md §31): alerts
// kept from a form, confirmed by a link (double opt-in), e-mailed through the outbox when a
// watched property becomes available (the trigger of db/migrations/0015 marks them due) or once
// a day with new listings that match a saved search; every e-mail carries one-click
// unsubscribe (RFC 8058), and unsubscribing deletes the address from every alert.
import { createHash, randomBytes } from "node:crypto";
import { ALERT_CONFIRM_DAYS, DIGEST_MAX_LISTINGS } from "~/domain/listing-alerts";
import { bedBathLine } from "~/domain/listing-format";
import { type Collection, KINDS, listingPath } from "~/domain/listing-kinds";
import { searchFromParams, searchToParams } from "~/domain/listing-search";
import { searchWhere } from "~/features/listings/index.server";
import {
  DEFAULT_UNCONFIRMED_CAPS,
  enqueueMail,
  eraseMailOf,
  type UnconfirmedMailCaps,
} from "~/features/mail/index.server";
import { getSiteContent } from "~/features/site-settings/index.server";
import type { Db, Queryable } from "~/shared/db.server";
import { log } from "~/shared/logger.server";
import { takeScheduledRun } from "~/shared/scheduled-runs.server";
import type { PeriodicJob } from "~/shared/scheduler.server";

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");
/** The stored key of a confirmation link's token, or null when the text cannot be one. */
export const tokenHash = (token: string | null | undefined) =>
  token && TOKEN.test(token) ? hashOf(token) : null;
const newToken = () => randomBytes(32).toString("base64url");

/**
 * A new unsubscribe token for an address: only its SHA-256 is stored (migration 0017), so each
 * e-mail gets its own; any of them deletes the address from every alert.
 */
async function newUnsubscribeToken(tx: Queryable, email: string): Promise<string> {
  const token = newToken();
  await tx.query("INSERT INTO alert_unsubscribe_tokens (token_hash, email) VALUES ($1, $2)", [
    hashOf(token),
    email,
  ]);
  return token;
}

/** Unsubscribe tokens of addresses with no alert left: nothing for them to do. */
async function pruneUnsubscribeTokens(tx: Queryable): Promise<void> {
  await tx.query(
    `DELETE FROM alert_unsubscribe_tokens t
     WHERE NOT EXISTS (SELECT 1 FROM listing_alerts a WHERE lower(a.email) = lower(t.email))`,
  );
}

/** Every e-mail to an address carries this ref: unsubscribing erases its waiting ones. */
const refOf = (email: string) => `alerts:${email.toLowerCase()}`;

export type NewAlert =
  | { kind: "listing"; collection: Collection; listingId: string; address: string }
  | { kind: "search"; collection: Collection; search: URLSearchParams };

export interface AlertMailContext {
  publicUrl: string;
  /** Caps on the confirmation, to an address not confirmed yet (docs/behaviour.md §26). */
  unconfirmed?: UnconfirmedMailCaps;
}

const base = (publicUrl: string) => publicUrl.replace(/\/+$/, "");
const confirmUrl = (ctx: AlertMailContext, token: string) =>
  `${base(ctx.publicUrl)}/alerts/confirm?token=${token}`;
const unsubscribeUrl = (ctx: AlertMailContext, token: string) =>
  `${base(ctx.publicUrl)}/alerts/unsubscribe?token=${token}`;

/** Every alert e-mail ends with the link that deletes the address (as its List-Unsubscribe). */
const unsubscribeLines = (url: string) => [
  "",
  `To stop these e-mails and delete your address from our alerts: ${url}`,
];

/**
 * A search as words for e-mails: 'properties (beds=2, maxRent=2000)'. `typed: false` leaves out
 * the free-text words (`q`), the one part a visitor types: for an address not confirmed yet.
 */
function describeSearch(collection: Collection, search: string, typed = true): string {
  const all = [...new URLSearchParams(search)];
  const params = all
    .filter(([k]) => typed || k !== "q")
    .map(([k, v]) => `${k}=${v}`)
    .join(", ");
  const words = !typed && all.some(([k]) => k === "q") ? " and the words you searched for" : "";
  return `${KINDS[collection].route.slice(1)}${params ? ` (${params})` : ""}${words}`;
}

/** The canonical query of a search, without its order (an alert does not care about order). */
export function alertSearchOf(collection: Collection, params: URLSearchParams): string {
  const search = { ...searchFromParams(collection, params), sort: "newest" as const };
  return searchToParams(collection, search).toString();
}

/**
 * Keeps an alert and writes its confirmation e-mail, in one transaction. Nothing else is sent
 * to the address until the link in that e-mail is opened and confirmed. False, with nothing
 * kept, when the confirmation is over the caps on mail to unconfirmed addresses.
 */
export async function createAlert(
  db: Db,
  email: string,
  alert: NewAlert,
  ctx: AlertMailContext,
): Promise<boolean> {
  const token = newToken();
  const site = await getSiteContent(db);
  const search = alert.kind === "search" ? alertSearchOf(alert.collection, alert.search) : null;
  const refused = new Error("over the caps");
  return db
    .transaction(async (tx) => {
      await tx.query(
        `INSERT INTO listing_alerts
         (kind, email, token_hash, collection, listing_id, search)
       VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          alert.kind,
          email,
          hashOf(token),
          alert.collection,
          alert.kind === "listing" ? alert.listingId : null,
          search,
        ],
      );
      const unsubscribeToken = await newUnsubscribeToken(tx, email);
      // The address is not confirmed yet: fixed text only, never the typed search words nor the
      // typed address (docs/behaviour.md §31); the listing's address is the stored one.
      const what =
        alert.kind === "listing"
          ? `when ${alert.address} is available again`
          : `once a day about new listings that match your search: ${describeSearch(alert.collection, search ?? "", false)}`;
      const id = await enqueueMail(tx, {
        kind: "alert-confirm",
        ref: refOf(email),
        to: [email],
        subject: "Confirm your e-mail alert",
        unconfirmed: ctx.unconfirmed ?? DEFAULT_UNCONFIRMED_CAPS,
        body: [
          `Someone, we hope you, asked ${site.name} to write to this address ${what}.`,
          "",
          "To confirm, open this link and press 'Confirm':",
          confirmUrl(ctx, token),
          "",
          "If it was not you, ignore this e-mail: nothing more will be sent, and the request is deleted after a week.",
          "",
          `— ${site.name}`,
          ...unsubscribeLines(unsubscribeUrl(ctx, unsubscribeToken)),
        ].join("\n"),
        unsubscribeUrl: unsubscribeUrl(ctx, unsubscribeToken),
      });
      // Over the caps: the alert is not kept either (a rollback), and the visitor is told.
      if (id === null) throw refused;
      return true;
    })
    .catch((error) => {
      if (error === refused) return false;
      throw error;
    });
}

/** 'Confirm': true when the link's alert exists (confirmed now or before). */
export async function confirmAlert(db: Queryable, token: string | null): Promise<boolean> {
  const hash = tokenHash(token);
  if (!hash) return false;
  // A property that became available between the request and the confirmation is due at once
  // (the trigger only marks confirmed alerts).
  const rows = await db.query(
    `UPDATE listing_alerts a SET confirmed_at = coalesce(a.confirmed_at, now()),
       due_at = CASE WHEN a.kind = 'listing' AND a.due_at IS NULL AND EXISTS (
         SELECT 1 FROM listings l
         WHERE l.collection = a.collection AND l.id = a.listing_id AND l.currently_available)
       THEN now() ELSE a.due_at END
     WHERE a.token_hash = $1 RETURNING a.id`,
    [hash],
  );
  return rows.length > 0;
}

/**
 * 'Unsubscribe' (the link, or a mail client's one-click POST): deletes every alert of the
 * link's address and the e-mails to it still waiting. False when the link is unknown.
 */
export async function unsubscribe(db: Db, token: string | null): Promise<boolean> {
  if (!token || !TOKEN.test(token)) return false;
  return db.transaction(async (tx) => {
    const [alert] = await tx.query<{ email: string }>(
      `SELECT t.email FROM alert_unsubscribe_tokens t
       WHERE t.token_hash = $1
         AND EXISTS (SELECT 1 FROM listing_alerts a WHERE lower(a.email) = lower(t.email))`,
      [hashOf(token)],
    );
    if (!alert) return false;
    const emails = await tx.query<{ email: string }>(
      "DELETE FROM listing_alerts WHERE lower(email) = lower($1) RETURNING email",
      [alert.email],
    );
    await eraseMailOf(tx, [...new Set(emails.map((e) => refOf(e.email)))]);
    await pruneUnsubscribeTokens(tx);
    log().info({ event: "alerts unsubscribed", count: emails.length }, "alerts unsubscribed");
    return true;
  });
}

/**
 * 'Erase this person' in the inbox (docs/behaviour.md §27): the address's alerts and the alert
 * e-mails to it still waiting, in the caller's transaction. Returns how many alerts went.
 */
export async function eraseAlertsOf(tx: Queryable, email: string): Promise<number> {
  const rows = await tx.query<{ email: string }>(
    "DELETE FROM listing_alerts WHERE lower(email) = lower($1) RETURNING email",
    [email.trim()],
  );
  await eraseMailOf(tx, [refOf(email.trim())]);
  await pruneUnsubscribeTokens(tx);
  return rows.length;
}

/**
 * E-mails the alerts whose property became available (one e-mail each, then the alert is
 * deleted). Several instances may run it: each alert is taken by one (SKIP LOCKED).
 */
export async function sendDueAlerts(db: Db, ctx: AlertMailContext): Promise<number> {
  const site = await getSiteContent(db);
  return db.transaction(async (tx) => {
    const due = await tx.query<{
      id: number;
      email: string;
      collection: Collection;
      listing_id: string;
      address: string;
    }>(
      `SELECT a.id::int AS id, a.email, a.collection, a.listing_id, l.address
       FROM listing_alerts a JOIN listings l ON l.collection = a.collection AND l.id = a.listing_id
       WHERE a.due_at IS NOT NULL AND l.currently_available
       ORDER BY a.id LIMIT 50
       FOR UPDATE OF a SKIP LOCKED`,
    );
    for (const alert of due) {
      // The alert ends with this e-mail. Its unsubscribe link still deletes the address from
      // its other alerts, if it has any (the tokens of an address with none are pruned below).
      const unsubscribeToken = await newUnsubscribeToken(tx, alert.email);
      const url = `${base(ctx.publicUrl)}${listingPath(alert.collection, alert.listing_id)}`;
      await enqueueMail(tx, {
        kind: "alert-available",
        ref: refOf(alert.email),
        to: [alert.email],
        subject: `Now available: ${alert.address}`,
        body: [
          `${alert.address} is available again:`,
          url,
          "",
          "This alert has done its job and is deleted; you will get no more e-mails about this property.",
          "",
          `— ${site.name}`,
          ...unsubscribeLines(unsubscribeUrl(ctx, unsubscribeToken)),
        ].join("\n"),
        unsubscribeUrl: unsubscribeUrl(ctx, unsubscribeToken),
      });
    }
    if (due.length > 0) {
      await tx.query("DELETE FROM listing_alerts WHERE id = ANY($1::bigint[])", [
        due.map((a) => a.id),
      ]);
    }
    // Also those of addresses whose alerts went with a deleted listing.
    await pruneUnsubscribeTokens(tx);
    return due.length;
  });
}

export const DIGEST_EVERY_HOURS = 24;

/**
 * The daily e-mail of new matches: when a day has passed since the last run (of any instance),
 * every confirmed search alert with listings added since its last e-mail gets one. The clock is
 * a parameter (tests fix it). Returns how many e-mails were written, or null when not due.
 */
export async function runSearchDigest(
  db: Db,
  ctx: AlertMailContext & { now: Date },
): Promise<number | null> {
  const site = await getSiteContent(db);
  return db.transaction(async (tx) => {
    if (!(await takeScheduledRun(tx, "search-digest", ctx.now, DIGEST_EVERY_HOURS))) return null;
    const alerts = await tx.query<{
      id: number;
      email: string;
      collection: Collection;
      search: string;
      since: string;
    }>(
      `SELECT id::int AS id, email, collection, search,
         coalesce(last_sent_at, confirmed_at) AS since
       FROM listing_alerts
       WHERE kind = 'search' AND confirmed_at IS NOT NULL AND confirmed_at <= $1
       ORDER BY id`,
      [ctx.now.toISOString()],
    );
    let sent = 0;
    for (const alert of alerts) {
      const search = searchFromParams(alert.collection, new URLSearchParams(alert.search));
      const { where, params } = searchWhere(alert.collection, search);
      const n = params.length;
      const found = await tx.query<{
        id: string;
        address: string;
        bedrooms: number | null;
        bathrooms: number | null;
      }>(
        `SELECT id, address, bedrooms, bathrooms FROM listings
         WHERE ${where} AND created_at > $${n + 1} AND created_at <= $${n + 2}
         ORDER BY created_at DESC, id LIMIT ${DIGEST_MAX_LISTINGS + 1}`,
        [...params, new Date(alert.since).toISOString(), ctx.now.toISOString()],
      );
      if (found.length === 0) continue;
      await tx.query("UPDATE listing_alerts SET last_sent_at = $2 WHERE id = $1", [
        alert.id,
        ctx.now.toISOString(),
      ]);
      const shown = found.slice(0, DIGEST_MAX_LISTINGS);
      const unsubscribeToken = await newUnsubscribeToken(tx, alert.email);
      const listUrl = `${base(ctx.publicUrl)}${KINDS[alert.collection].route}${alert.search ? `?${alert.search}` : ""}`;
      await enqueueMail(tx, {
        kind: "alert-matches",
        ref: refOf(alert.email),
        to: [alert.email],
        subject:
          found.length === 1
            ? "1 new listing matches your search"
            : `${found.length > DIGEST_MAX_LISTINGS ? `${DIGEST_MAX_LISTINGS}+` : found.length} new listings match your search`,
        body: [
          `New since our last e-mail, matching your search (${describeSearch(alert.collection, alert.search)}):`,
          "",
          ...shown.map((l) => {
            const facts = bedBathLine(l.bedrooms, l.bathrooms);
            return `- ${l.address}${facts ? ` (${facts})` : ""}: ${base(ctx.publicUrl)}${listingPath(alert.collection, l.id)}`;
          }),
          ...(found.length > shown.length ? ["", `More on the site: ${listUrl}`] : []),
          "",
          `The whole search: ${listUrl}`,
          "",
          `— ${site.name}`,
          ...unsubscribeLines(unsubscribeUrl(ctx, unsubscribeToken)),
        ].join("\n"),
        unsubscribeUrl: unsubscribeUrl(ctx, unsubscribeToken),
      });
      sent++;
    }
    return sent;
  });
}

/** Alerts never confirmed are deleted ALERT_CONFIRM_DAYS after they were asked for. */
export async function purgeUnconfirmedAlerts(db: Queryable, now = new Date()): Promise<number> {
  const rows = await db.query(
    `DELETE FROM listing_alerts
     WHERE confirmed_at IS NULL AND created_at < $1::timestamptz - make_interval(days => $2)
     RETURNING id`,
    [now.toISOString(), ALERT_CONFIRM_DAYS],
  );
  await pruneUnsubscribeTokens(db);
  return rows.length;
}

/** Due 'Notify me' e-mails, every few seconds (docs/behaviour.md §31). */
export function dueAlertsJob(db: Db, ctx: AlertMailContext): PeriodicJob {
  return {
    name: "alerts.due",
    everySeconds: 3,
    run: async () => {
      await sendDueAlerts(db, ctx);
      return undefined;
    },
  };
}

/** The daily digest of new matches when due, and the purge of unconfirmed alerts (hourly). */
export function alertDigestJob(db: Db, ctx: AlertMailContext): PeriodicJob {
  return {
    name: "alerts.digest",
    everySeconds: 3600,
    run: async () => {
      await runSearchDigest(db, { ...ctx, now: new Date() });
      await purgeUnconfirmedAlerts(db);
      return undefined;
    },
  };
}
