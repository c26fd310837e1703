// 'Showing hours' (docs/behaviour.md §33): one set for the company, stored as one row; read by
// every detail page that offers times, written by staff who manage listings.
import { z } from "zod";
import { isIsoDate } from "~/domain/listing-facts";
import {
  DEFAULT_SHOWING_HOURS,
  isTimeZone,
  type ShowingHours,
  SLOT_LENGTHS,
  WEEKDAYS,
} from "~/domain/showing-slots";
import { formText, readFields } from "~/shared/action-result.server";
import type { Queryable } from "~/shared/db.server";
import { logEvent } from "~/shared/events.server";

/** The stored hours, or the defaults (every day closed) before anyone saved them. */
export async function getShowingHours(db: Queryable): Promise<ShowingHours> {
  const [row] = await db.query<{ settings: unknown }>(
    "SELECT settings FROM showing_hours WHERE id = 1",
  );
  if (!row) return DEFAULT_SHOWING_HOURS;
  const stored = typeof row.settings === "string" ? JSON.parse(row.settings) : row.settings;
  return { ...DEFAULT_SHOWING_HOURS, ...(stored as Partial<ShowingHours>) };
}

export async function saveShowingHours(
  db: Queryable,
  hours: ShowingHours,
  by: string | null,
): Promise<void> {
  await db.query(
    `INSERT INTO showing_hours (id, settings, updated_at) VALUES (1, $1, now())
     ON CONFLICT (id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = now()`,
    [JSON.stringify(hours)],
  );
  logEvent("showing hours saved", by, {});
}

/** The form's field names: `from-Monday`, `to-Monday`, …, then one per setting. */
export type HoursField =
  | `from-${(typeof WEEKDAYS)[number]}`
  | `to-${(typeof WEEKDAYS)[number]}`
  | "slotMinutes"
  | "minimumNoticeHours"
  | "bookUpToDays"
  | "bufferMinutes"
  | "visitorsPerSlot"
  | "closedDates"
  | "timeZone"
  | "reminderHours"
  | "cancelIfNotConfirmedHours";

export type HoursValues = Record<HoursField, string>;

const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;

const whole = (min: number, max: number, message: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,4}$/, message)
    .transform(Number)
    .pipe(z.number().min(min, message).max(max, message));

const numbers = (text: string) =>
  text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((t) => (/^\d{1,3}$/.test(t) ? Number(t) : Number.NaN));

const dates = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/** The settings' checks, each refusal with its message (the form's field names). */
const SETTINGS = z.object({
  slotMinutes: z
    .string()
    .refine((v) => (SLOT_LENGTHS as readonly number[]).includes(Number(v)), {
      message: "Choose 15, 30, 45 or 60 minutes.",
    })
    .transform((v) => Number(v) as ShowingHours["slotMinutes"]),
  minimumNoticeHours: whole(0, 336, "Enter whole hours from 0 to 336."),
  bookUpToDays: whole(1, 90, "Enter whole days from 1 to 90."),
  bufferMinutes: whole(0, 240, "Enter whole minutes from 0 to 240."),
  visitorsPerSlot: whole(1, 20, "Enter a whole number from 1 to 20."),
  closedDates: z
    .string()
    .refine((v) => dates(v).every(isIsoDate), {
      message: "Enter dates as YYYY-MM-DD, separated by commas or new lines.",
    })
    .refine((v) => dates(v).length <= 366, { message: "At most 366 closed dates." })
    .transform((v) => [...new Set(dates(v))].sort()),
  timeZone: z
    .string()
    .trim()
    .refine(isTimeZone, { message: "Enter a time zone such as America/New_York." }),
  reminderHours: z
    .string()
    .refine((v) => numbers(v).every((n) => Number.isInteger(n) && n >= 1 && n <= 168), {
      message: "Enter hours from 1 to 168, separated by commas (empty: no reminders).",
    })
    .refine((v) => numbers(v).length <= 3, { message: "At most 3 reminders." })
    .transform((v) => [...new Set(numbers(v))].sort((a, b) => b - a)),
  cancelIfNotConfirmedHours: z
    .string()
    .trim()
    .refine((v) => v === "" || (/^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= 168), {
      message: "Enter hours from 1 to 168, or leave it empty to keep unconfirmed showings.",
    })
    .transform((v) => (v === "" ? null : Number(v))),
});

/** The values a saved set shows in the form. */
export function hoursValues(hours: ShowingHours): HoursValues {
  const values: Partial<HoursValues> = {};
  for (const day of WEEKDAYS) {
    values[`from-${day}`] = hours.week[day]?.from ?? "";
    values[`to-${day}`] = hours.week[day]?.to ?? "";
  }
  return {
    ...(values as HoursValues),
    slotMinutes: String(hours.slotMinutes),
    minimumNoticeHours: String(hours.minimumNoticeHours),
    bookUpToDays: String(hours.bookUpToDays),
    bufferMinutes: String(hours.bufferMinutes),
    visitorsPerSlot: String(hours.visitorsPerSlot),
    closedDates: hours.closedDates.join(", "),
    timeZone: hours.timeZone,
    reminderHours: hours.reminderHours.join(", "),
    cancelIfNotConfirmedHours:
      hours.cancelIfNotConfirmedHours === null ? "" : String(hours.cancelIfNotConfirmedHours),
  };
}

/** The form as sent, each field as typed (at most 10,000 characters): any form parses. */
const fieldText = formText.transform((v) => v.slice(0, 10_000));
const HOURS_FORM = z.object(
  Object.fromEntries(
    Object.keys(hoursValues(DEFAULT_SHOWING_HOURS)).map((name) => [name, fieldText]),
  ) as Record<HoursField, typeof fieldText>,
);

export type HoursCheck =
  | { ok: true; hours: ShowingHours }
  | { ok: false; values: HoursValues; errors: Partial<Record<HoursField, string>> };

/** Reads the 'Showing hours' form: the hours, or each field's refusal with what was typed. */
export function checkHoursForm(form: FormData): HoursCheck {
  const values = readFields(form, HOURS_FORM);
  const errors: Partial<Record<HoursField, string>> = {};
  const week = { ...DEFAULT_SHOWING_HOURS.week };
  for (const day of WEEKDAYS) {
    const from = values[`from-${day}`].trim();
    const to = values[`to-${day}`].trim();
    if (from === "" && to === "") continue;
    if (!CLOCK.test(from))
      errors[`from-${day}`] = "Enter a time such as 09:00, or leave both empty.";
    if (!CLOCK.test(to)) errors[`to-${day}`] = "Enter a time such as 17:00, or leave both empty.";
    else if (CLOCK.test(from) && to <= from) errors[`to-${day}`] = "Enter a time after 'From'.";
    week[day] = { from, to };
  }
  const settings = SETTINGS.safeParse(values);
  if (!settings.success) {
    for (const issue of settings.error.issues) {
      const field = issue.path[0] as HoursField;
      errors[field] ??= issue.message;
    }
  }
  // A showing is cancelled for want of confirmation only after a reminder asked for it.
  const deadline = settings.success ? settings.data.cancelIfNotConfirmedHours : null;
  if (settings.success && deadline !== null && !errors.cancelIfNotConfirmedHours) {
    const first = Math.max(0, ...settings.data.reminderHours);
    if (deadline >= first) {
      errors.cancelIfNotConfirmedHours =
        "Enter fewer hours than the earliest reminder, so that renters are asked to confirm first.";
    }
  }
  if (Object.keys(errors).length > 0 || !settings.success) return { ok: false, values, errors };
  return { ok: true, hours: { week, ...settings.data } };
}
