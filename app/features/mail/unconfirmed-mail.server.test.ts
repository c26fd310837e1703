// Mail to addresses nobody has confirmed (docs/behaviour.md §26), on both databases: fixed text
// only (nothing the sender typed), and the caps per recipient a day and in all an hour, counted
// in the outbox by the recipient's hash; a refusal is logged with that hash, never the address.
import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAlert } from "~/features/alerts/alerts.server";
import { storeLead } from "~/features/leads/leads.server";
import { TEST_LEAD_MAIL } from "~/features/leads/test-lead-mail";
import type { Db } from "~/shared/db.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { captureLogs, LEVEL } from "../../../tests/support/logs";
import { enqueueMail } from "./outbox.server";

const PHISH = "URGENT: verify your account at https://phish.example/login now";
const caps = { perAddressPerDay: 5, perHour: 100 };

for (const target of dbTargets) {
  describe(`mail to unconfirmed addresses (${target.name})`, () => {
    let db: Db;
    let cleanup: () => Promise<void>;
    let logs: ReturnType<typeof captureLogs>;
    beforeAll(async () => {
      ({ db, cleanup } = await target.open());
    });
    afterAll(async () => cleanup?.());
    beforeEach(async () => {
      await db.query("DELETE FROM outbox");
      await db.query("DELETE FROM leads");
      await db.query("DELETE FROM listing_alerts");
      logs = captureLogs("info");
    });
    afterEach(() => logs.restore());

    const lead = (email: string, name = "Ana", message = "Hello") =>
      storeLead(
        db,
        {
          collection: null,
          listingId: null,
          listingAddress: "12 Oak Street",
          values: { name, email, phone: "", message, showing: false, times: [] },
        },
        { ...TEST_LEAD_MAIL, unconfirmed: caps },
      );
    const mailsOf = (kind: string) =>
      db.query<{ to: string[]; body: string }>(
        `SELECT to_addresses AS "to", body FROM outbox WHERE kind = $1 ORDER BY id`,
        [kind],
      );

    it("the inquiry confirmation carries no typed name or message", async () => {
      await lead("victim@example.com", PHISH.slice(0, 60), PHISH);
      const [confirmation] = await mailsOf("lead-confirmation");
      expect(confirmation?.body).toContain("12 Oak Street");
      expect(confirmation?.body).not.toContain("phish.example");
      expect(confirmation?.body).not.toContain("URGENT");
      // Staff still get the whole message.
      expect((await mailsOf("lead"))[0]?.body).toContain(PHISH);
    });

    it("the alert confirmation carries no typed search words nor the typed address", async () => {
      await createAlert(
        db,
        "victim@example.com",
        { kind: "search", collection: "properties", search: new URLSearchParams({ q: PHISH }) },
        { publicUrl: "https://rent.example.com", unconfirmed: caps },
      );
      const [confirmation] = await mailsOf("alert-confirm");
      expect(confirmation?.to).toEqual(["victim@example.com"]);
      expect(confirmation?.body).not.toContain("phish");
      expect(confirmation?.body).not.toContain("URGENT");
      expect(confirmation?.body).not.toContain("victim@example.com");
    });

    it("refuses the 6th confirmation to one address in a day, keeps the lead, logs a hash", async () => {
      for (let i = 0; i < 6; i++)
        await lead(i === 2 ? " Victim@Example.com" : "victim@example.com");
      expect(await mailsOf("lead-confirmation")).toHaveLength(5);
      // Every lead is kept and staff hear of each.
      const [n] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM leads");
      expect(n?.n).toBe(6);
      expect(await mailsOf("lead")).toHaveLength(6);
      const refused = logs.at(LEVEL.warn, "unconfirmed address refused");
      expect(refused).toHaveLength(1);
      const hash = createHash("sha256").update("victim@example.com").digest("hex");
      expect(refused[0]?.recipient).toBe(hash);
      expect(JSON.stringify(logs.lines)).not.toContain("victim@");
      // Another address is not held back by this one's cap.
      await lead("other@example.com");
      expect(await mailsOf("lead-confirmation")).toHaveLength(6);
      // A day later the address may be written to again.
      await db.query("UPDATE outbox SET created_at = created_at - interval '25 hours'");
      await lead("victim@example.com");
      expect(await mailsOf("lead-confirmation")).toHaveLength(7);
    });

    it("refuses beyond the hourly cap on all such mail, whoever it is to", async () => {
      const hourly = { perAddressPerDay: 5, perHour: 3 };
      for (const to of ["a@example.com", "b@example.com", "c@example.com", "d@example.com"]) {
        await db.transaction((tx) =>
          enqueueMail(tx, { kind: "test", to: [to], subject: "s", body: "b", unconfirmed: hourly }),
        );
      }
      const rows = await db.query<{ to: string[] }>(`SELECT to_addresses AS "to" FROM outbox`);
      expect(rows.map((r) => r.to[0])).toEqual(["a@example.com", "b@example.com", "c@example.com"]);
      expect(logs.at(LEVEL.warn, "unconfirmed address refused")[0]?.cap).toBe("an hour");
      // Mail to confirmed or staff addresses is never counted nor refused.
      await db.transaction((tx) =>
        enqueueMail(tx, { kind: "test", to: ["staff@example.com"], subject: "s", body: "b" }),
      );
      expect(await db.query("SELECT id FROM outbox")).toHaveLength(4);
    });

    it("an alert over the caps is not kept, and says so", async () => {
      const alert = {
        kind: "search",
        collection: "properties",
        search: new URLSearchParams(),
      } as const;
      const ctx = {
        publicUrl: "https://rent.example.com",
        unconfirmed: { perAddressPerDay: 1, perHour: 100 },
      };
      expect(await createAlert(db, "v@example.com", alert, ctx)).toBe(true);
      expect(await createAlert(db, "v@example.com", alert, ctx)).toBe(false);
      const [n] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM listing_alerts");
      expect(n?.n).toBe(1);
    });
  });
}
