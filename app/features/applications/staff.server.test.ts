// Staff's side of applications on both databases (docs/behaviour.md §32): the list, one application
// whole with every view recorded, status with the decision e-mail, notes; and documents.
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
  DOCUMENT_REFUSALS,
  startApplication,
  submitApplication,
  withdrawApplication,
} from "./applications.server";
import { DocumentVault } from "./documents.server";
import {
  listApplications,
  readApplication,
  saveApplicationNote,
  sealClearNotes,
  setApplicationStatus,
} from "./staff.server";

const key = randomBytes(32);
const mail = {
  companyName: "Test Leasing",
  officeEmail: "office@example.com",
  officePhone: "703-555-0100",
};
const listing = { collection: "properties" as const, id: "9-main-st", address: "9 Main St" };
const answers = {
  fullName: "Ana Renter",
  email: "ana@example.com",
  "adult.0.name": "Ben Renter",
  "adult.0.email": "ben@example.com",
};
const png = () =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: "#abc" } })
    .png()
    .toBuffer();

for (const target of dbTargets) {
  describe(`applications for staff (${target.name})`, () => {
    let db: Db;
    let cleanup: () => Promise<void>;
    let root = "";
    let vault: DocumentVault;
    beforeAll(async () => {
      ({ db, cleanup } = await target.open());
      root = await fs.mkdtemp(path.join(os.tmpdir(), "staff-vault-"));
      vault = new DocumentVault(new DiskBackend(root, root), key);
    });
    afterAll(async () => {
      await cleanup?.();
      await fs.rm(root, { recursive: true, force: true });
    });

    const submitted = async () => {
      const { token, applicationId } = await startApplication(db, key, {
        listing,
        answers,
        step: "review",
      });
      await addDocument(db, key, vault, token, {
        kind: "id",
        name: "licence.png",
        bytes: await png(),
      });
      await submitApplication(db, key, token);
      return { token, applicationId };
    };

    it("lists submitted applications only, with the applicant's name and the adults' progress", async () => {
      await startApplication(db, key, { listing, answers, step: "residence" }); // a draft
      const { applicationId } = await submitted();
      const { applications, total } = await listApplications(db, key);
      expect(total).toBe(1);
      expect(applications[0]).toMatchObject({
        id: applicationId,
        status: "received",
        listingAddress: "9 Main St",
        applicantName: "Ana Renter",
        adults: 1,
        adultsDone: 0,
      });
      expect((await listApplications(db, key, { status: "approved" })).total).toBe(0);
    });

    it("opens one application whole and records every view", async () => {
      const { applicationId } = await submitted();
      await readApplication(db, key, applicationId, "boss@example.com");
      const record = await readApplication(db, key, applicationId, "clerk@example.com");
      expect(record?.applicants.map((a) => a.answers.fullName)).toEqual([
        "Ana Renter",
        "Ben Renter",
      ]);
      expect(record?.applicants[0]?.documents).toEqual([
        expect.objectContaining({ kind: "id", name: "licence.png", contentType: "image/png" }),
      ]);
      expect(record?.events.filter((e) => e.action === "viewed").map((e) => e.byEmail)).toEqual([
        "clerk@example.com",
        "boss@example.com",
      ]);
      expect(await readApplication(db, key, 999_999, "boss@example.com")).toBeNull();
    });

    it("sets the status, e-mails the applicant each decision, and keeps notes", async () => {
      const { applicationId } = await submitted();
      expect(
        await setApplicationStatus(
          db,
          key,
          applicationId,
          "under-review",
          "boss@example.com",
          mail,
        ),
      ).toBe(true);
      expect(
        await setApplicationStatus(db, key, applicationId, "approved", "boss@example.com", mail),
      ).toBe(true);
      const sent = await db.query<{ to: string[]; subject: string; body: string }>(
        "SELECT to_addresses AS to, subject, body FROM outbox WHERE ref = $1",
        [`application:${applicationId}`],
      );
      expect(sent).toEqual([
        {
          to: ["ana@example.com"],
          subject: "Your rental application: Approved",
          body: expect.stringContaining("your rental application for 9 Main St has been approved"),
        },
      ]);
      const [ended] = await db.query<{ ended: boolean }>(
        "SELECT ended_at IS NOT NULL AS ended FROM applications WHERE id = $1",
        [applicationId],
      );
      expect(ended?.ended).toBe(true);
      expect(
        await saveApplicationNote(
          db,
          key,
          applicationId,
          "Called the landlord.",
          "boss@example.com",
        ),
      ).toBe(true);
      const record = await readApplication(db, key, applicationId, "boss@example.com");
      expect(record?.notes).toBe("Called the landlord.");
      // Sealed like the answers: the note is nowhere in clear in the database.
      const dump = await db.query<{ row: string }>("SELECT a::text AS row FROM applications a");
      expect(dump.map((r) => r.row).join("\n")).not.toContain("landlord");
      // A note written before notes were sealed opens, and is sealed at the next start.
      await db.query(
        "UPDATE applications SET notes = 'Old note.', notes_sealed = NULL WHERE id = $1",
        [applicationId],
      );
      expect((await readApplication(db, key, applicationId, null))?.notes).toBe("Old note.");
      expect(await sealClearNotes(db, key)).toBe(1);
      expect((await readApplication(db, key, applicationId, null))?.notes).toBe("Old note.");
      const [clear] = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM applications WHERE notes <> ''",
      );
      expect(clear?.n).toBe(0);
      expect(record?.events.filter((e) => e.action === "status").map((e) => e.detail)).toEqual([
        { from: "Under review", to: "Approved" },
        { from: "Received", to: "Under review" },
      ]);
    });

    it("changes nothing of a withdrawn application", async () => {
      const { token, applicationId } = await submitted();
      await withdrawApplication(db, token);
      expect(
        await setApplicationStatus(db, key, applicationId, "approved", "boss@example.com", mail),
      ).toBe(false);
      expect(await saveApplicationNote(db, key, applicationId, "x", "boss@example.com")).toBe(
        false,
      );
      await expect(
        addDocument(db, key, vault, token, { kind: "id", name: "x.png", bytes: await png() }),
      ).rejects.toThrow(DOCUMENT_REFUSALS.closed);
    });

    it("takes at most 10 documents per adult; a refused one leaves no file behind", async () => {
      const { token, applicationId } = await startApplication(db, key, {
        listing,
        answers,
        step: "documents",
      });
      for (let i = 0; i < 10; i++) {
        await addDocument(db, key, vault, token, {
          kind: "income",
          name: `stub-${i}.png`,
          bytes: await png(),
        });
      }
      await expect(
        addDocument(db, key, vault, token, {
          kind: "income",
          name: "one-more.png",
          bytes: await png(),
        }),
      ).rejects.toThrow(DOCUMENT_REFUSALS.tooMany);
      const files = await fs.readdir(path.join(root, "applications", String(applicationId)));
      expect(files).toHaveLength(10);
    });
  });
}
