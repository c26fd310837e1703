// Crash between storing a lead and sending its e-mail (docs/decisions/0062): the real
// server process (the production bundle) takes a message from the contact page, writes the lead
// and its two e-mails, starts sending to a real SMTP server that reads the message and never
// answers, and is killed with SIGKILL there. After a restart both e-mails arrive, once each,
// and the outbox says 'sent'. On PGlite and on PostgreSQL (TEST_DATABASE_URL).
import { once } from "node:events";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LEASE_SECONDS } from "~/features/mail/outbox.server";
import { openDb } from "~/shared/db.server";
import { readEnv } from "~/shared/env.server";
import {
  serverProcessTargets,
  startServerProcess,
  stopServerProcess,
} from "../support/server-process";
import { startTestSmtp } from "../support/smtp";

const RENTER = "crash.renter@example.com";
const STAFF = "crash.staff@example.com";

for (const target of await serverProcessTargets("leadmail")) {
  describe(`SIGKILL between a lead and its e-mail on ${target.name}`, () => {
    afterAll(() => target.cleanup());

    it("sends the lead's e-mails after the restart, once each", async () => {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `lead-mail-${target.name}-`));
      const smtp = await startTestSmtp();
      const source: Record<string, string> = {
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        DATABASE_URL: target.databaseUrl ?? "",
        SEED_DEMO: "false",
        SMTP_URL: smtp.url,
        INBOX_NOTIFY_EMAILS: STAFF,
      };
      const env = readEnv(source);
      const stored = () =>
        openDb({ databaseUrl: env.databaseUrl, dataDir: path.join(env.dataDir, "db") });
      let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
      try {
        smtp.holding = true;
        server = await startServerProcess(source);
        const form = new FormData();
        for (const [k, v] of Object.entries({
          started: String(Date.now() - 10_000),
          name: "Crash Renter",
          email: RENTER,
          message: "Is the flat on the corner still free?",
          website: "",
        })) {
          form.append(k, v);
        }
        const res = await fetch(`${server.base}/inquiries`, {
          method: "POST",
          body: form,
        });
        const page = await res.text();
        expect(res.status, page.slice(0, 3000)).toBe(200);
        expect(page).toContain("Thanks! We&#x27;ll get back to you soon.");
        // The first e-mail is on the wire, unanswered: the server dies there.
        await expect.poll(() => smtp.held, { timeout: 30_000 }).toBe(1);
        server.kill("SIGKILL");
        await once(server, "exit");
        expect(smtp.received).toEqual([]);

        // What the dead process left: the lead, and both e-mails still to send (one of them
        // leased by the dead worker).
        const db = await stored();
        try {
          expect(await db.query("SELECT name, email FROM leads")).toEqual([
            { name: "Crash Renter", email: RENTER },
          ]);
          const waiting = await db.query<{ state: string }>("SELECT state FROM outbox");
          expect(waiting.map((m) => m.state)).toEqual(["waiting", "waiting"]);
          // The dead worker's lease would run out LEASE_SECONDS after it took the message;
          // rather than wait that long, the test moves it into the past.
          expect(LEASE_SECONDS).toBeGreaterThan(0);
          const leased = await db.query(
            "UPDATE outbox SET lease_until = now() - interval '1 second' WHERE lease_until > now() RETURNING id",
          );
          expect(leased).toHaveLength(1);
        } finally {
          await db.close();
        }

        smtp.holding = false;
        server = await startServerProcess(source);
        await expect
          .poll(() => smtp.received.map((m) => m.subject).sort(), { timeout: 60_000 })
          .toEqual(["Inquiry: a general question", "We received your message"]);
        await stopServerProcess(server);
        // Once each: nothing more arrived, and the outbox says so.
        const recipients = smtp.received.flatMap((m) =>
          [m.to ?? []].flat().flatMap((to) => to.value.map((a) => a.address)),
        );
        expect(recipients.sort()).toEqual([RENTER, STAFF].sort());
        const after = await stored();
        try {
          const states = await after.query<{ state: string }>("SELECT state FROM outbox");
          expect(states.map((m) => m.state)).toEqual(["sent", "sent"]);
        } finally {
          await after.close();
        }
        expect(smtp.received).toHaveLength(2);
      } finally {
        await stopServerProcess(server);
        await smtp.close();
        await fs.rm(dataDir, { recursive: true, force: true });
      }
    });
  });
}
