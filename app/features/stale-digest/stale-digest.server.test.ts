// Listings that stay true (docs/behaviour.md §30) on both databases, with a fixed clock: when
// availability counts as confirmed, the staff table's 'Stale' mark and filter, and the weekly
// e-mail, written once a week across instances.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_TABLE_QUERY } from "~/domain/listing-table";
import { listTable } from "~/features/listings/listing-table.server";
import {
  confirmAvailability,
  getListing,
  getListingForEdit,
  insertListing,
  setAvailability,
  updateListing,
} from "~/features/listings/queries.server";
import { getSiteContent } from "~/features/site-settings/index.server";
import type { Db } from "~/shared/db.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { propertyInput } from "../../../tests/support/listing-input";
import { runStaleDigest, STALE_DIGEST_EVERY_DAYS } from "./stale-digest.server";

const DAY = 24 * 3600_000;
const NOW = new Date("2027-03-15T09:00:00Z");
const daysBefore = (days: number, from = NOW) => new Date(from.getTime() - days * DAY);

const property = (address: string, available: boolean) =>
  propertyInput(address, { currently_available: available });

const options = {
  staleAfterDays: 14,
  notify: ["leasing@example.com", "owner@example.com"],
  publicUrl: "https://rent.example.com/",
};

for (const target of dbTargets) {
  describe(`availability checks and the stale digest (${target.name})`, () => {
    let db: Db;
    let cleanup: () => Promise<void>;
    let another: (() => Promise<Db>) | undefined;
    beforeAll(async () => {
      ({ db, cleanup, another } = await target.open());
    });
    afterAll(async () => cleanup?.());
    beforeEach(async () => {
      await db.query("DELETE FROM listings");
      await db.query("DELETE FROM outbox");
      await db.query("DELETE FROM scheduled_runs");
    });

    const checkedAt = (id: string, at: Date) =>
      db.query("UPDATE listings SET availability_checked_at = $2 WHERE id = $1", [
        id,
        at.toISOString(),
      ]);
    const digests = () =>
      db.query<{ to: string[]; subject: string; body: string }>(
        `SELECT to_addresses AS "to", subject, body FROM outbox WHERE kind = 'stale-digest' ORDER BY id`,
      );

    /** Whether a listing's availability was confirmed within the last minute (any day). */
    const justConfirmed = async (id: string) =>
      (
        await db.query<{ recent: boolean }>(
          `SELECT availability_checked_at > now() - interval '1 minute' AS recent
           FROM listings WHERE id = $1`,
          [id],
        )
      )[0]?.recent;

    async function seed() {
      await insertListing(db, "properties", "1-old-road", property("1 Old Road", true));
      await insertListing(db, "properties", "2-older-road", property("2 Older Road", true));
      await insertListing(db, "properties", "3-fresh-road", property("3 Fresh Road", true));
      await insertListing(db, "properties", "4-let-road", property("4 Let Road", false));
      await insertListing(db, "newConstruction", "5-frame-row", {
        ...property("5 Frame Row", false),
        currently_available: null,
        price: null,
      });
      await checkedAt("1-old-road", daysBefore(15));
      await checkedAt("2-older-road", daysBefore(40));
      await checkedAt("3-fresh-road", daysBefore(13));
      await checkedAt("4-let-road", daysBefore(90));
      await checkedAt("5-frame-row", daysBefore(90));
    }

    it("a confirmation is not a change: version and last change stay; saves and toggles confirm", async () => {
      await seed();
      const before = await getListingForEdit(db, "properties", "1-old-road");
      const [{ updated } = { updated: "" }] = await db.query<{ updated: string }>(
        "SELECT updated_at::text AS updated FROM listings WHERE id = '1-old-road'",
      );
      expect(await confirmAvailability(db, "1-old-road")).toBe("confirmed");
      const after = await getListingForEdit(db, "properties", "1-old-road");
      expect(after?.version).toBe(before?.version);
      expect(await justConfirmed("1-old-road")).toBe(true);
      expect(after?.availability_checked_on).not.toBe(before?.availability_checked_on);
      expect(
        (
          await db.query<{ updated: string }>(
            "SELECT updated_at::text AS updated FROM listings WHERE id = '1-old-road'",
          )
        )[0]?.updated,
      ).toBe(updated);
      // Nothing to confirm for a property that is not available, or one that does not exist.
      expect(await confirmAvailability(db, "4-let-road")).toBe("not-available");
      expect(await confirmAvailability(db, "no-such-road")).toBe("missing");
      expect((await getListing(db, "properties", "4-let-road"))?.availability_checked_on).toBe(
        daysBefore(90).toISOString().slice(0, 10),
      );
      // A toggle and a save confirm it, and are changes (the version moves on).
      const before4 = await getListingForEdit(db, "properties", "4-let-road");
      await setAvailability(db, "4-let-road", true);
      const toggled = await getListingForEdit(db, "properties", "4-let-road");
      expect(await justConfirmed("4-let-road")).toBe(true);
      expect(toggled?.version).toBe((before4?.version ?? 0) + 1);
      await checkedAt("2-older-road", daysBefore(40));
      const older = await getListingForEdit(db, "properties", "2-older-road");
      await updateListing(db, "properties", "2-older-road", property("2 Older Road", true));
      const saved = await getListingForEdit(db, "properties", "2-older-road");
      expect(await justConfirmed("2-older-road")).toBe(true);
      expect(saved?.version).toBe((older?.version ?? 0) + 1);
    });

    it("the staff table marks available properties not confirmed for STALE_AFTER_DAYS and filters them", async () => {
      await seed();
      // The table reads the real clock: move the seed so that NOW is today.
      const shift = Date.now() - NOW.getTime();
      await db.query(
        "UPDATE listings SET availability_checked_at = availability_checked_at + make_interval(secs => $1)",
        [shift / 1000],
      );
      const all = await listTable(db, DEFAULT_TABLE_QUERY, 14);
      expect(Object.fromEntries(all.rows.map((r) => [r.id, r.stale]))).toEqual({
        "1-old-road": true,
        "2-older-road": true,
        "3-fresh-road": false,
        "4-let-road": false,
        "5-frame-row": false,
      });
      const stale = await listTable(db, { ...DEFAULT_TABLE_QUERY, stale: true }, 14);
      expect(stale.rows.map((r) => r.id).sort()).toEqual(["1-old-road", "2-older-road"]);
      expect(stale.total).toBe(2);
      // Past the last page, the count alone; and a longer limit leaves fewer stale.
      expect(
        (await listTable(db, { ...DEFAULT_TABLE_QUERY, stale: true, page: 9 }, 14)).total,
      ).toBe(2);
      const longer = await listTable(db, { ...DEFAULT_TABLE_QUERY, stale: true }, 30);
      expect(longer.rows.map((r) => r.id)).toEqual(["2-older-road"]);
      expect(longer.rows[0]?.checked).toBe(
        new Date(daysBefore(40).getTime() + shift).toISOString().slice(0, 10),
      );
    });

    it("writes the weekly e-mail with the stale properties, oldest first, once a week", async () => {
      await seed();
      expect((await runStaleDigest(db, { ...options, now: NOW }))?.map((p) => p.id)).toEqual([
        "2-older-road",
        "1-old-road",
      ]);
      const [mail, ...more] = await digests();
      expect(more).toEqual([]);
      expect(mail?.to).toEqual(["leasing@example.com", "owner@example.com"]);
      expect(mail?.subject).toBe("2 available properties may be out of date");
      expect(mail?.body).toContain(
        "These properties are shown as Available, but nobody has confirmed that for more than 14 days:",
      );
      expect(mail?.body).toContain(
        "- 2 Older Road (availability checked February 3, 2027): https://rent.example.com/properties/2-older-road",
      );
      expect(mail?.body).toContain(
        "- 1 Old Road (availability checked February 28, 2027): https://rent.example.com/properties/1-old-road",
      );
      expect(mail?.body).toContain("https://rent.example.com/admin/listings?stale=1");
      expect(mail?.body).not.toContain("Fresh Road");
      expect(mail?.body).not.toContain("Let Road");
      expect(mail?.body).not.toContain("Frame Row");
      expect((mail?.body ?? "").indexOf("2 Older Road")).toBeLessThan(
        (mail?.body ?? "").indexOf("1 Old Road"),
      );

      // Not due again within the week, whoever asks.
      expect(await runStaleDigest(db, { ...options, now: new Date(NOW.getTime() + DAY) })).toBe(
        null,
      );
      const almost = new Date(NOW.getTime() + STALE_DIGEST_EVERY_DAYS * DAY - 1000);
      expect(await runStaleDigest(db, { ...options, now: almost })).toBe(null);
      expect(await digests()).toHaveLength(1);
      // A week later: due, and 3 Fresh Road is now stale too.
      const week = new Date(NOW.getTime() + STALE_DIGEST_EVERY_DAYS * DAY);
      expect((await runStaleDigest(db, { ...options, now: week }))?.map((p) => p.id)).toEqual([
        "2-older-road",
        "1-old-road",
        "3-fresh-road",
      ]);
      expect((await digests()).map((d) => d.subject)).toEqual([
        "2 available properties may be out of date",
        "3 available properties may be out of date",
      ]);
    });

    it("writes nothing when nothing is stale, and goes to the office e-mail without INBOX_NOTIFY_EMAILS", async () => {
      await insertListing(db, "properties", "3-fresh-road", property("3 Fresh Road", true));
      await checkedAt("3-fresh-road", daysBefore(3));
      expect(await runStaleDigest(db, { ...options, now: NOW })).toEqual([]);
      expect(await digests()).toEqual([]);
      await db.query("DELETE FROM scheduled_runs");
      await checkedAt("3-fresh-road", daysBefore(20));
      await runStaleDigest(db, { ...options, notify: [], now: NOW });
      const [mail] = await digests();
      expect(mail?.subject).toBe("1 available property may be out of date");
      expect(mail?.to).toEqual([(await getSiteContent(db)).office.email]);
    });

    it("two instances asking at once write one e-mail", async () => {
      await seed();
      // PostgreSQL: a second connection pool, as a second server has; PGlite has one.
      const second = (await another?.()) ?? db;
      const runs = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          runStaleDigest(i % 2 ? second : db, { ...options, now: NOW }),
        ),
      );
      expect(runs.filter((r) => r !== null)).toHaveLength(1);
      expect(await digests()).toHaveLength(1);
    });
  });
}
