// Online applications' storage on both databases (issue 22): sealed answers behind a private
// link, save and resume, submit with the other adults' links, withdraw, retention.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "~/shared/db.server";
import { dbTargets } from "../../../tests/support/db-targets";
import {
  emailMac,
  openApplication,
  purgeApplications,
  saveAnswers,
  startApplication,
  submitApplication,
  tokenHash,
  withdrawApplication,
} from "./applications.server";

const key = randomBytes(32);
const listing = { collection: "properties" as const, id: "12-lead-lane", address: "12 Lead Lane" };
const first = { fullName: "Ana Renter", email: "ana@example.com", phone: "703-555-0199" };
const day = 86_400_000;
const t0 = new Date("2026-11-01T12:00:00Z");
const at = (days: number) => new Date(t0.getTime() + days * day);

for (const target of dbTargets) {
  describe(`applications (${target.name})`, () => {
    let db: Db;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ db, cleanup } = await target.open());
    });
    afterAll(async () => cleanup?.());

    it("stores answers sealed: no name, e-mail or token in the database", async () => {
      const { token } = await startApplication(db, key, {
        listing,
        answers: first,
        step: "residence",
        now: t0,
      });
      const rows = await db.query<Record<string, unknown>>("SELECT * FROM applicants");
      const stored = JSON.stringify(
        rows.map((r) => ({
          ...r,
          answers: Buffer.from(r.answers as Uint8Array).toString("latin1"),
        })),
      );
      expect(stored).not.toContain("Ana");
      expect(stored).not.toContain("ana@example.com");
      expect(stored).not.toContain(token);
      expect(stored).toContain(tokenHash(token));
      const opened = await openApplication(db, key, token, t0);
      expect(opened?.answers).toEqual(first);
      expect(opened?.listing).toEqual(listing);
      expect(opened?.status).toBe("draft");
      expect(opened?.applicant.step).toBe("residence");
    });

    it("saves each step over the earlier answers and resumes where the applicant stopped", async () => {
      const { token } = await startApplication(db, key, {
        listing: null,
        answers: first,
        step: "residence",
        now: t0,
      });
      expect(
        await saveAnswers(db, key, token, { address: "1 Old Road" }, "employment", at(1)),
      ).toBe(true);
      expect(
        await saveAnswers(db, key, token, { fullName: "Ana R. Renter" }, "references", at(2)),
      ).toBe(true);
      const opened = await openApplication(db, key, token, at(3));
      expect(opened?.answers).toEqual({
        ...first,
        fullName: "Ana R. Renter",
        address: "1 Old Road",
      });
      expect(opened?.applicant.step).toBe("references");
      // The link lives 30 days from the last change; then it opens nothing.
      expect(await openApplication(db, key, token, at(31))).not.toBeNull();
      expect(await openApplication(db, key, token, at(33))).toBeNull();
      expect(await saveAnswers(db, key, token, { address: "x" }, "employment", at(33))).toBe(false);
      expect(await openApplication(db, key, "no-such-token", t0)).toBeNull();
      // Another key opens nothing.
      await expect(openApplication(db, randomBytes(32), token, at(3))).rejects.toThrow();
    });

    it("submits once, making a private link for each other adult, all in one transaction", async () => {
      const { token } = await startApplication(db, key, {
        listing,
        answers: {
          ...first,
          "adult.0.name": "Ben Renter",
          "adult.0.email": "ben@example.com",
          "adult.1.name": "Cy Renter",
          "adult.1.email": "cy@example.com",
        },
        step: "review",
        now: t0,
      });
      const told: string[] = [];
      const submitted = await submitApplication(db, key, token, at(1), async (_tx, { adults }) => {
        for (const adult of adults) told.push(`${adult.email} ${adult.token.length}`);
      });
      expect(submitted).not.toBeNull();
      expect(told).toEqual(["ben@example.com 43", "cy@example.com 43"]);
      const opened = await openApplication(db, key, token, at(2));
      expect(opened?.status).toBe("received");
      // A submitted application's answers no longer change, and it is not submitted twice.
      expect(await saveAnswers(db, key, token, { fullName: "X" }, "review", at(2))).toBe(false);
      expect(await submitApplication(db, key, token, at(2))).toBeNull();
      // The status page stays readable after the link's 30 days.
      expect((await openApplication(db, key, token, at(60)))?.status).toBe("received");

      // A failure while writing the adults' e-mails leaves the draft as it was.
      const again = await startApplication(db, key, {
        listing,
        answers: { ...first, "adult.0.name": "Di", "adult.0.email": "di@example.com" },
        step: "review",
        now: t0,
      });
      await expect(
        submitApplication(db, key, again.token, at(1), async () => {
          throw new Error("mail table went away");
        }),
      ).rejects.toThrow("mail table went away");
      expect((await openApplication(db, key, again.token, at(1)))?.status).toBe("draft");
      const [adults] = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM applicants WHERE application_id = $1",
        [again.applicationId],
      );
      expect(adults?.n).toBe(1);
    });

    it("finds a person's applications by a keyed hash of their e-mail, any case", async () => {
      const { applicationId } = await startApplication(db, key, {
        listing: null,
        answers: { ...first, email: "Eve@Example.com" },
        step: "residence",
        now: t0,
      });
      const rows = await db.query<{ id: number }>(
        "SELECT application_id::int AS id FROM applicants WHERE email_mac = $1",
        [emailMac(key, " eve@example.COM ")],
      );
      expect(rows.map((r) => r.id)).toEqual([applicationId]);
    });

    it("withdrawing erases every answer and document at once; the link then shows 'Withdrawn'", async () => {
      const { token, applicationId } = await startApplication(db, key, {
        listing,
        answers: first,
        step: "review",
        now: t0,
      });
      await submitApplication(db, key, token, at(1));
      const [applicant] = await db.query<{ id: number }>(
        "SELECT id::int AS id FROM applicants WHERE application_id = $1 AND position = 0",
        [applicationId],
      );
      await db.query(
        `INSERT INTO application_documents (applicant_id, kind, storage_key, name_sealed, content_type, bytes)
         VALUES ($1, 'id', $2, '\\x00', 'image/jpeg', 10)`,
        [applicant?.id, `applications/${applicationId}/1`],
      );
      const withdrawn = await withdrawApplication(db, token, at(2));
      expect(withdrawn).toEqual({ storageKeys: [`applications/${applicationId}/1`] });
      const opened = await openApplication(db, key, token, at(3));
      expect(opened?.status).toBe("withdrawn");
      expect(opened?.answers).toEqual({});
      const [left] = await db.query<{ answers: unknown; docs: number }>(
        `SELECT p.answers, (SELECT count(*)::int FROM application_documents) AS docs
         FROM applicants p WHERE p.application_id = $1`,
        [applicationId],
      );
      expect(left).toEqual({ answers: null, docs: 0 });
      expect(await withdrawApplication(db, "no-such-token", at(2))).toBeNull();
    });

    it("erases ended applications after the retention days and drafts after 30 days", async () => {
      await db.query("DELETE FROM applications");
      const draft = await startApplication(db, key, {
        listing,
        answers: first,
        step: "residence",
        now: t0,
      });
      const ended = await startApplication(db, key, {
        listing,
        answers: first,
        step: "review",
        now: t0,
      });
      await submitApplication(db, key, ended.token, t0);
      await withdrawApplication(db, ended.token, at(1));
      const open = await startApplication(db, key, {
        listing,
        answers: first,
        step: "review",
        now: t0,
      });
      await submitApplication(db, key, open.token, t0);

      const options = { retentionDays: 180, draftDays: 30 };
      expect((await purgeApplications(db, { ...options, now: at(29) })).erased).toBe(0);
      expect((await purgeApplications(db, { ...options, now: at(31) })).erased).toBe(1);
      expect(await openApplication(db, key, draft.token, at(31))).toBeNull();
      expect((await purgeApplications(db, { ...options, now: at(180) })).erased).toBe(0);
      expect((await purgeApplications(db, { ...options, now: at(182) })).erased).toBe(1);
      // A submitted application with no decision is kept.
      expect((await purgeApplications(db, { ...options, now: at(1000) })).erased).toBe(0);
      expect((await openApplication(db, key, open.token, at(1000)))?.status).toBe("received");
    });
  });
}
