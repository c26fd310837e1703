// The jobs a booked showing plans in its own transaction (docs/behaviour.md §33, "Reminders and
// confirmation"): a reminder at each of 'Reminders' hours before it, and with 'Cancel if not
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
}

export interface ExpireData {
  id: number;
}

const HOUR = 3_600_000;

/**
 * Plans the reminders and the cancellation of an unconfirmed showing, in the booking's
 * transaction. Times already past are skipped: a showing booked 3 hours ahead gets its 2-hour
 * reminder only, and one booked inside 'Cancel if not confirmed' is not cancelled for it.
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
  for (const h of hours.reminderHours) {
    if (before(h) > now) {
      await scheduler.at(REMIND_JOB, before(h), { id: showing.id, hoursBefore: h }, tx);
    }
  }
  const deadline = hours.cancelIfNotConfirmedHours;
  if (deadline !== null && before(deadline) > now) {
    await scheduler.at(EXPIRE_JOB, before(deadline), { id: showing.id }, tx);
  }
}
