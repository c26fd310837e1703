import type { Db } from "~/shared/db.server";
import type { PeriodicJob } from "~/shared/scheduler.server";
import { purgeClosedLeads } from "./leads.server";

/** Leads closed more than LEAD_RETENTION_DAYS ago are deleted, with their e-mail (hourly). */
export function leadPurgeJob(db: Db, days: number): PeriodicJob {
  return {
    name: "leads.purge",
    everySeconds: 3600,
    run: async () => {
      const n = await purgeClosedLeads(db, days);
      return n > 0 ? `Deleted ${n} closed leads.` : undefined;
    },
  };
}
