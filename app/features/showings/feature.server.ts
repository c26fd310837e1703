import type { ApplicationServices } from "~/features/applications/index.server";
import type { Db } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import type { Feature } from "~/shared/feature.server";
import { EXPIRE_JOB, type ExpireData, REMIND_JOB, type RemindData } from "./reminder-plan.server";
import { cancelIfUnconfirmed, sendShowingReminder } from "./reminders.server";
import { eraseShowingsOf, purgeOldShowings } from "./showings.server";

/** Showings that book themselves (docs/architecture.md, "The feature contract"). */
export const showingsFeature: Feature<{ db: Db; env: Env; applications: ApplicationServices }> = {
  name: "showings",
  tables: ["showing_hours", "showings", "showing_reminders", "showing_calendar_feeds"],
  // Bookings per client and hour, counted apart from inquiries (the same INQUIRY_RATE_LIMIT).
  limits: [{ name: "showing", perHour: ({ env }) => env.leads.inquiriesPerHour }],
  // A showing's renter details go LEAD_RETENTION_DAYS after it (docs/behaviour.md §33).
  jobs: ({ db, env }) => [
    {
      name: "showings.purge",
      everySeconds: 3600,
      run: async () => {
        const n = await purgeOldShowings(db, env.leads.retentionDays);
        return n > 0 ? `Deleted ${n} past showings.` : undefined;
      },
    },
  ],
  // Planned by each booking for its own times (reminder-plan.server.ts).
  delayedJobs: (services) => [
    { name: REMIND_JOB, run: (data: RemindData) => sendShowingReminder(services, data) },
    { name: EXPIRE_JOB, run: (data: ExpireData) => cancelIfUnconfirmed(services, data) },
  ],
  erasePerson: ({ db }, email) => eraseShowingsOf(db, email),
};
