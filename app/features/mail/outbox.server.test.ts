// The outbox (docs/decisions/0062-outbox-for-outgoing-mail.md) on both databases, sending to a
// real SMTP server in this process: written with what caused it, sent once, retried with a
// growing wait while the mail server refuses, given up after MAX_ATTEMPTS, and sent once when
// two instances' workers run side by side.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "~/shared/db.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { startTestSmtp, type TestSmtp } from "../../../tests/support/smtp";
import { smtpMailer } from "./mailer.server";
import {
  enqueueMail,
  leaseNext,
  listOutbox,
  MAX_ATTEMPTS,
  markAttemptFailed,
  markSent,
  stateLabel,
} from "./outbox.server";
import { type OutboxWorker, startOutboxWorker } from "./outbox-worker.server";

const FROM = '"Test Leasing" <office@example.com>';
const mail = (n: number, extra: Record<string, unknown> = {}) => ({
  kind: "test",
  to: [`renter${n}@example.com`],
  subject: `Message ${n}`,
  body: `Hello ${n}`,
  ...extra,
});

for (const target of dbTargets) {
  describe(`outbox (${target.name})`, () => {
    let db: Db;
    let cleanup: () => Promise<void>;
    let another: (() => Promise<Db>) | undefined;
    let smtp: TestSmtp;
    const workers: OutboxWorker[] = [];
    const start = async (on: Db = db) => {
      const worker = await startOutboxWorker(on, smtpMailer(smtp.url, FROM));
      workers.push(worker);
      return worker;
    };

    beforeAll(async () => {
      ({ db, cleanup, another } = await target.open());
      smtp = await startTestSmtp();
    });
    afterEach(async () => {
      for (const worker of workers.splice(0)) await worker.stop();
      await db.query("DELETE FROM outbox");
      smtp.received.length = 0;
      smtp.failing = false;
    });
    afterAll(async () => {
      await smtp?.close();
      await cleanup?.();
    });

    it("keeps a message only when the transaction that wrote it commits", async () => {
      await expect(
        db.transaction(async (tx) => {
          await enqueueMail(tx, mail(1));
          throw new Error("the change failed");
        }),
      ).rejects.toThrow("the change failed");
      await db.transaction((tx) => enqueueMail(tx, mail(2)));
      const { messages, total } = await listOutbox(db);
      expect(total).toBe(1);
      expect(messages.map((m) => [m.subject, stateLabel(m)])).toEqual([["Message 2", "Waiting"]]);
    });

    it("sends what is waiting, with the calendar invitation, and marks it 'Sent'", async () => {
      const calendar = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//test//EN",
        "METHOD:REQUEST",
        "BEGIN:VEVENT",
        "UID:showing-1@example.com",
        "DTSTAMP:20261126T120000Z",
        "DTSTART:20261201T150000Z",
        "DTEND:20261201T153000Z",
        "SUMMARY:Showing",
        "LOCATION:3233 4th Street N",
        "END:VEVENT",
        "END:VCALENDAR",
      ].join("\r\n");
      await db.transaction(async (tx) => {
        await enqueueMail(tx, mail(1, { replyTo: "office@example.com" }));
        await enqueueMail(tx, mail(2, { calendar }));
      });
      await start();
      await vi.waitFor(() => expect(smtp.received).toHaveLength(2), { timeout: 10_000 });
      const bySubject = new Map(smtp.received.map((m) => [m.subject, m]));
      const first = bySubject.get("Message 1");
      expect(first?.text?.trim()).toBe("Hello 1");
      expect(first?.from?.text).toBe('"Test Leasing" <office@example.com>');
      expect(first?.replyTo?.text).toBe("office@example.com");
      const invitation = bySubject.get("Message 2");
      const ics = invitation?.attachments.find((a) => a.contentType.startsWith("text/calendar"));
      expect(ics?.content.toString()).toContain("METHOD:REQUEST");
      expect(ics?.content.toString()).toContain("LOCATION:3233 4th Street N");
      await vi.waitFor(async () => {
        const { messages } = await listOutbox(db);
        expect(messages.map(stateLabel)).toEqual(["Sent", "Sent"]);
      });
    });

    it("puts sealed private links in only as it sends, then drops them", async () => {
      const link = `https://rent.example.com/rental-application/continue?token=${"L".repeat(43)}`;
      const sealed = Buffer.from("sealed-bytes");
      await db.transaction((tx) =>
        enqueueMail(
          tx,
          mail(1, { ref: "application:9", body: "Your link: {{link:0}}", sealedLinks: sealed }),
        ),
      );
      const [stored] = await db.query<{ row: string }>("SELECT o::text AS row FROM outbox o");
      expect(stored?.row).not.toContain("LLLL");
      // Without the key to open them, the message is not sent with a placeholder.
      const closed = await start();
      expect(await closed.runOnce()).toBe(0);
      expect(smtp.received).toHaveLength(0);
      await closed.stop();
      await db.query("UPDATE outbox SET next_attempt_at = now()");
      const opened: [string, string | null][] = [];
      const worker = await startOutboxWorker(db, smtpMailer(smtp.url, FROM), {
        openLinks: (bytes, ref) => {
          opened.push([bytes.toString(), ref]);
          return [link];
        },
      });
      workers.push(worker);
      await vi.waitFor(() => expect(smtp.received).toHaveLength(1), { timeout: 10_000 });
      expect(smtp.received[0]?.text?.trim()).toBe(`Your link: ${link}`);
      expect(opened).toEqual([["sealed-bytes", "application:9"]]);
      await vi.waitFor(async () => {
        const rows = await db.query<{ state: string; sealed: unknown }>(
          "SELECT state, sealed_links AS sealed FROM outbox",
        );
        expect(rows).toEqual([{ state: "sent", sealed: null }]);
      });
    });

    it("retries a refused message after a growing wait, then sends it once", async () => {
      smtp.failing = true;
      await db.transaction((tx) => enqueueMail(tx, mail(1)));
      const worker = await start();
      await vi.waitFor(async () => {
        const [row] = await db.query<{ attempts: number; wait: number; last_error: string }>(
          `SELECT attempts, extract(epoch FROM next_attempt_at - now())::int AS wait, last_error
           FROM outbox`,
        );
        expect(row?.attempts).toBe(1);
        expect(row?.last_error).toContain("550");
        // The first retry waits a minute; nothing is taken again before then.
        expect(row?.wait).toBeGreaterThan(50);
      });
      expect(await worker.runOnce()).toBe(0);
      expect(smtp.received).toHaveLength(0);
      // A minute later (the clock moved on), the server takes mail again.
      smtp.failing = false;
      await db.query("UPDATE outbox SET next_attempt_at = now()");
      expect(await worker.runOnce()).toBe(1);
      expect(smtp.received.map((m) => m.subject)).toEqual(["Message 1"]);
      const { messages } = await listOutbox(db);
      expect(messages.map((m) => [stateLabel(m), m.attempts])).toEqual([["Sent", 2]]);
    });

    it(`gives up after ${MAX_ATTEMPTS} attempts with the reason: 'Failed: {reason}'`, async () => {
      smtp.failing = true;
      await db.transaction((tx) => enqueueMail(tx, mail(1)));
      const worker = await start();
      for (let i = 0; i < MAX_ATTEMPTS + 2; i++) {
        await worker.runOnce();
        await db.query("UPDATE outbox SET next_attempt_at = now()");
      }
      const { messages } = await listOutbox(db);
      expect(messages).toHaveLength(1);
      expect(messages[0]?.attempts).toBe(MAX_ATTEMPTS);
      expect(stateLabel(messages[0] as NonNullable<(typeof messages)[0]>)).toMatch(
        /^Failed: .*550/,
      );
      expect(smtp.received).toHaveLength(0);
    });

    it("leases one message at a time, also when statistics say the table is tiny", async () => {
      // After a VACUUM (the scrub after an erasure, docs/behaviour.md §26) the statistics may
      // say the outbox holds one row; PostgreSQL then rescanned an `IN (… LIMIT 1 FOR UPDATE
      // SKIP LOCKED)` subquery once per row, each rescan skipping the row it had just locked,
      // so one statement leased every due message and the worker sent only the first: the
      // others waited out the whole lease.
      await db.transaction((tx) => enqueueMail(tx, mail(0)));
      await db.query("ANALYZE outbox");
      await db.transaction(async (tx) => {
        for (let n = 1; n <= 4; n++) await enqueueMail(tx, mail(n));
      });
      for (let n = 0; n <= 4; n++) {
        const leased = await leaseNext(db);
        expect(leased?.subject).toBe(`Message ${n}`);
        const [held] = await db.query<{ count: number }>(
          "SELECT count(*)::int AS count FROM outbox WHERE lease_until IS NOT NULL",
        );
        expect(held?.count).toBe(n + 1);
      }
      expect(await leaseNext(db)).toBeNull();
    });

    it("records an outcome only under the lease that took the message", async () => {
      await db.transaction((tx) => enqueueMail(tx, mail(1)));
      const stale = await leaseNext(db);
      expect(stale?.attempts).toBe(1);
      // Nobody else takes a leased message; once its lease has run out, another worker may.
      expect(await leaseNext(db)).toBeNull();
      await db.query("UPDATE outbox SET lease_until = now() - interval '1 second'");
      const current = await leaseNext(db);
      expect(current?.attempts).toBe(2);
      await markSent(db, current as NonNullable<typeof current>);
      // The first worker, late, can neither undo the send nor queue it again.
      await markAttemptFailed(db, stale as NonNullable<typeof stale>, "timed out");
      await markSent(db, stale as NonNullable<typeof stale>);
      const { messages } = await listOutbox(db);
      expect(messages.map((m) => [stateLabel(m), m.attempts, m.lastError])).toEqual([
        ["Sent", 2, null],
      ]);
    });

    it("sends each message once when two instances' workers run side by side", async () => {
      const second = another ? await another() : db;
      await db.transaction(async (tx) => {
        for (let n = 1; n <= 30; n++) await enqueueMail(tx, mail(n));
      });
      const [a, b] = [await start(), await start(second)];
      await Promise.all([a.runOnce(), b.runOnce(), a.runOnce(), b.runOnce()]);
      await vi.waitFor(() => expect(smtp.received.length).toBeGreaterThanOrEqual(30), {
        timeout: 20_000,
      });
      // Both workers finish what they took before the count is final.
      for (const worker of workers.splice(0)) await worker.stop();
      const subjects = smtp.received.map((m) => m.subject).sort();
      expect(new Set(subjects).size).toBe(30);
      expect(subjects).toHaveLength(30);
    });
  });
}
