// 'Activity' (docs/behaviour.md §6, "Activity"): events stored as they are logged, listed newest
// first by person and kind, and gone after ACTIVITY_RETENTION_DAYS; on both databases.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "~/shared/db.server";
import { logEvent } from "~/shared/events.server";
import { withRequestId } from "~/shared/logger.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { activityChoices, activityRecorder, listActivity, purgeActivity } from "./activity.server";

describe.each(dbTargets)("activity on $name", (target) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await target.open());
  });
  afterAll(async () => cleanup?.());
  beforeEach(async () => {
    await db.exec("DELETE FROM activity_events");
  });

  /** The recorder writes beside the request: wait for its rows. */
  const stored = (n: number) =>
    vi.waitFor(async () => {
      const [row] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM activity_events");
      expect(row?.n).toBe(n);
    });

  it("stores a request's events for its own site, with short details only", async () => {
    const audit = activityRecorder(db);
    withRequestId(
      "r1",
      () => {
        logEvent("listing saved", "boss@example.com", {
          collection: "properties",
          id: "1-main-st",
          nested: { email: "renter@example.com" },
        });
        logEvent("sign-in refused", null, { method: "code" });
      },
      audit,
    );
    // Outside the request, with no process sink: not stored here.
    logEvent("listing saved", "elsewhere@example.com", { id: "x" });
    await stored(2);
    const { items, total } = await listActivity(db, { page: 1 });
    expect(total).toBe(2);
    expect(items.map((i) => [i.who, i.kind, i.details])).toEqual([
      [null, "sign-in refused", { method: "code" }],
      ["boss@example.com", "listing saved", { collection: "properties", id: "1-main-st" }],
    ]);
    expect(await activityChoices(db)).toEqual({
      people: ["boss@example.com"],
      kinds: ["listing saved", "sign-in refused"],
    });
  });

  it("stores one request's events in the order they were logged", async () => {
    const audit = activityRecorder(db);
    withRequestId(
      "r2",
      () => {
        for (let i = 0; i < 30; i++) logEvent("listing saved", "boss@example.com", { n: i });
      },
      audit,
    );
    await stored(30);
    const { items } = await listActivity(db, { page: 1 });
    const logged = Array.from({ length: 30 }, (_, i) => 29 - i);
    expect(items.map((i) => i.details.n)).toEqual(logged);
  });

  it("lists 50 a page, newest first, by person and by kind", async () => {
    for (let i = 0; i < 55; i++) {
      await db.query(
        "INSERT INTO activity_events (at, who, kind, details) VALUES ($1, $2, $3, '{}')",
        [
          new Date(Date.UTC(2027, 0, 1, 0, i)),
          i % 2 ? "a@example.com" : "b@example.com",
          i % 5 ? "listing saved" : "sign-in",
        ],
      );
    }
    const first = await listActivity(db, { page: 1 });
    expect(first.total).toBe(55);
    expect(first.items).toHaveLength(50);
    expect(first.items[0]?.at).toBe("2027-01-01T00:54:00.000Z");
    expect((await listActivity(db, { page: 2 })).items).toHaveLength(5);
    const byA = await listActivity(db, { page: 1, who: "a@example.com" });
    expect(byA.total).toBe(27);
    expect(byA.items.every((i) => i.who === "a@example.com")).toBe(true);
    const signIns = await listActivity(db, { page: 1, kind: "sign-in", who: "b@example.com" });
    expect(signIns.total).toBe(6);
  });

  it("deletes events older than the retention", async () => {
    const now = new Date(Date.UTC(2028, 0, 1));
    await db.query(
      `INSERT INTO activity_events (at, kind) VALUES ($1, 'sign-in'), ($2, 'sign-in')`,
      [new Date(now.getTime() - 401 * 86_400_000), new Date(now.getTime() - 399 * 86_400_000)],
    );
    expect(await purgeActivity(db, 400, now)).toBe(1);
    expect((await listActivity(db, { page: 1 })).total).toBe(1);
  });
});
