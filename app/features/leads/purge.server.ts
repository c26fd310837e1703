import type { Db } from "~/shared/db.server";
import { log } from "~/shared/logger.server";
import { purgeClosedLeads } from "./leads.server";

/** Leads closed more than LEAD_RETENTION_DAYS ago are deleted, with their e-mail (hourly). */
export function startLeadPurge(db: Db, days: number, everyMs = 60 * 60_000): () => void {
  const run = () =>
    purgeClosedLeads(db, days)
      .then((n) => {
        if (n > 0) log().info({ event: "leads purged", count: n }, `Deleted ${n} closed leads.`);
      })
      .catch((error) => log().warn({ err: error }, "Deleting closed leads failed"));
  void run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
