// Work done at most once per period across instances and restarts (the weekly stale-listings
// e-mail, the alerts' daily new matches): the row of `scheduled_runs` for its name is moved on
// in the transaction that does the work, so a run is taken by one instance and a rolled-back
// run is not counted (docs/operations.md, "Scheduled jobs and the 'Status' page").
import type { Queryable } from "./db.server";

/**
 * Takes the run `name` at `now` when none was taken in the `everyHours` before; false when one
 * was (another instance's, or an earlier one). Call it inside the transaction of the work.
 */
export async function takeScheduledRun(
  tx: Queryable,
  name: string,
  now: Date,
  everyHours: number,
): Promise<boolean> {
  const taken = await tx.query(
    `INSERT INTO scheduled_runs (name, last_run) VALUES ($1, $2)
     ON CONFLICT (name) DO UPDATE SET last_run = EXCLUDED.last_run
     WHERE scheduled_runs.last_run <= EXCLUDED.last_run - make_interval(hours => $3)
     RETURNING name`,
    [name, now.toISOString(), everyHours],
  );
  return taken.length > 0;
}
