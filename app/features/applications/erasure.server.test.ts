// Erasure and retention that leave nobody behind (docs/decisions/0075-erasure-reaches-everything.md),
// on both databases with a fixed clock: 'Erase this person' for another adult reaches the
// household's answers and every e-mail to the address; the outbox is purged by age; a document
// whose delete failed is deleted later; undecided applications go; a minimal audit survives.
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiskBackend } from "~/features/images/index.server";
import { purgeOldMail } from "~/features/mail/index.server";
import type { Db, Queryable } from "~/shared/db.server";
import { dbTargets } from "../../../tests/support/db-targets";
import {
  eraseApplicationsOf,
  openApplication,
  startApplication,
  submitApplication,
  withdrawApplication,
} from "./applications.server";
import { DocumentVault } from "./documents.server";
import { removeQueued } from "./file-deletions.server";
import { retentionPass } from "./index.server";
import { readApplication } from "./staff.server";

const key = randomBytes(32);
const listing = { collection: "properties" as const, id: "12-lead-lane", address: "12 Lead Lane" };
const day = 86_400_000;
const t0 = new Date("2026-11-01T12:00:00Z");
const at = (days: number) => new Date(t0.getTime() + days * day);

for (const target of dbTargets) {
  describe(`erasure and retention (${target.name})`, () => {
    let db: Db;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ db, cleanup } = await target.open());
    });
    afterAll(async () => cleanup?.());

    const mailTo = async (to: string, ref: string | null, extra = "", q: Queryable = db) =>
      q.query(
        `INSERT INTO outbox (kind, to_addresses, subject, body, ref) VALUES ('x', ARRAY[$1], 's', $2, $3)`,
        [to, `link https://example.com/rental-application/continue?token=live ${extra}`, ref],
      );

    it("'Erase this person' for another adult: gone from the household's answers, link and outbox", async () => {
      const main = await startApplication(db, key, {
        listing,
        answers: {
          fullName: "Ana Renter",
          email: "ana@example.com",
          "adult.0.name": "Quinn Other",
          "adult.0.email": "quinn@example.com",
          "adult.1.name": "Ray Other",
          "adult.1.email": "ray@example.com",
        },
        step: "review",
        now: t0,
      });
      let quinnToken = "";
      await submitApplication(db, key, main.token, t0, async (tx, { adults, applicationId }) => {
        quinnToken = adults[0]?.token ?? "";
        for (const adult of adults)
          await mailTo(adult.email, `application:${applicationId}`, "", tx);
      });
      // A draft that names Quinn too (no row for Quinn yet), and an alert e-mail to Quinn.
      const draft = await startApplication(db, key, {
        listing,
        answers: {
          fullName: "Sol Renter",
          email: "sol@example.com",
          "adult.0.name": "Quinn Other",
          "adult.0.email": "QUINN@example.com",
        },
        step: "review",
        now: t0,
      });
      await mailTo("Quinn@Example.com", null, "alert");

      const erased = await eraseApplicationsOf(db, key, " Quinn@example.com", {
        actorId: "staff-sub",
        now: at(1),
      });
      expect(erased.erased).toBe(2);
      const seen = JSON.stringify(await readApplication(db, key, main.applicationId, "staff"));
      expect(seen).toContain("Ray Other");
      expect(seen).not.toContain("Quinn");
      expect(seen.toLowerCase()).not.toContain("quinn@example.com");
      expect(JSON.stringify((await openApplication(db, key, draft.token, at(1)))?.answers)).toBe(
        JSON.stringify({ fullName: "Sol Renter", email: "sol@example.com" }),
      );
      expect(await openApplication(db, key, quinnToken, at(1))).toBeNull();
      const left = await db.query<{ to: string[] }>(
        `SELECT to_addresses AS "to" FROM outbox WHERE lower(array_to_string(to_addresses, ',')) LIKE '%quinn%'`,
      );
      expect(left).toEqual([]);
      const [ray] = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM outbox WHERE 'ray@example.com' = ANY(to_addresses)",
      );
      expect(ray?.n).toBe(1);
      const audit = await db.query<Record<string, unknown>>(
        "SELECT application_id::int AS id, event, actor_id FROM application_audit WHERE event = 'person erased' ORDER BY application_id",
      );
      expect(audit).toEqual([
        { id: main.applicationId, event: "person erased", actor_id: "staff-sub" },
        { id: draft.applicationId, event: "person erased", actor_id: "staff-sub" },
      ]);
    });

    it("deletes sent and failed e-mail OUTBOX_RETENTION_DAYS after; waiting mail stays", async () => {
      await db.query("DELETE FROM outbox");
      await db.query(
        `INSERT INTO outbox (kind, to_addresses, subject, body, state, sent_at, created_at) VALUES
           ('alert', ARRAY['a@example.com'], 'sent', 'b', 'sent', $1, $1),
           ('alert', ARRAY['b@example.com'], 'failed', 'b', 'failed', NULL, $1),
           ('alert', ARRAY['c@example.com'], 'waiting', 'b', 'waiting', NULL, $1)`,
        [t0],
      );
      expect(await purgeOldMail(db, { days: 30, now: at(29) })).toBe(0);
      expect(await purgeOldMail(db, { days: 30, now: at(31) })).toBe(2);
      const left = await db.query<{ subject: string }>("SELECT subject FROM outbox");
      expect(left).toEqual([{ subject: "waiting" }]);
    });

    it("a document whose delete failed is deleted by the retention worker later", async () => {
      const root = await fs.mkdtemp(path.join(os.tmpdir(), "vault-"));
      const disk = new DiskBackend(root, path.join(root, ".tmp"));
      let storeDown = true;
      const flaky = Object.assign(Object.create(disk), {
        delete: async (k: string) => {
          if (storeDown) throw new Error("store unreachable");
          return disk.delete(k);
        },
      }) as DiskBackend;
      const vault = new DocumentVault(flaky, key);
      const { token, applicationId } = await startApplication(db, key, {
        listing,
        answers: { fullName: "Uma", email: "uma@example.com" },
        step: "review",
        now: t0,
      });
      const storageKey = await vault.store(applicationId, Buffer.from("%PDF-1.4 sealed"));
      await db.query(
        `INSERT INTO application_documents (applicant_id, kind, storage_key, name_sealed, content_type, bytes)
         SELECT id, 'id', $2, '\\x00', 'application/pdf', 10 FROM applicants WHERE application_id = $1`,
        [applicationId, storageKey],
      );
      await submitApplication(db, key, token, t0);
      const withdrawn = await withdrawApplication(db, token, at(1));
      await removeQueued(db, vault, withdrawn?.storageKeys ?? []);
      const file = path.join(root, storageKey);
      await expect(fs.stat(file)).resolves.toBeTruthy();
      storeDown = false;
      const env = {
        dataDir: root,
        s3: null,
        applications: {
          dataKey: null,
          retentionDays: 180,
          undecidedDays: 180,
          documentQuotaMb: 40,
        },
        mail: {
          smtpUrl: null,
          from: "x@example.com",
          retentionDays: 30,
          unconfirmed: { perAddressPerDay: 5, perHour: 100 },
        },
      };
      await retentionPass(db, env, 30, () => at(2), flaky)();
      await expect(fs.stat(file)).rejects.toThrow();
      const [queued] = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM file_deletions",
      );
      expect(queued?.n).toBe(0);
    });

    it("a minimal audit without personal data survives withdrawal and retention", async () => {
      await db.query(
        `INSERT INTO users (issuer, sub, email) VALUES ('https://id.example', 'sub-42', 'staff@example.com')`,
      );
      const { token, applicationId } = await startApplication(db, key, {
        listing,
        answers: { fullName: "Vic", email: "vic@example.com" },
        step: "review",
        now: t0,
      });
      await submitApplication(db, key, token, t0);
      await readApplication(db, key, applicationId, "staff@example.com");
      await withdrawApplication(db, token, at(1));
      const env = {
        dataDir: await fs.mkdtemp(path.join(os.tmpdir(), "vault-")),
        s3: null,
        applications: { dataKey: null, retentionDays: 30, undecidedDays: 180, documentQuotaMb: 40 },
        mail: {
          smtpUrl: null,
          from: "x@example.com",
          retentionDays: 30,
          unconfirmed: { perAddressPerDay: 5, perHour: 100 },
        },
      };
      await retentionPass(db, env, 30, () => at(40))();
      const [left] = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM applications WHERE id = $1",
        [applicationId],
      );
      expect(left?.n).toBe(0);
      const audit = await db.query<Record<string, unknown>>(
        "SELECT * FROM application_audit WHERE application_id = $1 ORDER BY id",
        [applicationId],
      );
      expect(audit.map((a) => [a.event, a.actor_id])).toEqual([
        ["viewed", "sub-42"],
        ["withdrawn", null],
        ["retention", null],
      ]);
      expect(JSON.stringify(audit)).not.toMatch(/vic|staff@/i);
    });
  });
}
