// Leads on both databases (docs/behaviour.md §27): stored with their e-mail in one transaction,
// counted for 'Inbox (3)', and deleted with that e-mail LEAD_RETENTION_DAYS after they were
// closed, never while open.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "~/shared/db.server";
import { dbTargets } from "../../../tests/support/db-targets";
import {
  countNewLeads,
  eraseLeadsOf,
  purgeClosedLeads,
  setLeadStatus,
  storeLead,
} from "./leads.server";
import { TEST_LEAD_MAIL } from "./test-lead-mail";

const mail = TEST_LEAD_MAIL;
const values = (email: string) => ({
  name: "Ana",
  email,
  phone: "",
  message: "Hello",
  showing: false,
  times: [],
});

for (const target of dbTargets) {
  describe(`leads (${target.name})`, () => {
    let db: Db;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ db, cleanup } = await target.open());
    });
    afterAll(async () => cleanup?.());

    const store = (email: string) =>
      storeLead(
        db,
        { collection: null, listingId: null, listingAddress: null, values: values(email) },
        mail,
      );
    const mailRefs = async () =>
      (await db.query<{ ref: string }>("SELECT ref FROM outbox ORDER BY id")).map((r) => r.ref);

    it("stores a lead with its two e-mails, and counts the new ones", async () => {
      const id = await store("one@example.com");
      expect(await mailRefs()).toEqual([`lead:${id}`, `lead:${id}`]);
      expect(await countNewLeads(db)).toBe(1);
      expect(await setLeadStatus(db, id, "contacted", "boss@example.com")).toBe(true);
      expect(await countNewLeads(db)).toBe(0);
    });

    it("deletes leads closed longer ago than the retention, with their e-mail, and no others", async () => {
      const old = await store("old@example.com");
      const recent = await store("recent@example.com");
      const open = await store("open@example.com");
      await setLeadStatus(db, old, "closed", null);
      await setLeadStatus(db, recent, "closed", null);
      await db.query(
        "UPDATE leads SET closed_at = now() - interval '366 days', created_at = now() - interval '400 days' WHERE id = $1",
        [old],
      );
      await db.query("UPDATE leads SET created_at = now() - interval '400 days' WHERE id = $1", [
        open,
      ]);
      expect(await purgeClosedLeads(db, 365)).toBe(1);
      const left = await db.query<{ id: number }>("SELECT id::int AS id FROM leads ORDER BY id");
      expect(left.map((r) => r.id)).not.toContain(old);
      expect(left.map((r) => r.id)).toEqual(expect.arrayContaining([recent, open]));
      expect(await mailRefs()).not.toContain(`lead:${old}`);
      expect(await mailRefs()).toContain(`lead:${recent}`);
      // Reopening a closed lead stops its clock.
      await setLeadStatus(db, recent, "new", null);
      const [row] = await db.query<{ closed_at: unknown }>(
        "SELECT closed_at FROM leads WHERE id = $1",
        [recent],
      );
      expect(row?.closed_at).toBeNull();
    });

    it("'Erase this person' takes every lead of the address in any case, and only those", async () => {
      await store("Twice@Example.com");
      await store("twice@example.com");
      const before = (await db.query("SELECT 1 FROM leads")).length;
      expect(await eraseLeadsOf(db, " TWICE@example.com ")).toBe(2);
      expect((await db.query("SELECT 1 FROM leads")).length).toBe(before - 2);
      expect(
        await db.query("SELECT 1 FROM leads WHERE lower(email) = 'twice@example.com'"),
      ).toEqual([]);
    });
  });
}
