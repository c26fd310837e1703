// The times showing hours offer (docs/behaviour.md §33): notice, buffer, closed dates, how far
// ahead, full slots, and the wall clock of America/New_York across both daylight-saving changes
// of 2027 (14 March, 7 November).
import { describe, expect, it } from "vitest";
import {
  DEFAULT_SHOWING_HOURS,
  isTimeZone,
  longDayLabel,
  type ShowingHours,
  shortDayLabel,
  showingSlots,
  timeLabel,
  zonedInstant,
} from "./showing-slots";

const hours = (over: Partial<ShowingHours>): ShowingHours => ({
  ...DEFAULT_SHOWING_HOURS,
  minimumNoticeHours: 0,
  ...over,
});
/** Open on Sundays only, bookable one day ahead: the one Sunday after `now`. */
const sundays = (from: string, to: string) =>
  hours({ week: { ...DEFAULT_SHOWING_HOURS.week, Sunday: { from, to } }, bookUpToDays: 1 });
const iso = (slots: { start: Date }[]) => slots.map((s) => s.start.toISOString());

describe("showing slots", () => {
  it("skips the hour that does not exist when summer time starts (2027-03-14)", () => {
    const slots = showingSlots(sundays("01:00", "04:00"), new Date("2027-03-13T12:00:00Z"));
    expect(slots.map((s) => [s.date, s.time])).toEqual([
      ["2027-03-14", "01:00"],
      ["2027-03-14", "01:30"],
      ["2027-03-14", "03:00"],
      ["2027-03-14", "03:30"],
    ]);
    expect(iso(slots)).toEqual([
      "2027-03-14T06:00:00.000Z",
      "2027-03-14T06:30:00.000Z",
      "2027-03-14T07:00:00.000Z",
      "2027-03-14T07:30:00.000Z",
    ]);
  });

  it("offers an hour that occurs twice once, at its first occurrence (2027-11-07)", () => {
    const slots = showingSlots(sundays("00:30", "02:30"), new Date("2027-11-06T12:00:00Z"));
    expect(slots.map((s) => s.time)).toEqual(["00:30", "01:00", "01:30", "02:00"]);
    expect(iso(slots)).toEqual([
      "2027-11-07T04:30:00.000Z",
      "2027-11-07T05:00:00.000Z",
      "2027-11-07T05:30:00.000Z",
      "2027-11-07T07:00:00.000Z",
    ]);
  });

  it("keeps 10:00 AM at 10:00 AM on either side of each change", () => {
    const tenOClock = (date: string) => zonedInstant(date, 10 * 60, "America/New_York");
    expect(tenOClock("2027-03-13")?.toISOString()).toBe("2027-03-13T15:00:00.000Z");
    expect(tenOClock("2027-03-14")?.toISOString()).toBe("2027-03-14T14:00:00.000Z");
    expect(tenOClock("2027-11-06")?.toISOString()).toBe("2027-11-06T14:00:00.000Z");
    expect(tenOClock("2027-11-07")?.toISOString()).toBe("2027-11-07T15:00:00.000Z");
    expect(zonedInstant("2027-03-14", 2 * 60 + 30, "America/New_York")).toBeNull();
  });

  it("honours the minimum notice, the buffer, closed dates and how far ahead one may book", () => {
    const weekdays = { from: "10:00", to: "12:00" };
    const open = hours({
      week: { ...DEFAULT_SHOWING_HOURS.week, Tuesday: weekdays, Wednesday: weekdays },
      slotMinutes: 30,
      bufferMinutes: 15,
      minimumNoticeHours: 2,
      bookUpToDays: 14,
      closedDates: ["2026-12-08"],
    });
    // Tuesday 1 December 2026, 9:30 AM in New York (EST, UTC−5).
    const now = new Date("2026-12-01T14:30:00Z");
    const slots = showingSlots(open, now);
    // 10:00 and 10:45 are within the two hours' notice; a 30-minute slot and 15 minutes after.
    expect(slots.slice(0, 4).map((s) => [s.date, s.time])).toEqual([
      ["2026-12-01", "11:30"],
      ["2026-12-02", "10:00"],
      ["2026-12-02", "10:45"],
      ["2026-12-02", "11:30"],
    ]);
    expect(slots.some((s) => s.date === "2026-12-08")).toBe(false);
    expect(slots.some((s) => s.date === "2026-12-09")).toBe(true);
    // 14 days ahead ends with Tuesday the 15th at 9:30 AM: its 10:00 is beyond.
    expect(slots.at(-1)?.date).toBe("2026-12-09");
    expect(slots[1]?.end.toISOString()).toBe("2026-12-02T15:30:00.000Z");
  });

  it("leaves out a slot its visitors have filled", () => {
    const open = hours({
      week: { ...DEFAULT_SHOWING_HOURS.week, Tuesday: { from: "10:00", to: "11:00" } },
      visitorsPerSlot: 2,
    });
    const now = new Date("2026-11-30T12:00:00Z");
    const first = "2026-12-01T15:00:00.000Z";
    const taken = (n: number) => (start: Date) => (start.toISOString() === first ? n : 0);
    expect(iso(showingSlots(open, now, taken(1)))).toContain(first);
    expect(iso(showingSlots(open, now, taken(2)))).not.toContain(first);
  });

  it("offers nothing when every day is closed", () => {
    expect(showingSlots(DEFAULT_SHOWING_HOURS, new Date("2026-12-01T12:00:00Z"))).toEqual([]);
  });

  it("writes days and times as the issue's examples do", () => {
    expect(shortDayLabel("2026-12-01")).toBe("Tue, Dec 1");
    expect(longDayLabel("2026-12-01")).toBe("Tuesday, December 1");
    expect(timeLabel("10:30")).toBe("10:30 AM");
    expect(timeLabel("00:15")).toBe("12:15 AM");
    expect(timeLabel("12:00")).toBe("12:00 PM");
    expect(timeLabel("17:45")).toBe("5:45 PM");
  });

  it("knows real time zones only", () => {
    expect(isTimeZone("America/New_York")).toBe(true);
    expect(isTimeZone("Europe/Paris")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("../etc")).toBe(false);
  });
});

describe("a booking's fields", () => {
  it("refuses a name or phone with a line break, and a move-in date the database cannot hold", async () => {
    const { checkBooking } = await import("./showing-booking");
    const check = checkBooking({
      name: "Jo\n\nURGENT: pay at http://evil.example",
      email: "jo@example.com",
      phone: "1\r\nBcc: x",
      moveIn: "0000-01-01",
      start: "2026-12-01T15:00:00.000Z",
    });
    expect(check.errors).toEqual({
      name: "Enter your name.",
      phone: "Enter a phone number of at most 40 characters.",
      moveIn: "Enter a date such as 2027-03-01, or leave it empty.",
    });
    expect(check.person).toBeNull();
  });
});
