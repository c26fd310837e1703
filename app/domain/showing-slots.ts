// Showing hours and the times they offer (docs/behaviour.md §33, "Showings"): wall-clock hours
// per weekday in the company's time zone, cut into slots of a fixed length with a buffer after
// each, honouring the minimum notice, how far ahead one may book, closed dates and daylight
// saving (a local time that does not exist that day is skipped; one that occurs twice is
// offered once, at its first occurrence). Server-side: it uses Intl's time zones.

import { MONTHS } from "./listing-facts";

export const WEEKDAYS = [
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
  "Sunday",
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const SLOT_LENGTHS = [15, 30, 45, 60] as const;
export type SlotLength = (typeof SLOT_LENGTHS)[number];

/** 'HH:MM', 24-hour. */
export type ClockTime = string;

export interface ShowingHours {
  /** Each weekday's window, or null: closed. */
  week: Record<Weekday, { from: ClockTime; to: ClockTime } | null>;
  slotMinutes: SlotLength;
  minimumNoticeHours: number;
  bookUpToDays: number;
  bufferMinutes: number;
  visitorsPerSlot: number;
  /** 'YYYY-MM-DD', in the company's time zone. */
  closedDates: string[];
  /** An IANA zone. */
  timeZone: string;
  /** Hours before a showing that a reminder goes out, largest first. */
  reminderHours: number[];
  /** Hours before a showing that an unconfirmed one is cancelled; null: never. */
  cancelIfNotConfirmedHours: number | null;
}

export const DEFAULT_SHOWING_HOURS: ShowingHours = {
  week: {
    Monday: null,
    Tuesday: null,
    Wednesday: null,
    Thursday: null,
    Friday: null,
    Saturday: null,
    Sunday: null,
  },
  slotMinutes: 30,
  minimumNoticeHours: 2,
  bookUpToDays: 14,
  bufferMinutes: 0,
  visitorsPerSlot: 1,
  closedDates: [],
  timeZone: "America/New_York",
  reminderHours: [24, 2],
  cancelIfNotConfirmedHours: null,
};

export interface Slot {
  start: Date;
  end: Date;
  /** The local day, 'YYYY-MM-DD'. */
  date: string;
  /** The local start, 'HH:MM'. */
  time: ClockTime;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether Intl knows the zone (an IANA name such as 'America/New_York'). */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(name) || name.length > 64) return false;
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

/** The local wall-clock parts of an instant in a zone. */
export function localParts(instant: Date, timeZone: string) {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(instant)) {
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  }
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0 } = parts;
  const date = `${year}-${pad(month)}-${pad(day)}`;
  return { date, minutes: hour * 60 + minute, weekday: weekdayOf(date) };
}

/** Minutes the zone is ahead of UTC at an instant (ms since the epoch). */
export function offsetMinutes(instant: number, timeZone: string): number {
  const { date, minutes } = localParts(new Date(instant), timeZone);
  const asUtc = Date.parse(`${date}T00:00:00Z`) + minutes * 60_000;
  return Math.round((asUtc - Math.floor(instant / 60_000) * 60_000) / 60_000);
}

/**
 * The instant of a local date and time in a zone: null when that time does not exist that day
 * (skipped by a change to summer time); its first occurrence when it occurs twice.
 */
export function zonedInstant(date: string, minutes: number, timeZone: string): Date | null {
  const wall = Date.parse(`${date}T00:00:00Z`) + minutes * 60_000;
  const day = 24 * 60 * 60_000;
  const candidates = [offsetMinutes(wall - day, timeZone), offsetMinutes(wall + day, timeZone)]
    .map((offset) => wall - offset * 60_000)
    .filter((instant) => {
      const local = localParts(new Date(instant), timeZone);
      return local.date === date && local.minutes === minutes;
    })
    .sort((a, b) => a - b);
  return candidates.length > 0 ? new Date(candidates[0] as number) : null;
}

/** Two digits: 9 → '09'. */
export const pad = (n: number) => String(n).padStart(2, "0");

/** 'HH:MM' → minutes after midnight; null for anything else. */
export function clockMinutes(text: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

function weekdayOf(date: string): Weekday {
  // 1970-01-05 was a Monday.
  const days = Math.round((Date.parse(`${date}T00:00:00Z`) - Date.UTC(1970, 0, 5)) / 86_400_000);
  return WEEKDAYS[((days % 7) + 7) % 7] as Weekday;
}

function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Every slot the hours offer from `now`: at least the minimum notice ahead, starting before
 * `bookUpToDays` days from now, on open, not closed days; in time order. `seatsTaken` says how
 * many visitors a slot (by its start) already has; full slots are left out.
 */
export function showingSlots(
  hours: ShowingHours,
  now: Date,
  seatsTaken: (start: Date) => number = () => 0,
): Slot[] {
  const earliest = now.getTime() + hours.minimumNoticeHours * 3_600_000;
  const latest = now.getTime() + hours.bookUpToDays * 86_400_000;
  const closed = new Set(hours.closedDates);
  const today = localParts(now, hours.timeZone).date;
  const step = hours.slotMinutes + hours.bufferMinutes;
  const slots: Slot[] = [];
  for (let d = 0; d <= hours.bookUpToDays; d++) {
    const date = addDays(today, d);
    const open = hours.week[weekdayOf(date)];
    if (!open || closed.has(date)) continue;
    const from = clockMinutes(open.from);
    const to = clockMinutes(open.to);
    if (from === null || to === null) continue;
    for (let m = from; m + hours.slotMinutes <= to; m += step) {
      const start = zonedInstant(date, m, hours.timeZone);
      if (!start || start.getTime() < earliest || start.getTime() >= latest) continue;
      if (seatsTaken(start) >= hours.visitorsPerSlot) continue;
      const end = new Date(start.getTime() + hours.slotMinutes * 60_000);
      slots.push({ start, end, date, time: `${pad(Math.floor(m / 60))}:${pad(m % 60)}` });
    }
  }
  return slots;
}

/** Whether `start` is one of the times the hours offer (free or not), from `now`. */
export function isOfferedStart(hours: ShowingHours, now: Date, start: Date): boolean {
  return showingSlots(hours, now).some((s) => s.start.getTime() === start.getTime());
}

function dayParts(date: string) {
  const [, month = 1, day = 1] = date.split("-").map(Number);
  const weekday = weekdayOf(date);
  return { weekday, month: MONTHS[month - 1] ?? "", day };
}

/** 'Tue, Dec 1': a day among the choices. */
export function shortDayLabel(date: string): string {
  const { weekday, month, day } = dayParts(date);
  return `${weekday.slice(0, 3)}, ${month.slice(0, 3)} ${day}`;
}

/** 'Tuesday, December 1': the day of a booking. */
export function longDayLabel(date: string): string {
  const { weekday, month, day } = dayParts(date);
  return `${weekday}, ${month} ${day}`;
}

/** '10:30 AM' of 'HH:MM'. */
export function timeLabel(time: ClockTime): string {
  const minutes = clockMinutes(time) ?? 0;
  const h = Math.floor(minutes / 60);
  const suffix = h < 12 ? "AM" : "PM";
  return `${h % 12 === 0 ? 12 : h % 12}:${pad(minutes % 60)} ${suffix}`;
}

/** The slot of an instant in the hours' zone: its local day and time. */
export function slotOf(hours: ShowingHours, start: Date): Slot {
  const { date, minutes } = localParts(start, hours.timeZone);
  return {
    start,
    end: new Date(start.getTime() + hours.slotMinutes * 60_000),
    date,
    time: `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`,
  };
}
