// One staff history for leads and applications, on both databases: recorded in order, read
// oldest or newest first, counted per action, each kind in its own table.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbTargets } from "../../tests/support/db-targets";
import type { Db } from "./db.server";
import { countStaffEvents, recordStaffEvent, staffEventsOf } from "./staff-events.server";

for (const target of dbTargets) {
  describe(`staff events (${target.name})`, () => {
    let db: Db;
    let cleanup: () => Promise<void>;
    let lead: number;
    let application: number;
    beforeAll(async () => {
      ({ db, cleanup } = await target.open());
      [{ id: lead }] = (await db.query<{ id: number }>(
        "INSERT INTO leads (kind, name, email, message) VALUES ('inquiry', 'Ana', 'ana@example.com', 'Hi') RETURNING id::int AS id",
      )) as [{ id: number }];
      [{ id: application }] = (await db.query<{ id: number }>(
        "INSERT INTO applications (status) VALUES ('received') RETURNING id::int AS id",
      )) as [{ id: number }];
    });
    afterAll(async () => cleanup?.());

    it("records a lead's events with who did it and reads them in order", async () => {
      await recordStaffEvent(db, "lead", lead, null, "received");
      await recordStaffEvent(db, "lead", lead, "boss@example.com", "status", {
        from: "new",
        to: "contacted",
      });
      await recordStaffEvent(db, "lead", lead, "boss@example.com", "confirm", { time: "x" });
      const events = await staffEventsOf(db, "lead", [lead]);
      expect(events.map((e) => [e.itemId, e.action, e.byEmail, e.detail])).toEqual([
        [lead, "received", null, {}],
        [lead, "status", "boss@example.com", { from: "new", to: "contacted" }],
        [lead, "confirm", "boss@example.com", { time: "x" }],
      ]);
      expect(events[0]?.at).toBeInstanceOf(Date);
      expect(await countStaffEvents(db, "lead", lead, "confirm")).toBe(1);
      expect(await staffEventsOf(db, "lead", [])).toEqual([]);
    });

    it("keeps an application's events apart, newest first when asked", async () => {
      await recordStaffEvent(db, "application", application, "boss@example.com", "viewed");
      await recordStaffEvent(db, "application", application, "boss@example.com", "note");
      const newest = await staffEventsOf(db, "application", [application], { newestFirst: true });
      expect(newest.map((e) => e.action)).toEqual(["note", "viewed"]);
      const [n] = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM application_events WHERE application_id = $1",
        [application],
      );
      expect(n?.n).toBe(2);
      expect(await countStaffEvents(db, "lead", application, "note")).toBe(0);
    });
  });
}
