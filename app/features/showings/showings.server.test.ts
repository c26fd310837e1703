// Booked showings on both databases (docs/behaviour.md §33): a slot never holds more than
// 'Visitors per slot', even when renters book it at the same moment; a cancelled seat is free
// at once; the private link opens its showing only; erasure and the hours' round trip.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_SHOWING_HOURS, type ShowingHours } from "~/domain/showing-slots";
import type { Db } from "~/shared/db.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { checkHoursForm, getShowingHours, hoursValues, saveShowingHours } from "./hours.server";
import {
  bookShowing,
  cancelByToken,
  eraseShowingsOf,
  freeSlots,
  moveShowing,
  type ShowingListing,
  showingByToken,
} from "./showings.server";

const listing: ShowingListing = { collection: "properties", id: "1-elm", address: "1 Elm St" };
const person = (n: number) => ({
  name: `Renter ${n}`,
  email: `renter${n}@example.com`,
  phone: "",
  moveIn: null,
  people: null,
});
const start = new Date("2026-12-01T15:00:00Z");
const end = new Date("2026-12-01T15:30:00Z");
const hours = (visitorsPerSlot: number): ShowingHours => ({
  ...DEFAULT_SHOWING_HOURS,
  week: { ...DEFAULT_SHOWING_HOURS.week, Tuesday: { from: "10:00", to: "11:00" } },
  minimumNoticeHours: 0,
  visitorsPerSlot,
});

describe.each(dbTargets)("showings on $name", (target) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await target.open());
  });
  afterAll(async () => cleanup?.());
  beforeEach(async () => {
    await db.exec("DELETE FROM showings; DELETE FROM showing_hours");
  });

  it("gives each of 'Visitors per slot' a seat, then answers that the time is taken", async () => {
    const book = (n: number, cap: number) =>
      bookShowing(db, { listing, start, end, person: person(n) }, hours(cap));
    expect((await book(1, 2)).ok).toBe(true);
    expect((await book(2, 2)).ok).toBe(true);
    expect(await book(3, 2)).toEqual({ ok: false, reason: "taken" });
    const now = new Date("2026-11-30T12:00:00Z");
    const free = await freeSlots(db, hours(2), listing, now);
    const thatDay = free.filter((s) => s.date === "2026-12-01");
    expect(thatDay.map((s) => s.start.toISOString())).toEqual(["2026-12-01T15:30:00.000Z"]);
    // Another listing's same time is its own.
    const other = { ...listing, id: "2-oak" };
    expect(
      (await bookShowing(db, { listing: other, start, end, person: person(4) }, hours(1))).ok,
    ).toBe(true);
  });

  it("lets only one of ten renters who book the last seat at the same moment have it", async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        bookShowing(db, { listing, start, end, person: person(n) }, hours(1)),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const [row] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM showings");
    expect(row?.n).toBe(1);
  });

  it("frees a cancelled seat at once; the private link opens its own showing only", async () => {
    const booked = await bookShowing(db, { listing, start, end, person: person(1) }, hours(1));
    if (!booked.ok) throw new Error("not booked");
    expect((await showingByToken(db, booked.token))?.name).toBe("Renter 1");
    expect(await showingByToken(db, "x".repeat(43))).toBeNull();
    expect(await showingByToken(db, "not a token")).toBeNull();
    expect((await cancelByToken(db, booked.token))?.status).toBe("cancelled");
    // Twice: nothing more to cancel.
    expect(await cancelByToken(db, booked.token)).toBeNull();
    const again = await bookShowing(db, { listing, start, end, person: person(2) }, hours(1));
    expect(again.ok).toBe(true);
  });

  it("holds a slot to a lowered 'Visitors per slot' although seats above it are held", async () => {
    const book = (n: number, cap: number) =>
      bookShowing(db, { listing, start, end, person: person(n) }, hours(cap));
    const first = await book(1, 3);
    expect((await book(2, 3)).ok).toBe(true);
    expect((await book(3, 3)).ok).toBe(true);
    if (!first.ok) throw new Error("not booked");
    await cancelByToken(db, first.token);
    // Seat 1 is free, but two live bookings already fill a slot of 1 (or 2).
    expect(await book(4, 1)).toEqual({ ok: false, reason: "taken" });
    expect(await book(4, 2)).toEqual({ ok: false, reason: "taken" });
    expect((await book(4, 3)).ok).toBe(true);
  });

  it("moves a live showing in one step; a cancelled, past or twice-used link moves nothing", async () => {
    const now = new Date("2026-11-30T12:00:00Z");
    const later = {
      start: new Date("2026-12-01T16:00:00Z"),
      end: new Date("2026-12-01T16:30:00Z"),
    };
    const booked = await bookShowing(db, { listing, start, end, person: person(1) }, hours(1));
    if (!booked.ok) throw new Error("not booked");
    // Two moves at once (a double click): one moves it, the other finds it gone.
    const [a, b] = await Promise.all([
      moveShowing(db, booked.token, later, hours(1), now),
      moveShowing(db, booked.token, later, hours(1), now),
    ]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    const rows = await db.query<{ status: string; start: Date }>(
      "SELECT status, starts_at AS start FROM showings ORDER BY id",
    );
    expect(rows.map((r) => [r.status, new Date(r.start).toISOString()])).toEqual([
      ["cancelled", start.toISOString()],
      ["booked", later.start.toISOString()],
    ]);
    // The old link is spent; the new one works, but not once the showing has begun.
    expect(await moveShowing(db, booked.token, later, hours(1), now)).toEqual({
      ok: false,
      reason: "gone",
    });
    const moved = a.ok ? a : b.ok ? b : null;
    if (!moved) throw new Error("not moved");
    const afterStart = new Date("2026-12-01T16:05:00Z");
    expect((await moveShowing(db, moved.token, { start, end }, hours(1), afterStart)).ok).toBe(
      false,
    );
  });

  it("erases a person's showings, whatever the case of their address", async () => {
    await bookShowing(db, { listing, start, end, person: person(1) }, hours(2));
    await bookShowing(db, { listing, start, end, person: person(2) }, hours(2));
    expect(await eraseShowingsOf(db, " RENTER1@example.com")).toBe(1);
    const rows = await db.query<{ email: string }>("SELECT email FROM showings");
    expect(rows.map((r) => r.email)).toEqual(["renter2@example.com"]);
  });

  it("stores the hours as saved, the defaults before", async () => {
    expect(await getShowingHours(db)).toEqual(DEFAULT_SHOWING_HOURS);
    await saveShowingHours(db, hours(3), "boss@example.com");
    expect(await getShowingHours(db)).toEqual(hours(3));
  });
});

describe("the 'Showing hours' form", () => {
  const form = (over: Record<string, string>) => {
    const data = new FormData();
    for (const [k, v] of Object.entries({ ...hoursValues(DEFAULT_SHOWING_HOURS), ...over }))
      data.set(k, v);
    return data;
  };

  it("reads days, settings, closed dates and reminders", () => {
    const read = checkHoursForm(
      form({
        "from-Monday": "09:00",
        "to-Monday": "17:30",
        slotMinutes: "45",
        closedDates: "2026-12-25\n2026-12-24, 2026-12-25",
        reminderHours: "2, 24",
        cancelIfNotConfirmedHours: "4",
        timeZone: "America/Chicago",
      }),
    );
    expect(read).toMatchObject({
      ok: true,
      hours: {
        week: { Monday: { from: "09:00", to: "17:30" }, Tuesday: null },
        slotMinutes: 45,
        closedDates: ["2026-12-24", "2026-12-25"],
        reminderHours: [24, 2],
        cancelIfNotConfirmedHours: 4,
        timeZone: "America/Chicago",
      },
    });
  });

  it("refuses each wrong field with its message and keeps what was typed", () => {
    const read = checkHoursForm(
      form({
        "from-Friday": "10:00",
        "to-Friday": "09:00",
        "from-Saturday": "9am",
        slotMinutes: "20",
        closedDates: "2026-02-30",
        timeZone: "Mars/Olympus",
        visitorsPerSlot: "0",
      }),
    );
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.errors).toEqual({
      "to-Friday": "Enter a time after 'From'.",
      "from-Saturday": "Enter a time such as 09:00, or leave both empty.",
      "to-Saturday": "Enter a time such as 17:00, or leave both empty.",
      slotMinutes: "Choose 15, 30, 45 or 60 minutes.",
      closedDates: "Enter dates as YYYY-MM-DD, separated by commas or new lines.",
      timeZone: "Enter a time zone such as America/New_York.",
      visitorsPerSlot: "Enter a whole number from 1 to 20.",
    });
    expect(read.values["from-Saturday"]).toBe("9am");
  });

  it("refuses a 'Cancel if not confirmed' no reminder comes before", () => {
    const deadline = (reminderHours: string, cancelIfNotConfirmedHours: string) => {
      const read = checkHoursForm(
        form({
          "from-Monday": "09:00",
          "to-Monday": "17:00",
          reminderHours,
          cancelIfNotConfirmedHours,
        }),
      );
      return read.ok ? "saved" : read.errors.cancelIfNotConfirmedHours;
    };
    const refusal =
      "Enter fewer hours than the earliest reminder, so that renters are asked to confirm first.";
    expect(deadline("24, 2", "3")).toBe("saved");
    expect(deadline("24, 2", "24")).toBe(refusal);
    expect(deadline("", "3")).toBe(refusal);
    expect(deadline("", "")).toBe("saved");
  });
});
