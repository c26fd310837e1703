// Listing alerts on both databases (docs/behaviour.md §31): double opt-in, one e-mail when a
// watched property becomes available (whoever makes it so), the daily e-mail of new matches
// with a fixed clock, one-click unsubscribe deleting the address, and the purge.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { insertListing, setAvailability } from "~/features/listings/queries.server";
import { type Db, migrate, openDb } from "~/shared/db.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { propertyInput } from "../../../tests/support/listing-input";
import {
  confirmAlert,
  createAlert,
  purgeUnconfirmedAlerts,
  runSearchDigest,
  sendDueAlerts,
  unsubscribe,
} from "./alerts.server";

const ctx = { publicUrl: "https://rent.example.com" };
const DAY = 24 * 3600_000;

interface Mail {
  kind: string;
  to: string[];
  subject: string;
  body: string;
  unsubscribeUrl: string | null;
}

for (const target of dbTargets) {
  describe(`listing alerts (${target.name})`, () => {
    let db: Db;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ db, cleanup } = await target.open());
    });
    afterAll(async () => cleanup?.());
    beforeEach(async () => {
      await db.query("DELETE FROM listing_alerts");
      await db.query("DELETE FROM alert_unsubscribe_tokens");
      await db.query("DELETE FROM listings");
      await db.query("DELETE FROM outbox");
      await db.query("DELETE FROM scheduled_runs");
    });

    const mails = () =>
      db.query<Mail>(
        `SELECT kind, to_addresses AS "to", subject, body, unsubscribe_url AS "unsubscribeUrl"
         FROM outbox ORDER BY id`,
      );
    const tokenIn = (url: string | null | undefined) =>
      new URL(url ?? "http://x/").searchParams.get("token");
    const confirmLink = (mail: Mail | undefined) =>
      /https:\/\/rent\.example\.com\/alerts\/confirm\?token=([A-Za-z0-9_-]{43})/.exec(
        mail?.body ?? "",
      )?.[1] ?? null;
    const alertCount = async () =>
      (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM listing_alerts"))[0]?.n;

    it("'Notify me': a confirmation only, then one e-mail when the property becomes available", async () => {
      await insertListing(db, "properties", "9-watch-way", propertyInput("9 Watch Way"));
      await createAlert(
        db,
        "ana@example.com",
        {
          kind: "listing",
          collection: "properties",
          listingId: "9-watch-way",
          address: "9 Watch Way",
        },
        ctx,
      );
      const [confirmation, ...others] = await mails();
      expect(others).toEqual([]);
      expect(confirmation).toMatchObject({
        kind: "alert-confirm",
        to: ["ana@example.com"],
        subject: "Confirm your e-mail alert",
      });
      expect(confirmation?.body).toContain("when 9 Watch Way is available again");
      expect(confirmation?.unsubscribeUrl).toMatch(
        /^https:\/\/rent\.example\.com\/alerts\/unsubscribe\?token=[A-Za-z0-9_-]{43}$/,
      );
      // The same link in the text, for people whose mail client shows no unsubscribe button.
      expect(confirmation?.body).toContain(
        `To stop these e-mails and delete your address from our alerts: ${confirmation?.unsubscribeUrl}`,
      );

      // Not confirmed: becoming available sends nothing.
      await setAvailability(db, "9-watch-way", true);
      expect(await sendDueAlerts(db, ctx)).toBe(0);
      expect(await mails()).toHaveLength(1);
      await setAvailability(db, "9-watch-way", false);

      expect(await confirmAlert(db, "not-a-token")).toBe(false);
      expect(await confirmAlert(db, "A".repeat(43))).toBe(false);
      expect(await confirmAlert(db, confirmLink(confirmation))).toBe(true);
      // A save that leaves it unavailable, or an unrelated change, sends nothing.
      await db.query("UPDATE listings SET description = 'x' WHERE id = '9-watch-way'");
      expect(await sendDueAlerts(db, ctx)).toBe(0);

      // Made available out of band (psql): the trigger marks the alert due all the same.
      await db.query("UPDATE listings SET currently_available = true WHERE id = '9-watch-way'");
      expect(await sendDueAlerts(db, ctx)).toBe(1);
      const available = (await mails()).at(-1);
      expect(available).toMatchObject({
        kind: "alert-available",
        to: ["ana@example.com"],
        subject: "Now available: 9 Watch Way",
      });
      expect(available?.body).toContain("https://rent.example.com/properties/9-watch-way");
      expect(available?.unsubscribeUrl).toContain("/alerts/unsubscribe?token=");
      expect(available?.body).toContain(`${available?.unsubscribeUrl}`);
      // The alert has ended: toggling again sends nothing more.
      expect(await alertCount()).toBe(0);
      await setAvailability(db, "9-watch-way", false);
      await setAvailability(db, "9-watch-way", true);
      expect(await sendDueAlerts(db, ctx)).toBe(0);
      expect(await mails()).toHaveLength(2);
    });

    it("the daily e-mail of new matches, once a day, only listings added since the last", async () => {
      const t0 = new Date("2027-05-01T08:00:00Z");
      await createAlert(
        db,
        "ben@example.com",
        {
          kind: "search",
          collection: "properties",
          search: new URLSearchParams("beds=3&sort=rent-asc"),
        },
        ctx,
      );
      const [confirmation] = await mails();
      expect(confirmation?.body).toContain("properties (beds=3)");
      // Unconfirmed: no digest.
      await db.query("UPDATE listing_alerts SET created_at = $1", [new Date(t0.getTime() - DAY)]);
      await insertListing(
        db,
        "properties",
        "1-big-house",
        propertyInput("1 Big House", { bedrooms: 4 }),
      );
      await db.query("UPDATE listings SET created_at = $1", [new Date(t0.getTime() - 3600_000)]);
      expect(await runSearchDigest(db, { ...ctx, now: t0 })).toBe(0);
      expect(await mails()).toHaveLength(1);

      await confirmAlert(db, confirmLink(confirmation));
      await db.query("UPDATE listing_alerts SET confirmed_at = $1", [
        new Date(t0.getTime() - 2 * 3600_000).toISOString(),
      ]);
      // Not due again the same day.
      expect(await runSearchDigest(db, { ...ctx, now: new Date(t0.getTime() + 3600_000) })).toBe(
        null,
      );
      const day1 = new Date(t0.getTime() + DAY);
      await insertListing(
        db,
        "properties",
        "2-small-flat",
        propertyInput("2 Small Flat", { bedrooms: 1 }),
      );
      await insertListing(
        db,
        "properties",
        "3-family-home",
        propertyInput("3 Family Home", { bedrooms: 3, bathrooms: 2 }),
      );
      await db.query(
        "UPDATE listings SET created_at = $1 WHERE id IN ('2-small-flat', '3-family-home')",
        [new Date(day1.getTime() - 3600_000).toISOString()],
      );
      expect(await runSearchDigest(db, { ...ctx, now: day1 })).toBe(1);
      const digest = (await mails()).at(-1);
      expect(digest).toMatchObject({
        kind: "alert-matches",
        to: ["ben@example.com"],
        subject: "2 new listings match your search",
      });
      expect(digest?.body).toContain(
        "- 3 Family Home (3 Bedrooms | 2 Bathrooms): https://rent.example.com/properties/3-family-home",
      );
      expect(digest?.body).toContain("- 1 Big House");
      expect(digest?.body).not.toContain("2 Small Flat");
      expect(digest?.body).toContain("https://rent.example.com/properties?beds=3");
      // Each e-mail has its own unsubscribe token (only hashes are kept); each is a valid link.
      expect(tokenIn(digest?.unsubscribeUrl)).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(tokenIn(digest?.unsubscribeUrl)).not.toBe(tokenIn(confirmation?.unsubscribeUrl));
      expect(digest?.body).toContain(`${digest?.unsubscribeUrl}`);

      // The next day: nothing new, nothing sent.
      expect(await runSearchDigest(db, { ...ctx, now: new Date(day1.getTime() + DAY) })).toBe(0);
      expect(await mails()).toHaveLength(2);
    });

    it("an alert confirmed after its property became available is sent at once", async () => {
      await insertListing(db, "properties", "9-watch-way", propertyInput("9 Watch Way"));
      await createAlert(
        db,
        "dee@example.com",
        {
          kind: "listing",
          collection: "properties",
          listingId: "9-watch-way",
          address: "9 Watch Way",
        },
        ctx,
      );
      const [confirmation] = await mails();
      await setAvailability(db, "9-watch-way", true);
      expect(await confirmAlert(db, confirmLink(confirmation))).toBe(true);
      expect(await sendDueAlerts(db, ctx)).toBe(1);
      expect((await mails()).at(-1)?.subject).toBe("Now available: 9 Watch Way");
    });

    it("a property made available and let again before the worker ran sends nothing yet", async () => {
      await insertListing(db, "properties", "9-watch-way", propertyInput("9 Watch Way"));
      await createAlert(
        db,
        "eve@example.com",
        {
          kind: "listing",
          collection: "properties",
          listingId: "9-watch-way",
          address: "9 Watch Way",
        },
        ctx,
      );
      await confirmAlert(db, confirmLink((await mails())[0]));
      await setAvailability(db, "9-watch-way", true);
      await setAvailability(db, "9-watch-way", false);
      expect(await sendDueAlerts(db, ctx)).toBe(0);
      expect(await alertCount()).toBe(1);
      await setAvailability(db, "9-watch-way", true);
      expect(await sendDueAlerts(db, ctx)).toBe(1);
    });

    it("unsubscribing deletes the address from every alert, with its waiting e-mails", async () => {
      await insertListing(db, "properties", "9-watch-way", propertyInput("9 Watch Way"));
      const watch = {
        kind: "listing",
        collection: "properties",
        listingId: "9-watch-way",
        address: "9 Watch Way",
      } as const;
      await createAlert(db, "Cy@Example.com", watch, ctx);
      await createAlert(
        db,
        "cy@example.com",
        { kind: "search", collection: "properties", search: new URLSearchParams("beds=2") },
        ctx,
      );
      await createAlert(db, "other@example.com", watch, ctx);
      const [first] = await mails();
      expect(await unsubscribe(db, "bad")).toBe(false);
      expect(await unsubscribe(db, tokenIn(first?.unsubscribeUrl))).toBe(true);
      expect(await db.query("SELECT email FROM listing_alerts")).toEqual([
        { email: "other@example.com" },
      ]);
      expect((await mails()).map((m) => m.to[0])).toEqual(["other@example.com"]);
      // The link again: nothing left to find.
      expect(await unsubscribe(db, tokenIn(first?.unsubscribeUrl))).toBe(false);
    });

    it("keeps no unsubscribe token in clear: only its SHA-256, looked up by hash", async () => {
      await insertListing(db, "properties", "9-watch-way", propertyInput("9 Watch Way"));
      await createAlert(
        db,
        "dee@example.com",
        {
          kind: "listing",
          collection: "properties",
          listingId: "9-watch-way",
          address: "9 Watch Way",
        },
        ctx,
      );
      const token = tokenIn((await mails())[0]?.unsubscribeUrl) ?? "";
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // Every stored value outside the outbox (the message itself) is searched for the token.
      const tables = await db.query<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables
         WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'outbox'`,
      );
      for (const { name } of tables) {
        const rows = await db.query<{ row: string }>(`SELECT t::text AS row FROM "${name}" t`);
        for (const { row } of rows) expect(row, name).not.toContain(token);
      }
      const sha = createHash("sha256").update(token).digest("hex");
      const stored = await db.query("SELECT token_hash FROM alert_unsubscribe_tokens");
      expect(stored).toEqual([{ token_hash: sha }]);
      expect(await unsubscribe(db, token)).toBe(true);
      expect(await db.query("SELECT * FROM alert_unsubscribe_tokens")).toEqual([]);
    });

    it("deletes unconfirmed alerts after a week, never confirmed ones", async () => {
      await insertListing(db, "properties", "9-watch-way", propertyInput("9 Watch Way"));
      const watch = {
        kind: "listing",
        collection: "properties",
        listingId: "9-watch-way",
        address: "9 Watch Way",
      } as const;
      await createAlert(db, "old@example.com", watch, ctx);
      await createAlert(db, "kept@example.com", watch, ctx);
      const [, kept] = await mails();
      await confirmAlert(db, confirmLink(kept));
      await db.query("UPDATE listing_alerts SET created_at = now() - interval '8 days'");
      expect(await purgeUnconfirmedAlerts(db)).toBe(1);
      expect(await db.query("SELECT email FROM listing_alerts")).toEqual([
        { email: "kept@example.com" },
      ]);
      // A deleted listing takes its alerts with it.
      await db.query("DELETE FROM listings WHERE id = '9-watch-way'");
      expect(await alertCount()).toBe(0);
    });
  });
}

describe("migration 0017 on alerts from before it", () => {
  it("replaces each clear unsubscribe token by its hash, and the old link still works", async () => {
    const db = await openDb({ dataDir: "memory://", migrate: false });
    try {
      await migrate(db, undefined, { until: "0016_rental_applications.sql" });
      const token = "T".repeat(43);
      await db.query(
        `INSERT INTO listing_alerts (kind, email, token_hash, unsubscribe_token, collection, search)
         VALUES ('search', 'old@example.com', 'h', $1, 'properties', 'beds=2')`,
        [token],
      );
      await migrate(db);
      const dump = await db.query<{ row: string }>(
        "SELECT t::text AS row FROM listing_alerts t UNION ALL SELECT u::text FROM alert_unsubscribe_tokens u",
      );
      expect(dump.length).toBe(2);
      for (const { row } of dump) expect(row).not.toContain(token);
      expect(await unsubscribe(db, token)).toBe(true);
      expect(await db.query("SELECT id FROM listing_alerts")).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
