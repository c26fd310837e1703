import type { Db } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import type { Feature } from "~/shared/feature.server";
import { eraseShowingsOf, purgeOldShowings } from "./showings.server";

/** Showings that book themselves (docs/architecture.md, "The feature contract"). */
export const showingsFeature: Feature<{ db: Db; env: Pick<Env, "leads"> }> = {
  name: "showings",
  tables: ["showing_hours", "showings"],
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
  erasePerson: ({ db }, email) => eraseShowingsOf(db, email),
};
