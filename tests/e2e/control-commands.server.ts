import type { ParsedMail } from "mailparser";
// What browser tests may ask the test server to do with its database: the app's own queries and
// writes, called in the process that owns the database (PGlite is one process). The tests reach
// them through control.ts, typed by this module; nothing here re-types the app's SQL.

import { type Listing, type ListingSummary, listingKey } from "~/domain/listing";
import type { Collection } from "~/domain/listing-kinds";
import {
  type AdminGrant,
  grantAdmin,
  listAdmins,
  revokeAdmin,
} from "~/features/auth/admins.server";
import type { Role } from "~/features/auth/permissions";
import { findSessionUser } from "~/features/auth/sessions.server";
import type { ImageStore } from "~/features/images/storage.server";
import { DEMO_LISTINGS } from "~/features/listings/demo-seed.server";
import { ListingWrites } from "~/features/listings/listing-writes.server";
import {
  getListing,
  insertListing,
  type ListingInput,
  listSummaries,
  setImages,
  updateListing,
} from "~/features/listings/queries.server";
import type { LiveHub } from "~/features/live/hub.server";
import { readStoredContent } from "~/features/site-settings/index.server";
import type { Db } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import { HttpError } from "~/shared/http-error.server";
import type { TestSmtp } from "../support/smtp";

export function controlCommands({
  db,
  images,
  env,
  hub,
  smtp,
  recentWarnings = [],
}: {
  db: Db;
  images: ImageStore;
  env: Env;
  hub: LiveHub;
  /** The SMTP server the test server sends to (tests/support/smtp.ts). */
  smtp: TestSmtp;
  /** The server's last warning and error log lines. */
  recentWarnings?: readonly string[];
}) {
  const writes = new ListingWrites(db, images);
  return {
    /** What arrived at the test SMTP server for this address, as a recipient reads it. */
    mailTo(address: string) {
      return smtp.received
        .filter((m) =>
          JSON.stringify(m.to ?? "")
            .toLowerCase()
            .includes(address.toLowerCase()),
        )
        .map((m) => ({
          subject: m.subject ?? "",
          text: m.text ?? "",
          // One-click unsubscribe (RFC 8058), as the mail client reads it.
          listUnsubscribe: rawHeader(m, "list-unsubscribe"),
          listUnsubscribePost: rawHeader(m, "list-unsubscribe-post"),
          attachments: m.attachments.map((a) => ({
            contentType: a.contentType,
            filename: a.filename ?? null,
            method: (a as { method?: string }).method ?? null,
            content: a.content.toString("utf8"),
          })),
        }));
    },
    /**
     * The last messages of the outbox, what the SMTP server holds and the server's last warnings,
     * for a failed test's report.
     */
    async outboxSummary() {
      const rows = await db.query(
        `SELECT id, kind, to_addresses AS to, subject, state, attempts, last_error AS "lastError",
           created_at AS "createdAt", next_attempt_at AS "nextAttemptAt", lease_until AS "leaseUntil",
           sent_at AS "sentAt", now() AS now
         FROM outbox ORDER BY id DESC LIMIT 15`,
      );
      return { received: smtp.received.length, rows, recentWarnings };
    },
    insertListing: (collection: Collection, id: string, input: ListingInput) =>
      insertListing(db, collection, id, input),

    getListing: (collection: Collection, id: string): Promise<Listing | null> =>
      getListing(db, collection, id),

    /** The cards of one collection (or both), as the list pages read them. */
    listSummaries: (collection?: Collection): Promise<ListingSummary[]> =>
      listSummaries(db, collection),

    /** The first record (either kind) with exactly this address, e.g. a demo listing. */
    async findByAddress(address: string): Promise<Listing | null> {
      const summary = (await listSummaries(db)).find((s) => s.address === address);
      return summary ? getListing(db, summary.collection, summary.id) : null;
    },

    /** Changes some fields of a record, as a save by another admin would. */
    async updateListing(collection: Collection, id: string, changes: Partial<ListingInput>) {
      const current = await getListing(db, collection, id);
      if (!current) throw new Error(`no ${collection}/${id}`);
      return updateListing(db, collection, id, { ...current, ...changes });
    },

    setImages: (collection: Collection, id: string, urls: string[]) =>
      setImages(db, collection, id, urls),

    /** Record and photo folder, as the admin's 'Delete' removes them; false when there was none. */
    async removeListing(collection: Collection, id: string): Promise<boolean> {
      try {
        await writes.remove(collection, id);
        return true;
      } catch (error) {
        if (error instanceof HttpError && error.status === 404) return false;
        throw error;
      }
    },

    /**
     * Deletes (as 'Delete' does) every listing that is not demo content, e.g. one left by a
     * test that failed before its own clean-up; returns their addresses.
     */
    async keepOnlyDemoListings(): Promise<string[]> {
      const demo = new Set(DEMO_LISTINGS.map((d) => `${d.collection}/${listingKey(d.address)}`));
      const extra = (await listSummaries(db)).filter((s) => !demo.has(`${s.collection}/${s.id}`));
      for (const s of extra) await writes.remove(s.collection, s.id);
      return extra.map((s) => s.address);
    },

    grantAdmin: (email: string, role?: Role | null) =>
      grantAdmin(db, email, "e2e", role ?? undefined),
    revokeAdmin: (email: string) => revokeAdmin(db, email, env.adminEmails),
    listAdmins: (): Promise<AdminGrant[]> => listAdmins(db),
    /** The user a session token signs in, as the server sees it (null: no such session). */
    sessionUser: (token: string) => findSessionUser(db, token, env.session),

    /** The site settings as stored (only what differs from the defaults). */
    storedContent: () => readStoredContent(db),

    /** Back to the defaults of app/domain/company.ts, as a fresh install (files kept on disk). */
    async resetSiteSettings() {
      await db.query("DELETE FROM site_settings");
    },

    /**
     * Plain SQL, for what the app itself never does: a write from outside the app (psql, a
     * script) or a broken database. Every call site says which of the two it simulates.
     */
    outOfBandSql: (sql: string, params: unknown[] = []) => db.query(sql, params),

    /**
     * A write whose notification is lost, as when it happens while the server's LISTEN
     * connection is down (PostgreSQL restarting): triggers off for this one statement.
     */
    unannouncedSql: (sql: string, params: unknown[] = []) =>
      db.transaction(async (tx) => {
        await tx.query("SET LOCAL session_replication_role = replica");
        return tx.query(sql, params);
      }),

    /** What the hub does when LISTEN is back after a database outage (docs/behaviour.md §7). */
    resyncLive: () => hub.resync(),
  };
}

/** A header's value exactly as it arrived (mailparser folds List-* headers into an object). */
function rawHeader(mail: ParsedMail, name: string): string | null {
  const line = mail.headerLines.find((h) => h.key === name)?.line;
  return line ? line.slice(line.indexOf(":") + 1).trim() : null;
}

export type ControlCommands = ReturnType<typeof controlCommands>;
