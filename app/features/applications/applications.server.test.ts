// Online applications' storage on both databases (docs/behaviour.md §32): sealed answers behind a
// private link, save and resume, submit with the other adults' links, withdraw, retention.
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiskBackend } from "~/features/images/index.server";
import type { Db } from "~/shared/db.server";
import { dbTargets } from "../../../tests/support/db-targets";
import {
  addDocument,
  completeApplicant,
  emailMac,
  eraseApplicationsOf,
  householdProgress,
  listOwnDocuments,
  openApplication,
  purgeApplications,
  removeDocument,
  saveAnswers,
  startApplication,
  submitApplication,
  tokenHash,
  withdrawApplication,
} from "./applications.server";
import { DocumentVault } from "./documents.server";

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

      const options = { retentionDays: 180, draftDays: 30, undecidedDays: 365 };
      expect((await purgeApplications(db, { ...options, now: at(29) })).erased).toBe(0);
      expect((await purgeApplications(db, { ...options, now: at(31) })).erased).toBe(1);
      expect(await openApplication(db, key, draft.token, at(31))).toBeNull();
      expect((await purgeApplications(db, { ...options, now: at(180) })).erased).toBe(0);
      expect((await purgeApplications(db, { ...options, now: at(182) })).erased).toBe(1);
      // A submitted application nobody decided: kept APPLICATION_UNDECIDED_DAYS after its last
      // change, then erased too.
      expect((await purgeApplications(db, { ...options, now: at(364) })).erased).toBe(0);
      expect((await openApplication(db, key, open.token, at(364)))?.status).toBe("received");
      expect((await purgeApplications(db, { ...options, now: at(366) })).erased).toBe(1);
      expect(await openApplication(db, key, open.token, at(366))).toBeNull();
    });

    it("another adult's part: prefilled from the household, documents of their own, finished once", async () => {
      const root = await fs.mkdtemp(path.join(os.tmpdir(), "vault-"));
      const vault = new DocumentVault(new DiskBackend(root, path.join(root, ".tmp")), key);
      const png = await sharp({
        create: { width: 8, height: 8, channels: 3, background: "#c00" },
      })
        .png()
        .toBuffer();
      const main = await startApplication(db, key, {
        listing,
        answers: {
          ...first,
          moveIn: "2027-03-01",
          occupants: "2",
          "adult.0.name": "Ben Renter",
          "adult.0.email": "ben@example.com",
        },
        step: "review",
        now: t0,
      });
      let benToken = "";
      await submitApplication(db, key, main.token, t0, async (_tx, { adults }) => {
        benToken = adults[0]?.token ?? "";
      });
      const ben = await openApplication(db, key, benToken, t0);
      expect(ben?.applicant.position).toBe(1);
      expect(ben?.answers).toEqual({
        fullName: "Ben Renter",
        email: "ben@example.com",
        moveIn: "2027-03-01",
        occupants: "2",
      });
      // The main applicant's own part is closed once submitted; Ben's is open.
      await expect(
        addDocument(db, key, vault, main.token, { kind: "id", name: "a.png", bytes: png }, at(1)),
      ).rejects.toThrow("This application can no longer be changed.");
      const added = await addDocument(
        db,
        key,
        vault,
        benToken,
        { kind: "id", name: "ben\u0000id.png", bytes: png },
        at(1),
      );
      const own = await listOwnDocuments(db, key, ben?.applicant.id as number);
      expect(own.map((d) => [d.id, d.kind, d.name, d.contentType])).toEqual([
        [added.id, "id", "ben_id.png", "image/png"],
      ]);
      // Another applicant's token cannot remove it; Ben's can.
      expect(await removeDocument(db, vault, main.token, added.id, at(1))).toBe(false);
      expect(await removeDocument(db, vault, benToken, added.id, at(1))).toBe(true);
      expect(await listOwnDocuments(db, key, ben?.applicant.id as number)).toEqual([]);
      expect(await fs.readdir(path.join(root, "applications", String(main.applicationId)))).toEqual(
        [],
      );

      expect(await completeApplicant(db, main.token, at(2))).toBe(false);
      expect(
        (await householdProgress(db, key, main.applicationId)).map((p) => [p.name, p.done]),
      ).toEqual([
        ["Ana Renter", true],
        ["Ben Renter", false],
      ]);
      expect(await completeApplicant(db, benToken, at(2))).toBe(true);
      expect(await completeApplicant(db, benToken, at(3))).toBe(false);
      expect(await saveAnswers(db, key, benToken, { fullName: "X" }, "applicant", at(3))).toBe(
        false,
      );
      expect((await householdProgress(db, key, main.applicationId))[1]?.done).toBe(true);
      // Ben's link lives 30 days from when it was made (the submit, t0), although the household
      // has submitted; the main applicant's status page stays (docs/behaviour.md §32).
      expect((await openApplication(db, key, benToken, at(29)))?.applicant.position).toBe(1);
      expect(await openApplication(db, key, benToken, at(31))).toBeNull();
      expect((await openApplication(db, key, main.token, at(31)))?.status).toBe("received");
    });

    it("bounds an application's documents: 1 MB stored at once, 3 MB uploaded over its life", async () => {
      const root = await fs.mkdtemp(path.join(os.tmpdir(), "vault-"));
      const vault = new DocumentVault(new DiskBackend(root, path.join(root, ".tmp")), key);
      const { token } = await startApplication(db, key, {
        listing,
        answers: first,
        step: "documents",
        now: t0,
      });
      // Noise does not compress: each PNG is 0.41 MB sent and stored.
      const noise = () =>
        sharp(randomBytes(380 * 380 * 3), { raw: { width: 380, height: 380, channels: 3 } })
          .png({ compressionLevel: 0 })
          .toBuffer();
      const upload = async (n: number) =>
        addDocument(
          db,
          key,
          vault,
          token,
          { kind: "income", name: `p${n}.png`, bytes: await noise() },
          at(0),
          1,
        );
      let kept = await upload(1);
      await upload(2);
      await expect(upload(3)).rejects.toThrow(
        "This application's documents may take at most 1 MB in all. Remove a document to make room, or send a smaller file.",
      );
      // Remove and send again: room comes back, until 3 MB have been kept over its life (the
      // refused third does not count: a refusal changes nothing).
      for (const n of [4, 5, 6, 7, 8]) {
        expect(await removeDocument(db, vault, token, kept.id, at(0))).toBe(true);
        kept = await upload(n);
      }
      expect(await removeDocument(db, vault, token, kept.id, at(0))).toBe(true);
      await expect(upload(9)).rejects.toThrow(
        "This application has received 3 MB of documents, the most one application can. Contact us to send more.",
      );
      await fs.rm(root, { recursive: true, force: true });
    }, 120_000);

    it("two submits at once: one is taken, the other finds it received", async () => {
      const { token, applicationId } = await startApplication(db, key, {
        listing,
        answers: { ...first, "adult.0.name": "Ben", "adult.0.email": "ben@example.com" },
        step: "review",
        now: t0,
      });
      const results = await Promise.all([
        submitApplication(db, key, token, at(1)),
        submitApplication(db, key, token, at(1)),
      ]);
      expect(results.filter((r) => r !== null)).toHaveLength(1);
      const [count] = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM applicants WHERE application_id = $1",
        [applicationId],
      );
      expect(count?.n).toBe(2);
    });

    it("'Erase this person': their own applications whole, their part of another's", async () => {
      const own = await startApplication(db, key, {
        listing,
        answers: {
          ...first,
          email: "zed@example.com",
          "adult.0.name": "Yan",
          "adult.0.email": "yan@example.com",
        },
        step: "review",
        now: t0,
      });
      await db.query(
        "INSERT INTO outbox (kind, to_addresses, subject, body, ref) VALUES ('x', ARRAY['zed@example.com'], 's', 'b', $1)",
        [`application:${own.applicationId}`],
      );
      const other = await startApplication(db, key, {
        listing,
        answers: {
          ...first,
          email: "xia@example.com",
          "adult.0.name": "Zed",
          "adult.0.email": "Zed@Example.com",
        },
        step: "review",
        now: t0,
      });
      let zedToken = "";
      await submitApplication(db, key, other.token, t0, async (_tx, { adults }) => {
        zedToken = adults[0]?.token ?? "";
      });
      expect(await eraseApplicationsOf(db, key, "nobody@example.com")).toEqual({
        erased: 0,
        storageKeys: [],
      });
      expect((await eraseApplicationsOf(db, key, " ZED@example.com")).erased).toBe(2);
      expect(await openApplication(db, key, own.token, t0)).toBeNull();
      const [mail] = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM outbox WHERE ref = $1",
        [`application:${own.applicationId}`],
      );
      expect(mail?.n).toBe(0);
      // The household Zed joined stays, with Zed's part emptied.
      expect((await openApplication(db, key, other.token, t0))?.answers.email).toBe(
        "xia@example.com",
      );
      // Zed's own link no longer opens.
      expect(await openApplication(db, key, zedToken, t0)).toBeNull();
      expect((await eraseApplicationsOf(db, key, "a\u0000b")).erased).toBe(0);
    });
  });
}
