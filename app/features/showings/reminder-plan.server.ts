// The jobs a booked showing plans in its own transaction (docs/behaviour.md §33, "Reminders and
// confirmation"): a reminder at each of 'Reminders' hours before it and, with 'Cancel if not
// confirmed' set, its cancellation at that time unless the renter confirmed. Each job finds the
// showing as it is then: one cancelled or moved meanwhile is left alone (a move books a new
// showing, which plans its own).
import type { ShowingHours } from "~/domain/showing-slots";
import type { Queryable } from "~/shared/db.server";
import type { Scheduler } from "~/shared/scheduler.server";

export const REMIND_JOB = "showings.remind";
export const EXPIRE_JOB = "showings.expire";

export interface RemindData {
  id: number;
  hoursBefore: number;
  /** This reminder asks to confirm by the deadline (a cancellation was planned after it). */
  confirmBy?: boolean;
}

export interface ExpireData {
  id: number;
}

const HOUR = 3_600_000;

/**
 * Plans the reminders and the cancellation of an unconfirmed showing, in the booking's
 * transaction. Times already past are skipped: a showing booked 3 hours ahead gets its 2-hour
 * reminder only. A showing is cancelled for want of confirmation only when a reminder asks
 * the renter to confirm before that time: one booked too close to it is not.
 */
export async function planShowingJobs(
  scheduler: Pick<Scheduler, "at"> | undefined,
  tx: Queryable,
  showing: { id: number; start: Date },
  hours: Pick<ShowingHours, "reminderHours" | "cancelIfNotConfirmedHours">,
  now: Date,
): Promise<void> {
  if (!scheduler) return;
  const before = (h: number) => new Date(showing.start.getTime() - h * HOUR);
  const reminders = hours.reminderHours.filter((h) => before(h) > now);
  const deadline = hours.cancelIfNotConfirmedHours;
  const expires =
    deadline !== null && before(deadline) > now && reminders.some((h) => h > deadline);
  for (const h of reminders) {
    const confirmBy = expires && deadline !== null && h > deadline;
    await scheduler.at(REMIND_JOB, before(h), { id: showing.id, hoursBefore: h, confirmBy }, tx);
  }
  if (expires && deadline !== null) {
    await scheduler.at(EXPIRE_JOB, before(deadline), { id: showing.id }, tx);
  }
}
